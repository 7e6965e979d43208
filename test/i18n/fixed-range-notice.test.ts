/**
 * The notice beside a table that reads fixed ranges of its data (src/excel/fixed-range-formulas.ts)
 * is words for a reader: written in the pane's language, a formula still counting the data table's
 * rows, and recognised by the upgrade in whatever language it was written (issue 40). Fake workbook.
 */
import {
  findFixedRangeTables,
  markFixedRangeTables,
  upgradeFixedRangeTables,
} from "../../src/excel/fixed-range-formulas";
import { setSheetWords } from "../../src/excel/sheet-words";
import { createTranslator, loadCatalog } from "../../src/i18n/translator";
import { tableColumn } from "../../src/taskpane/features/disclosure/model/disclosure-tables";
import { newWorkbook } from "../taskpane/support";

afterAll(async () => setSheetWords(createTranslator("en", await loadCatalog("en")).format));

test("written in German, counting the data's rows by formula; cleared by an upgrade run in English", async () => {
  const { fake, run } = newWorkbook({ firstSheetName: "Data" });
  await run(async (context) => {
    const data = context.workbook.worksheets.getItem("Data");
    data.getRange("A1:B4").values = [
      ["id", "value"],
      ["a", 1],
      ["b", 2],
      ["c", 3],
    ];
    context.workbook.tables.add("Data!A1:B4", true).name = "Data_t";
    const figures = context.workbook.worksheets.add("Figures");
    figures.getRange("A1:A2").formulas = [["total"], ["=SUM(Data!$B$2:$B$4)"]];
    context.workbook.tables.add("Figures!A1:A2", true).name = "Figures_t";
    await context.sync();
  });
  setSheetWords(createTranslator("de", await loadCatalog("de")).format);
  const found = await run(async (context) => {
    const tables = await findFixedRangeTables(context, "Data", "Data_t");
    await markFixedRangeTables(context, tables, "Data_t", "Data", tableColumn);
    return tables;
  });
  expect(found.map((t) => [t.sheet, t.lastRow, t.notice])).toEqual([["Figures", 4, "C1"]]);
  const notice = String(fake.read("Figures", "C1", "formulas")[0]![0]);
  expect(notice).toBe(
    '="Veraltet: feste Bereiche. Diese Zahlen lesen nur die Zeilen 2 bis 4 von Data, nicht die Zeilen, die eine ' +
      'Aktualisierung danach anfügt; die Datentabelle hat jetzt "&ROWS(Data_t[id])&" Zeilen. Bringen Sie die ' +
      'Tabellen im Aufgabenbereich auf die neue Fassung (Offenlegungstabellen → Auf neue Fassung bringen)."',
  );

  setSheetWords(createTranslator("en", await loadCatalog("en")).format);
  await run((context) => upgradeFixedRangeTables(context, found, "Data", "Data_t", tableColumn));
  expect(fake.read("Figures", "A2:C2", "formulas")[0]).toEqual(["=SUM(Data_t[value])", "", ""]);
  expect(fake.read("Figures", "C1")[0]![0]).toBe("");
});
