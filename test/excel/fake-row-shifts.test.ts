/**
 * The fake moves rows (and cells sideways) as Excel does: Range.delete(up/left) /
 * insert(down/right), TableRow.delete and TableRowCollection.add shift cells, formulas that point
 * at moved cells follow them (on any sheet, absolute or not), references to deleted cells become
 * #REF!, a table whose rows (columns) are deleted or inserted shrinks or grows, and Table.sort
 * moves whole table rows with their formulas as a copy would. The rules are cited in
 * testing/fake-excel/shift.ts and model.ts.
 */
import { createFakeExcel, type FakeExcel } from "../../testing/fake-excel";
import { adjustFormula, translateFormula } from "../../testing/fake-excel/shift";

/** A sheet "Data" with a table A1:C5 (key, score, a user column) and formulas pointing into it. */
async function workbook(): Promise<FakeExcel> {
  const fake = createFakeExcel({ firstSheetName: "Data" });
  fake.setValues("Data", "A1:C5", [
    ["key", "score", "note"],
    ["a", 1, "n-a"],
    ["b", 2, "n-b"],
    ["c", 3, "n-c"],
    ["d", 4, "n-d"],
  ]);
  fake.setValues("Data", "E2:E5", [["beside a"], ["beside b"], ["beside c"], ["beside d"]]);
  fake.addSheet("Report");
  fake.setValues("Report", "A1:D1", [["=Data!B3", "=Data!$B$4*2", "=SUM(Data!B2:B5)", "=Data!B3:B4"]]);
  await fake.run(async (context) => {
    context.workbook.worksheets.getItem("Data").tables.add("A1:C5", true).name = "Scores";
  });
  return fake;
}

/** Inserts cells at `address` on the Data sheet, shifting right, and answers the Scores table's address after. */
async function insertRightOfScores(fake: FakeExcel, address: string): Promise<string> {
  return fake.run(async (context) => {
    const sheet = context.workbook.worksheets.getItem("Data");
    sheet.getRange(address).insert("Right" as Excel.InsertShiftDirection);
    await context.sync();
    const range = sheet.tables.getItem("Scores").getRange();
    range.load("address");
    await context.sync();
    return range.address;
  });
}

const formulas = (fake: FakeExcel, sheet: string, address: string) => fake.read(sheet, address, "formulas");

describe("reference adjustment", () => {
  it("moves references below an insertion, grows ranges across it, leaves quoted text and structured references", () => {
    const shift = { sheetName: "S", row: 3, count: 2, col: 0, cols: 16_384 };
    expect(adjustFormula('=B4+B3+SUM(B2:B5)+LEN("B4")+T[@B4]+Scores[score]', "S", shift)).toBe(
      '=B6+B3+SUM(B2:B7)+LEN("B4")+T[@B4]+Scores[score]',
    );
    expect(adjustFormula("=S!$B$4+Other!B4+'My S'!B4", "Other", { ...shift, sheetName: "My S" })).toBe(
      "=S!$B$4+Other!B4+'My S'!B6",
    );
  });

  it("turns a deleted cell into #REF! and shrinks a range that loses rows", () => {
    const shift = { sheetName: "S", row: 2, count: -1, col: 0, cols: 16_384 };
    expect(adjustFormula("=B3*2+B4+SUM(B2:B5)+SUM(B3:B3)+LOG10(B5)", "S", shift)).toBe(
      "=#REF!*2+B3+SUM(B2:B4)+SUM(#REF!)+LOG10(B4)",
    );
    expect(adjustFormula("=S!B3", "T", shift)).toBe("=S!#REF!");
  });

  it("moves only references wholly inside the shifted columns", () => {
    const shift = { sheetName: "S", row: 1, count: -1, col: 0, cols: 3 };
    expect(adjustFormula("=C5+D5+SUM(A3:D3)+SUM(A3:C3)", "S", shift)).toBe("=C4+D5+SUM(A3:D3)+SUM(A2:C2)");
  });

  it("moves relative rows of a sorted formula as a copy, keeping $-rows", () => {
    expect(translateFormula("=B5*2+$B$5+B$5+Other!C5", -2)).toBe("=B3*2+$B$5+B$5+Other!C3");
  });
});

describe("row deletion and insertion", () => {
  it("Range.delete(up) of a table row with the cells beside it: the table shrinks, references follow, the deleted row is #REF!", async () => {
    const fake = await workbook();
    await fake.run(async (context) => {
      context.workbook.worksheets.getItem("Data").getRange("A3:E3").delete("Up");
    });
    expect(fake.read("Data", "A2:E4")).toEqual([
      ["a", 1, "n-a", "", "beside a"],
      ["c", 3, "n-c", "", "beside c"],
      ["d", 4, "n-d", "", "beside d"],
    ]);
    expect(fake.snapshot().tables).toEqual([{ name: "Scores", address: "Data!A1:C4" }]);
    expect(formulas(fake, "Report", "A1:D1")).toEqual([
      ["=Data!#REF!", "=Data!$B$3*2", "=SUM(Data!B2:B4)", "=Data!B3:B3"],
    ]);
    expect(fake.read("Report", "A1")).toEqual([["#REF!"]]);
  });

  it("TableRow.delete shifts the table's columns only: a note beside the table stays on its sheet row", async () => {
    const fake = await workbook();
    await fake.run(async (context) => {
      context.workbook.worksheets.getItem("Data").tables.getItem("Scores").rows.getItemAt(0).delete();
    });
    expect(fake.read("Data", "A2:E2")).toEqual([["b", 2, "n-b", "", "beside a"]]);
    expect(fake.snapshot().tables).toEqual([{ name: "Scores", address: "Data!A1:C4" }]);
    expect(formulas(fake, "Report", "A1:B1")).toEqual([["=Data!B2", "=Data!$B$3*2"]]);
  });

  it("rows.add in the middle inserts in the table's columns and references below move down", async () => {
    const fake = await workbook();
    await fake.run(async (context) => {
      context.workbook.worksheets
        .getItem("Data")
        .tables.getItem("Scores")
        .rows.add(1, [["new", 9, ""]]);
    });
    expect(fake.read("Data", "A3:C4")).toEqual([
      ["new", 9, ""],
      ["b", 2, "n-b"],
    ]);
    expect(fake.snapshot().tables).toEqual([{ name: "Scores", address: "Data!A1:C6" }]);
    expect(formulas(fake, "Report", "A1:D1")).toEqual([
      ["=Data!B4", "=Data!$B$5*2", "=SUM(Data!B2:B6)", "=Data!B4:B5"],
    ]);
  });

  it("Range.insert(down) over the table's width grows it and returns the blank range", async () => {
    const fake = await workbook();
    const address = await fake.run(async (context) => {
      const inserted = context.workbook.worksheets.getItem("Data").getRange("A3:E4").insert("Down");
      inserted.load("address");
      await context.sync();
      return inserted.address;
    });
    expect(address).toBe("Data!A3:E4");
    expect(fake.read("Data", "A5:E5")).toEqual([["b", 2, "n-b", "", "beside b"]]);
    expect(fake.snapshot().tables).toEqual([{ name: "Scores", address: "Data!A1:C7" }]);
    expect(formulas(fake, "Report", "A1")).toEqual([["=Data!B5"]]);
  });

  it("refuses to shift part of a table, as Excel does, and changes nothing", async () => {
    const fake = await workbook();
    const before = fake.snapshot();
    await fake.run(async (context) => {
      context.workbook.worksheets.getItem("Data").getRange("B3:C3").delete("Up");
      await expect(context.sync()).rejects.toMatchObject({ code: "InvalidOperation" });
    });
    expect(fake.snapshot()).toEqual(before);
  });

  it("moves a formula in a shifted cell with its row: its own-row reference still names its row", async () => {
    const fake = await workbook();
    fake.setValues("Data", "F4", [["=B4*2"]]);
    await fake.run(async (context) => {
      context.workbook.worksheets.getItem("Data").getRange("A2:F2").delete("Up");
    });
    expect(formulas(fake, "Data", "F3")).toEqual([["=B3*2"]]);
    expect(fake.read("Data", "A3")).toEqual([["c"]]);
  });

  it("hidden rows move with whole-row deletion", async () => {
    const fake = await workbook();
    await fake.run(async (context) => {
      const sheet = context.workbook.worksheets.getItem("Data");
      sheet.getRange("A4").rowHidden = true;
      sheet.getRange("2:2").delete("Up");
      const hidden = sheet.getRange("A3");
      hidden.load("rowHidden");
      await context.sync();
      expect(hidden.rowHidden).toBe(true);
    });
  });
});

describe("Table.sort", () => {
  it("reorders whole table rows, moving relative references of the formulas sorted, not those from elsewhere", async () => {
    const fake = await workbook();
    fake.setValues("Data", "C2:C5", [["=B2*10"], ["=B3*10"], ["=B4*10"], ["=B5*10"]]);
    await fake.run(async (context) => {
      context.workbook.worksheets
        .getItem("Data")
        .tables.getItem("Scores")
        .sort.apply([{ key: 1, ascending: false }]);
    });
    expect(fake.read("Data", "A2:A5")).toEqual([["d"], ["c"], ["b"], ["a"]]);
    expect(formulas(fake, "Data", "C2:C5")).toEqual([["=B2*10"], ["=B3*10"], ["=B4*10"], ["=B5*10"]]);
    // Cells beside the table are not part of the sort.
    expect(fake.read("Data", "E2")).toEqual([["beside a"]]);
    expect(formulas(fake, "Report", "A1")).toEqual([["=Data!B3"]]);
  });
});

describe("cells inserted and deleted sideways (Range.insert right, Range.delete left)", () => {
  it("moves references right of an insertion in its rows, widens a range across it, #REF! for deleted columns", () => {
    const insert = { axis: "columns" as const, sheetName: "S", col: 2, count: 2, row: 0, rows: 10 };
    expect(adjustFormula("=C4+B4+SUM(A2:D2)+S!$D$3+C12+3:5", "S", insert)).toBe("=E4+B4+SUM(A2:F2)+S!$F$3+C12+3:5");
    const remove = { ...insert, count: -1 };
    expect(adjustFormula("=C4*2+D4+SUM(A2:D2)", "S", remove)).toBe("=#REF!*2+C4+SUM(A2:C2)");
  });

  it("inserting over a table's rows at its right edge moves the cells beside it but does not widen it; inside it widens it", async () => {
    const fake = await workbook();
    expect(await insertRightOfScores(fake, "D1:D5")).toBe("Data!A1:C5");
    // The notes beside the table moved right with their rows; nothing below row 5 moved.
    expect(fake.read("Data", "F2:F5")).toEqual([["beside a"], ["beside b"], ["beside c"], ["beside d"]]);
    expect(await insertRightOfScores(fake, "C1:C5")).toBe("Data!A1:D5");
    expect(fake.read("Data", "A1:D2")).toEqual([
      ["key", "score", "Column1", "note"],
      ["a", 1, "", "n-a"],
    ]);
    expect(fake.read("Data", "G2")).toEqual([["beside a"]]);
    // Deleting them again (left) narrows the table and brings the cells back.
    await fake.run(async (context) => {
      const sheet = context.workbook.worksheets.getItem("Data");
      sheet.getRange("C1:C5").delete("Left" as Excel.DeleteShiftDirection);
      await context.sync();
    });
    expect(fake.read("Data", "A1:C1")).toEqual([["key", "score", "note"]]);
    expect(fake.read("Data", "F2")).toEqual([["beside a"]]);
  });

  it("refuses a sideways shift over part of a table's rows", async () => {
    const fake = await workbook();
    await expect(
      fake.run(async (context) => {
        context.workbook.worksheets
          .getItem("Data")
          .getRange("B2:B3")
          .insert("Right" as Excel.InsertShiftDirection);
        await context.sync();
      }),
    ).rejects.toThrow(/attempting to shift cells in a table/);
    expect(fake.read("Data", "A2:C2")).toEqual([["a", 1, "n-a"]]);
  });
});
