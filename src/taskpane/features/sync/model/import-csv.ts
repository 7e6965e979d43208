/**
 * The asset import CSV: `entity_id,entity_name,lat,lng,label:<key>,...` (docs/service.md#portfolios-and-assets),
 * written with papaparse so commas, quotes and newlines are quoted properly. Values stay as the user
 * typed them: a name like "=HYPERLINK(...)" is data for the service, not a formula.
 */
import Papa from "papaparse";
import type { AssetRow } from "./validate-assets";

/** Build the import CSV for validated rows; label columns follow `labelKeys` order. */
export function buildImportCsv(assets: readonly AssetRow[], labelKeys: readonly string[]): string {
  const fields = ["entity_id", "entity_name", "lat", "lng", ...labelKeys.map((k) => `label:${k}`)];
  const data = assets.map((a) => [
    a.entity_id,
    a.entity_name,
    String(a.lat),
    String(a.lng),
    ...labelKeys.map((k) => a.labels[k] ?? ""),
  ]);
  return Papa.unparse({ fields, data }, { newline: "\r\n", escapeFormulae: false });
}
