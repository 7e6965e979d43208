/**
 * The LibreOffice helper writes the fake's tables as real tables, so formulas that name a table's
 * columns are recalculated as Excel would, and stores future functions as Excel's files do.
 */
import { createFakeExcel } from "../../testing/fake-excel";
import { asStoredFormula, describeWithLibreOffice, recalculateInLibreOffice } from "./libreoffice";

test("functions newer than Excel 2007 get _xlfn., string literals and prefixed names do not", () => {
  expect(asStoredFormula('IFS(A1>0,"IFS(",TRUE,xlookup(1,B:B,C:C))')).toBe(
    '_xlfn.IFS(A1>0,"IFS(",TRUE,_xlfn.XLOOKUP(1,B:B,C:C))',
  );
  expect(asStoredFormula("_xlfn.IFS(1,2)+SUMPRODUCT(T[a])")).toBe("_xlfn.IFS(1,2)+SUMPRODUCT(T[a])");
});

describeWithLibreOffice(__filename)("a table of the fake is a table of the .xlsx", () => {
  test("a formula over a table's columns follows the rows the table has, and IFS computes", async () => {
    const fake = createFakeExcel({ firstSheetName: "Data" });
    await fake.run(async (context) => {
      const sheet = context.workbook.worksheets.getItem("Data");
      sheet.getRange("A1:B4").values = [
        ["value", "currency"],
        [1, "EUR"],
        [2, "USD"],
        [4, "USD"],
      ];
      context.workbook.tables.add("Data!A1:B4", true).name = "Data_t";
      sheet.getRange("A7").values = [["outside"]];
      sheet.getRange("D1:D2").formulas = [
        ['=SUMPRODUCT(Data_t[value]*(Data_t[currency]="USD"))'],
        ['=IFS(ROWS(Data_t[value])=3,"three")'],
      ];
      await context.sync();
    });
    const book = await recalculateInLibreOffice(fake.snapshot());
    expect(book.number("Data", "D1")).toBe(6);
    expect(book.text("Data", "D2")).toBe("three");
    expect(book.text("Data", "A7")).toBe("outside");
  }, 120_000);
});
