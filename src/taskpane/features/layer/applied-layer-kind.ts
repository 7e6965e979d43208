/** The applied layer's paste kind: a vector layer applied to a portfolio, its CSV answer as a table. */
import { parseCsvTable } from "../../../shaping/csv-table";
import { OPERATION_LABELS } from "../../../shaping/paste-provenance";
import { ROW_KEYS } from "../../../shaping/row-keys";
import { filterText, type PasteKind } from "../pasted";

/** A layer applied to a portfolio. */
export const APPLIED_LAYER_KIND: PasteKind = {
  operation: "applied-layer",
  label: OPERATION_LABELS["applied-layer"],
  dataset: false,
  rowKey: () => ROW_KEYS["applied-layer"],
  // papaparse: numeric columns become numbers, ids stay text.
  async fetch(client, source, signal) {
    const portfolio = source.portfolio ?? "";
    const result = await client.compositions.applyVector(filterText(source, "vector_id") ?? "", portfolio, { signal });
    return { ...parseCsvTable(result.csv, `the layer applied to ${portfolio}`), title: result.name };
  },
  // Named by the name the pane gave the layer, else the one the service answered with.
  sheet(source, table) {
    const name = filterText(source, "vector_name") ?? table.title ?? filterText(source, "vector_id") ?? "";
    return { sheetName: `${name} ${source.portfolio}`, tableName: `Layer_${name}`, filters: { vector_name: name } };
  },
};
