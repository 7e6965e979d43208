/**
 * Parses and validates an asset import CSV (`entity_id,entity_name,lat,lng,label:<key>,...`).
 * Every row is checked; errors name the 1-based data row, its line in the file, and the column,
 * e.g. `row 3 (line 4), column lat: 95 is out of bounds [-90, 90]`.
 */
import Papa from "papaparse";
import { StoredAsset } from "../state/types";
import { SLICE_MS } from "../http/turns";

export const MAX_ASSETS = 5000;
const MAX_REPORTED = 50;
const KNOWN = ["entity_id", "entity_name", "lat", "lng"];

/** The outcome of an import: assets, or errors with the status to answer (400 bounds, 422 other). */
export type AssetCsvResult = { ok: true; assets: StoredAsset[] } | { ok: false; status: 400 | 422; errors: string[] };

interface RawRow {
  fields: string[];
  line: number;
}

/**
 * Splits the CSV into rows, remembering the line each row starts on. A 10 MB file takes papaparse
 * a few hundred milliseconds: it is paused whenever a slice is used up and resumed on the next
 * turn of the event loop, so another request never waits for the whole file.
 */
function readRows(text: string): Promise<{ rows: RawRow[]; parseErrors: string[] }> {
  const rows: RawRow[] = [];
  const parseErrors: string[] = [];
  let prevCursor = 0;
  // papaparse counts `meta.cursor` from where it resumed after a pause: the absolute offset of the
  // last pause is added back (without it, rows after a pause under load named the wrong line).
  let resumedAt = 0;
  let line = 1;
  let scanned = 0;
  let sliceStart = performance.now();
  const lineAt = (offset: number) => {
    for (; scanned < offset; scanned++) if (text.charCodeAt(scanned) === 10) line++;
    return line;
  };
  return new Promise((resolve) => {
    Papa.parse<string[]>(text, {
      header: false,
      skipEmptyLines: "greedy",
      step: (results, parser) => {
        let start = prevCursor;
        while (start < text.length && (text[start] === "\n" || text[start] === "\r")) start++;
        prevCursor = resumedAt + results.meta.cursor;
        const rowLine = lineAt(start);
        for (const err of results.errors) {
          parseErrors.push(`${rows.length === 0 ? "header" : `row ${rows.length} (line ${rowLine})`}: ${err.message}`);
        }
        rows.push({ fields: results.data, line: rowLine });
        if (performance.now() - sliceStart >= SLICE_MS) {
          parser.pause();
          resumedAt = prevCursor;
          setImmediate(() => {
            sliceStart = performance.now();
            parser.resume();
          });
        }
      },
      complete: () => resolve({ rows, parseErrors }),
    });
  });
}

/**
 * The value of a plain decimal number (`-12`, `0.5`, `.5`, `1e3`), or undefined for anything else:
 * JavaScript's Number() would also take `0x10`, `0b1`, `0o7`, `Infinity` and blanks, which the
 * service's numbers are not.
 */
export function decimalNumber(text: string): number | undefined {
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) return undefined;
  const v = Number(text);
  return Number.isFinite(v) ? v : undefined;
}

function parseCoordinate(
  raw: string | undefined,
  column: "lat" | "lng",
  where: string,
  errors: string[],
  bounds: string[],
): number {
  const text = (raw ?? "").trim();
  if (text === "") {
    errors.push(`${where}, column ${column}: a value is required`);
    return NaN;
  }
  const v = decimalNumber(text);
  if (v === undefined) {
    errors.push(`${where}, column ${column}: "${text}" is not a number`);
    return NaN;
  }
  const limit = column === "lat" ? 90 : 180;
  if (v < -limit || v > limit)
    bounds.push(`${where}, column ${column}: ${text} is out of bounds [-${limit}, ${limit}]`);
  return v;
}

/** Parses an uploaded CSV into assets; never throws on bad input. */
export async function parseAssetCsv(text: string): Promise<AssetCsvResult> {
  const body = text.replace(/^\uFEFF/, "");
  if (body.trim() === "")
    return {
      ok: false,
      status: 422,
      errors: [
        "asset file is empty: expected a header line entity_id,entity_name,lat,lng,label:<key>,... and at least one row",
      ],
    };
  const { rows, parseErrors } = await readRows(body);
  if (parseErrors.length) return { ok: false, status: 422, errors: cap(parseErrors) };
  const header = rows[0].fields.map((h) => h.trim());
  const headerErrors: string[] = [];
  const seen = new Set<string>();
  header.forEach((h, i) => {
    if (seen.has(h)) headerErrors.push(`header, column ${i + 1}: duplicate column "${h}"`);
    seen.add(h);
    if (!KNOWN.includes(h) && !(h.startsWith("label:") && h.length > 6)) {
      headerErrors.push(
        `header, column ${i + 1}: unknown column "${h}" (expected entity_id, entity_name, lat, lng or label:<key>)`,
      );
    }
  });
  for (const required of ["lat", "lng"])
    if (!seen.has(required)) headerErrors.push(`header: required column ${required} is missing`);
  if (headerErrors.length) return { ok: false, status: 422, errors: headerErrors };
  const data = rows.slice(1);
  if (data.length === 0) return { ok: false, status: 422, errors: ["asset file has a header but no rows"] };
  if (data.length > MAX_ASSETS)
    return {
      ok: false,
      status: 422,
      errors: [`asset file has ${data.length} rows; at most ${MAX_ASSETS} assets are allowed per portfolio`],
    };

  const col = (name: string) => header.indexOf(name);
  const iLat = col("lat");
  const iLng = col("lng");
  const iId = col("entity_id");
  const iName = col("entity_name");
  const labelCols = header.map((h, i) => [h, i] as const).filter(([h]) => h.startsWith("label:"));
  const errors: string[] = [];
  const bounds: string[] = [];
  const assets: StoredAsset[] = [];
  data.forEach((row, n) => {
    const where = `row ${n + 1} (line ${row.line})`;
    if (row.fields.length !== header.length) {
      errors.push(`${where}: has ${row.fields.length} fields, the header has ${header.length}`);
      return;
    }
    const lat = parseCoordinate(row.fields[iLat], "lat", where, errors, bounds);
    const lng = parseCoordinate(row.fields[iLng], "lng", where, errors, bounds);
    // fromEntries defines own properties, so a label named __proto__ (or constructor) is kept as
    // data; assigning it into {} would silently set the object's prototype instead.
    const labels: Record<string, string> = Object.fromEntries(labelCols.map(([h, i]) => [h.slice(6), row.fields[i]]));
    assets.push({
      entity_id: iId >= 0 ? row.fields[iId].trim() : "",
      entity_name: iName >= 0 ? row.fields[iName].trim() : "",
      lat,
      lng,
      labels,
    });
  });
  if (bounds.length) return { ok: false, status: 400, errors: cap([...bounds, ...errors]) };
  if (errors.length) return { ok: false, status: 422, errors: cap(errors) };
  return { ok: true, assets };
}

function cap(errors: string[]): string[] {
  if (errors.length <= MAX_REPORTED) return errors;
  return [...errors.slice(0, MAX_REPORTED), `... and ${errors.length - MAX_REPORTED} more errors`];
}
