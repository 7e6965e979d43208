/**
 * The streaming writer refuses a cell Excel cannot hold with the sheet, row and column that hold it
 * (counting the rows of earlier appends), and the paste is absent: the hidden sheets it opened are
 * deleted when it is discarded. Fake workbook.
 */
import { StreamingSheets } from "../../src/excel/stream-sheets";
import { englishTranslator } from "../../src/i18n/translator";
import type { MessageError } from "../../src/i18n/message-error";
import type { CellValue } from "../../src/shaping/types";
import { createFakeExcel } from "../../testing/fake-excel";

/** Appends `first`, then `second`, to a new stream; answers the error's English sentence. */
async function refusal(first: CellValue[][], second: CellValue[][]): Promise<string> {
  const fake = createFakeExcel();
  const before = fake.sheetNames();
  let said = "";
  await fake.run(async (context) => {
    const writer = await StreamingSheets.open(context, [{ sheetName: "Series" }]);
    try {
      await writer.append(0, first);
      await writer.append(0, second);
    } catch (error) {
      said = englishTranslator.format((error as MessageError).said!);
      await writer.discard(error);
    }
  });
  expect(fake.sheetNames()).toEqual(before);
  return said;
}

test("a number that is not finite: its row (earlier appends counted) and column are named", async () => {
  const said = await refusal(
    [
      ["A", 1, 2],
      ["B", 3, 4],
    ],
    [
      ["C", 5, 6],
      ["D", 7, Number.NaN],
    ],
  );
  expect(said).toBe('Sheet "Series": row 4, column 3 holds NaN, which a cell cannot hold.');
});

test("a text longer than a cell holds: its row, column and length are named", async () => {
  const said = await refusal([["A", "x".repeat(32_768)]], []);
  expect(said).toBe('Sheet "Series": row 1, column 2 has 32,768 characters; an Excel cell holds at most 32,767.');
});
