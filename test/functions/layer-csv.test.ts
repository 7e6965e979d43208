/**
 * RISK.LAYER and the pasted applied-layer sheet read the apply CSV one way (parseCsvTable): a cell
 * never shows 7 where the sheet shows 007, and ids stay text on both surfaces.
 */
import { parseLayerCsv } from "../../src/functions/data-loaders";
import { parseCsvTable } from "../../src/shaping/csv-table";

const CSV = [
  "portfolio_index,entity_id,entity_name,site_code,loss_2050,flag",
  "0,007,Depot,0042,1.5,true",
  "1,A-1,Office,0100,,false",
  "2,12,Plant,7,2e-3,true",
].join("\n");

test("the functions and the pane read every cell of the apply CSV the same way", () => {
  const sheet = parseCsvTable(CSV);
  const layer = parseLayerCsv(CSV);
  expect(layer.columns).toEqual(sheet.header);
  sheet.rows.forEach((cells, i) => {
    const row = layer.rows.get(i)!;
    sheet.header.forEach((column, c) =>
      expect([column, row[column]]).toEqual([column, cells[c] === "" ? null : cells[c]]),
    );
  });
  expect(layer.rows.get(0)!.entity_id).toBe("007");
  expect(layer.rows.get(0)!.site_code).toBe("0042");
  expect(layer.rows.get(2)!.loss_2050).toBe(0.002);
  expect(layer.defaultColumn).toBe("loss_2050");
});
