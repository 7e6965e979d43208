/**
 * Which rows of an asset range a geocoder is asked about: rows with an address and no coordinates.
 * The address is read from `label:address` (or an Address column) as free text, or from split
 * columns (Street, Postcode, City, Region) as a structured search; the row's Country restricts
 * either to that country. Only these columns are ever sent. Rows with neither coordinates nor a
 * usable address are listed with their cells, as is a country the add-in cannot read.
 */
import { cellA1, columnLetters, parseA1, qualify, rangeA1 } from "../../../../../shaping/a1";
import { countryCode } from "../../../../../shaping/countries";
import { mapHeaders, type ColumnMapping } from "../../../../../shaping/headers";
import type { RangeProblem } from "../../../../../shaping/problems";
import { message, type Message } from "../../../../../i18n/messages";
import type { CellGrid, CellValue } from "../../../../../shaping/types";

/** The parts of a structured search (Pelias `/v1/search/structured` and Nominatim's structured query). */
export const STRUCTURED_PARTS = ["address", "street", "postcode", "city", "region"] as const;
/** One of {@link STRUCTURED_PARTS}. */
export type StructuredPart = (typeof STRUCTURED_PARTS)[number];

/** What is sent about one address: free text, or parts, and the country it is restricted to. */
export interface AddressQuery {
  /** The whole address as written (free-text search). */
  text?: string;
  /** Split columns (structured search); `address` is the house number and street when split. */
  parts?: Partial<Record<StructuredPart, string>>;
  /** ISO 3166-1 alpha-2 code of the row's country, read from its Country column. */
  country?: string;
}

/** One row to geocode. */
export interface AddressRow {
  /** 0-based row index inside the range (header row 0). */
  index: number;
  /** 1-based sheet row. */
  sheetRow: number;
  /** The row's address as one line, for the preview. */
  shown: string;
  query: AddressQuery;
}

/** What the range holds for geocoding. */
export interface AddressRows {
  rows: AddressRow[];
  /** Rows with no coordinates and an empty or unreadable address or country, each naming its cell. */
  problems: RangeProblem[];
  /** The headers of the columns whose values are sent (never another column). */
  sentColumns: string[];
  /** Columns (0-based in the range) of the coordinates, when the range has them. */
  latColumn?: number;
  lngColumn?: number;
  /** Rows that already have coordinates: left as they are. */
  withCoordinates: number;
}

function text(value: CellValue | undefined): string {
  if (value === undefined || value === null) return "";
  return String(value).replace(/\s+/g, " ").trim();
}

/** An Excel error value or text with no letter or digit cannot be an address. */
function unreadable(value: string): boolean {
  return /^#[A-Z0-9/!?]+$/i.test(value) || !/[\p{L}\p{N}]/u.test(value);
}

interface AddressColumns {
  parts: Partial<Record<StructuredPart, ColumnMapping>>;
  country?: ColumnMapping;
  lat?: number;
  lng?: number;
}

function addressColumns(columns: readonly ColumnMapping[]): AddressColumns {
  const found: AddressColumns = { parts: {} };
  for (const column of columns) {
    const target = column.target;
    if (target.kind === "field" && target.field === "lat") found.lat ??= column.index;
    if (target.kind === "field" && target.field === "lng") found.lng ??= column.index;
    if (target.kind !== "label") continue;
    if (target.key === "country") found.country ??= column;
    else if ((STRUCTURED_PARTS as readonly string[]).includes(target.key))
      found.parts[target.key as StructuredPart] ??= column;
  }
  return found;
}

/** The rows of `values` (header first) at `address` that have an address and no coordinates. */
export function addressRows(values: CellGrid, address: string): AddressRows {
  const origin = parseA1(address);
  const columns = mapHeaders(values[0] ?? []);
  const found = addressColumns(columns);
  const partColumns = STRUCTURED_PARTS.flatMap((part) =>
    found.parts[part] ? [[part, found.parts[part]!] as const] : [],
  );
  const result: AddressRows = { rows: [], problems: [], sentColumns: [], withCoordinates: 0 };
  if (found.lat !== undefined) result.latColumn = found.lat;
  if (found.lng !== undefined) result.lngColumn = found.lng;
  if (partColumns.length === 0) return result;
  const problemAt = (r: number, c: number, said: Message): RangeProblem => {
    const cell = cellA1(origin.row + r, origin.col + c);
    return {
      row: origin.row + r + 1,
      column: columnLetters(origin.col + c),
      address: qualify(origin.sheet, cell),
      cell,
      message: said,
    };
  };
  const sent = new Set<ColumnMapping>();
  for (let r = 1; r < values.length; r++) {
    const row = values[r] ?? [];
    if (row.every((v) => text(v) === "")) continue;
    const lat = found.lat === undefined ? "" : text(row[found.lat]);
    const lng = found.lng === undefined ? "" : text(row[found.lng]);
    if (lat !== "" || lng !== "") {
      result.withCoordinates++;
      continue;
    }
    const read = readRow(row, partColumns, found.country, (c, said) => problemAt(r, c, said));
    if ("problem" in read) {
      result.problems.push(read.problem);
      continue;
    }
    read.used.forEach((column) => sent.add(column));
    result.rows.push({ index: r, sheetRow: origin.row + r + 1, shown: read.shown, query: read.query });
  }
  result.sentColumns = columns.filter((c) => sent.has(c)).map((c) => c.header);
  return result;
}

function readRow(
  row: readonly CellValue[],
  partColumns: readonly (readonly [StructuredPart, ColumnMapping])[],
  countryColumn: ColumnMapping | undefined,
  problem: (column: number, said: Message) => RangeProblem,
): { problem: RangeProblem } | { query: AddressQuery; shown: string; used: ColumnMapping[] } {
  const used: ColumnMapping[] = [];
  const parts: Partial<Record<StructuredPart, string>> = {};
  for (const [part, column] of partColumns) {
    const value = text(row[column.index]);
    if (value === "") continue;
    if (unreadable(value))
      return { problem: problem(column.index, message("sync.geocode.problem.notAddress", { value })) };
    parts[part] = value;
    used.push(column);
  }
  if (used.length === 0)
    return { problem: problem(partColumns[0]![1].index, message("sync.geocode.problem.noAddress")) };
  const countryText = countryColumn ? text(row[countryColumn.index]) : "";
  const country = countryText === "" ? undefined : countryCode(countryText);
  if (countryText !== "" && !country)
    return {
      problem: problem(countryColumn!.index, message("sync.geocode.problem.notCountry", { text: countryText })),
    };
  if (countryText !== "") used.push(countryColumn!);
  const onlyAddress = Object.keys(parts).length === 1 && parts.address !== undefined;
  const query: AddressQuery = onlyAddress ? { text: parts.address } : { parts };
  if (country) query.country = country;
  const shown = [...Object.values(parts), ...(countryText ? [countryText] : [])].join(", ");
  return { query, shown, used };
}

/** The cells of one row's address parts and country, for the preview ("C5:F5"). */
export function rowCells(address: string, index: number, firstColumn: number, lastColumn: number): string {
  const origin = parseA1(address);
  const local = rangeA1(origin.row + index, origin.col + firstColumn, 1, lastColumn - firstColumn + 1);
  return qualify(origin.sheet, local);
}

/**
 * The normalised form of a query, the cache's key with the endpoint's: case, accents' composition,
 * spaces and punctuation runs do not make two addresses different ("10  Downing St." = "10 downing st").
 */
export function normalisedQuery(query: AddressQuery): string {
  const fold = (value: string) =>
    value
      .normalize("NFKC")
      .toLowerCase()
      .replace(/[\s,.;]+/g, " ")
      .trim();
  const parts = query.parts
    ? STRUCTURED_PARTS.flatMap((part) => (query.parts![part] ? [`${part}=${fold(query.parts![part]!)}`] : []))
    : [`text=${fold(query.text ?? "")}`];
  return [...parts, `country=${query.country ?? ""}`].join("|");
}
