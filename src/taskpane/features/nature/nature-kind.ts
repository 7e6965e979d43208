/** The nature sub-project's paste kind: its export's summary numbers and metadata, one per row. */
import { OPERATION_LABELS } from "../../../shaping/paste-provenance";
import { ROW_KEYS } from "../../../shaping/row-keys";
import type { CellValue } from "../../../shaping/types";
import { filterText, type PasteKind } from "../pasted";

/** A nature sub-project's export. */
export const NATURE_SUMMARY_KIND: PasteKind = {
  operation: "nature-summary",
  label: OPERATION_LABELS["nature-summary"],
  dataset: false,
  rowKey: () => ROW_KEYS["nature-summary"],
  async fetch(client, source, signal) {
    const exported = await client.nature.exportSubproject(filterText(source, "subproject_id") ?? "", { signal });
    return { header: ["metric", "value"], rows: natureRows(exported) };
  },
  sheet: (source) => ({
    sheetName: `Nature ${filterText(source, "subproject_name")}`,
    tableName: `Nature_${filterText(source, "subproject_name")}`,
  }),
};

/** The rows of a nature sub-project's export: summary numbers, then `metadata:<name>` fields. */
function natureRows(exported: {
  summary?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
}): CellValue[][] {
  const rows: CellValue[][] = [];
  for (const [name, value] of Object.entries(exported.summary ?? {}))
    rows.push([name, typeof value === "number" && Number.isFinite(value) ? value : String(value ?? "")]);
  for (const [name, value] of Object.entries(exported.metadata ?? {})) rows.push([`metadata:${name}`, cellOf(value)]);
  return rows;
}

function cellOf(value: unknown): CellValue {
  if (typeof value === "number") return Number.isFinite(value) ? value : "";
  if (typeof value === "string" || typeof value === "boolean") return value;
  if (value === null || value === undefined) return "";
  return JSON.stringify(value);
}
