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
  /**
   * How the header was read: `exact` (the service's own name, e.g. `lat`, `label:type`), `synonym`
   * (a common spelling of a field or of a label the service reads: "Site" → entity_name, "Asset
   * type" → label:type), or `new label` (any other header, kept as a label of its own).
   */
  via?: "exact" | "synonym" | "new label";
}

const ALIASES: Record<string, AssetField> = {};
function alias(field: AssetField, names: string[]): void {
  for (const n of names) ALIASES[compact(n)] = field;
}
alias("entity_id", ["entity_id", "entity id", "id", "asset id", "asset_id", "site id", "site_id", "identifier"]);
alias("entity_name", ["entity_name", "entity name", "name", "asset name", "asset_name", "site name", "site_name"]);
alias("lat", ["lat", "latitude", "y"]);
alias("lng", ["lng", "lon", "long", "longitude", "x"]);
alias("entity_name", ["site", "asset", "facility", "property", "property name", "facility name", "building name"]);

/**
 * Headers that mean a label the service reads (published guide): `label:address` (shown as the
 * asset's address), `label:type` (picks the damage functions), `label:price` (the value in USD,
 * so only a header that says USD maps to it), and `label:value`, an asset value whose currency the
 * analyst states when it is used.
 */
const LABEL_ALIASES: Record<string, string> = {};
function labelAlias(key: string, names: string[]): void {
  for (const n of names) LABEL_ALIASES[compact(n)] = key;
}
labelAlias("address", ["address", "street address", "site address", "full address", "postal address"]);
labelAlias("type", ["type", "asset type", "building type", "property type", "occupancy", "occupancy type"]);
labelAlias("price", [
  "price",
  "price (usd)",
  "price usd",
  "value (usd)",
  "value usd",
  "usd value",
  "asset value (usd)",
]);
labelAlias("value", ["value", "asset value", "insured value", "total insured value", "tiv", "replacement value"]);

/**
 * Headers that mean a label the add-in itself reads (the service keeps them as plain labels): the
 * parts of an address the geocoding reads, the country the coordinate check and the disclosure
 * tables' by-country view read (countries.ts), and the money and adaptation columns the disclosure
 * tables and the financial impact read. English, German and French spellings. A header that is
 * already the label's own key ("Country" → label:country) reads as it always did, as written; only
 * another spelling ("Land" → label:country) is a synonym the analyst is asked about.
 */
const ADDIN_LABEL_ALIASES: Record<string, string> = {};
function addinLabelAlias(key: string, names: string[]): void {
  for (const n of names) ADDIN_LABEL_ALIASES[compact(n)] = key;
}
addinLabelAlias("street", ["street", "street name", "road", "strasse", "straße", "rue", "house number and street"]);
addinLabelAlias("city", ["city", "town", "municipality", "locality", "stadt", "ort", "gemeinde", "ville", "commune"]);
addinLabelAlias("postcode", [
  "postcode",
  "post code",
  "postal code",
  "zip",
  "zip code",
  "zipcode",
  "plz",
  "postleitzahl",
  "code postal",
  "cp",
]);
addinLabelAlias("region", ["region", "state", "province", "county", "bundesland", "département", "departement"]);
addinLabelAlias("country", [
  "country",
  "country code",
  "country iso",
  "iso country",
  "iso country code",
  "country (iso)",
  "nation",
  "land",
  "staat",
  "pays",
]);
addinLabelAlias("currency", ["currency", "ccy", "currency code", "value currency", "währung", "waehrung", "devise"]);
addinLabelAlias("revenue", [
  "revenue",
  "net revenue",
  "turnover",
  "sales",
  "umsatz",
  "umsatzerlöse",
  "chiffre d'affaires",
]);
addinLabelAlias("adapted", ["adapted", "adaptation", "adapted (yes/no)", "adaptation in place", "angepasst", "adapté"]);

/** The label keys of an address's parts, in the order a geocoder's structured search takes them. */
export const ADDRESS_PART_LABELS = ["address", "street", "postcode", "city", "region", "country"] as const;

/** Lowercase with spaces, underscores, hyphens and dots removed: "Asset-ID" → "assetid". */
function compact(text: string): string {
  return text.toLowerCase().replace(/[\s_\-.]+/g, "");
}

/** The service's own column names, read as `exact`. */
const EXACT = new Set(["entity_id", "entity_name", "lat", "lng"]);

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
  return readHeader(header).target;
}

function readHeader(header: string): { target: ColumnTarget; via?: ColumnMapping["via"] } {
  const text = header.trim();
  if (text === "") return { target: { kind: "ignored" } };
  const explicit = /^label\s*:(.*)$/i.exec(text);
  if (explicit) return { target: { kind: "label", key: explicit[1].trim() }, via: "exact" };
  const field = ALIASES[compact(text)];
  if (field) return { target: { kind: "field", field }, via: EXACT.has(text) ? "exact" : "synonym" };
  const label = LABEL_ALIASES[compact(text)];
  if (label) return { target: { kind: "label", key: label }, via: "synonym" };
  const addinLabel = ADDIN_LABEL_ALIASES[compact(text)];
  if (addinLabel)
    return {
      target: { kind: "label", key: addinLabel },
      via: addinLabel === normalizeLabelKey(text) ? "new label" : "synonym",
    };
  return { target: { kind: "label", key: normalizeLabelKey(text) }, via: "new label" };
}

/** Map every cell of a header row. Numbers and booleans are treated as their text. */
export function mapHeaders(headerRow: readonly CellValue[]): ColumnMapping[] {
  return headerRow.map((cell, index) => {
    const header = typeof cell === "string" ? cell : String(cell);
    return { index, header, ...readHeader(header) };
  });
}

/** The import CSV header name of a mapped column ("lat", "label:country"). */
export function csvColumnName(target: ColumnTarget): string | null {
  if (target.kind === "field") return target.field;
  if (target.kind === "label") return `label:${target.key}`;
  return null;
}
