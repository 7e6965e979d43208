/**
 * Header mapping for asset ranges: which column is the entity id, name, latitude, longitude, and
 * which become `label:<key>` columns. Common spellings are accepted case-insensitively so a sheet
 * made by hand ("Asset ID", "Latitude", "Lon") syncs without renaming columns.
 */
import type { CellValue } from "./types";

/** The asset fields a column can feed. */
export type AssetField = "entity_id" | "entity_name" | "lat" | "lng";

/** Where one column of the range goes: an asset field, a label key, or nowhere (blank column). */
export type ColumnTarget = { kind: "field"; field: AssetField } | { kind: "label"; key: string } | { kind: "ignored" };

/** The mapping of one column. */
export interface ColumnMapping {
  /** 0-based column index inside the range. */
  index: number;
  /** The header text as it appears in the sheet. */
  header: string;
  target: ColumnTarget;
}

const ALIASES: Record<string, AssetField> = {};
function alias(field: AssetField, names: string[]): void {
  for (const n of names) ALIASES[compact(n)] = field;
}
alias("entity_id", ["entity_id", "entity id", "id", "asset id", "asset_id", "site id", "site_id", "identifier"]);
alias("entity_name", ["entity_name", "entity name", "name", "asset name", "asset_name", "site name", "site_name"]);
alias("lat", ["lat", "latitude", "y"]);
alias("lng", ["lng", "lon", "long", "longitude", "x"]);

/** Lowercase with spaces, underscores, hyphens and dots removed: "Asset-ID" → "assetid". */
function compact(text: string): string {
  return text.toLowerCase().replace(/[\s_\-.]+/g, "");
}

/**
 * A label key from free text: lowercase letters and digits (any script) joined by "_".
 * "Asset Type (2024)" → "asset_type_2024". Empty when nothing usable is left.
 */
export function normalizeLabelKey(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "_")
    .replace(/^_+|_+$/g, "");
}

/** Where a header text goes; `index` names blank headers ("column_c"). */
export function mapHeader(header: string): ColumnTarget {
  const text = header.trim();
  if (text === "") return { kind: "ignored" };
  const explicit = /^label\s*:(.*)$/i.exec(text);
  if (explicit) return { kind: "label", key: explicit[1].trim() };
  const field = ALIASES[compact(text)];
  if (field) return { kind: "field", field };
  return { kind: "label", key: normalizeLabelKey(text) };
}

/** Map every cell of a header row. Numbers and booleans are treated as their text. */
export function mapHeaders(headerRow: readonly CellValue[]): ColumnMapping[] {
  return headerRow.map((cell, index) => {
    const header = typeof cell === "string" ? cell : String(cell);
    return { index, header, target: mapHeader(header) };
  });
}

/** The import CSV header name of a mapped column ("lat", "label:country"). */
export function csvColumnName(target: ColumnTarget): string | null {
  if (target.kind === "field") return target.field;
  if (target.kind === "label") return `label:${target.key}`;
  return null;
}
