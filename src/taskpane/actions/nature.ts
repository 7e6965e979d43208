import type { RiskClient } from "../../api/client";
import type { SubProject } from "../../api/types";
import { writeTableToNewSheet } from "../../excel/writeSheets";
import type { CellValue } from "../../shaping/types";
import { parseGeoJsonFile } from "./geojson-file";
import { natureRows, provenanceOf } from "./pasted-sheets";
import { CancelledError, type ExcelRunner, type LongRunning, type PastedSheet } from "./types";

/** The sub-project type the service uses on create (contract). */
export const SUBPROJECT_TYPE = "NCS";

/** Lists the nature superprojects the key may use. */
export function listSuperprojects(client: RiskClient, signal?: AbortSignal): Promise<string[]> {
  return client.nature.superprojects({ signal });
}

/** Lists the sub-projects of one superproject. */
export function listSubprojects(client: RiskClient, superproject: string, signal?: AbortSignal): Promise<SubProject[]> {
  return client.nature.subprojects(superproject, { signal });
}

/**
 * Creates a sub-project from a GeoJSON FeatureCollection file (optionally with a `crs` member).
 * The file is checked first, so a broken file is named before anything is sent.
 */
export async function createSubprojectFromFile(
  client: RiskClient,
  input: { superproject: string; fileName: string; text: string },
  signal?: AbortSignal,
): Promise<SubProject> {
  if (input.superproject.trim() === "") throw new Error("Choose a superproject first");
  const geojson = parseGeoJsonFile(input.text, input.fileName, ["FeatureCollection"]);
  return client.nature.createSubproject({ projectName: input.superproject, geojson, type: SUBPROJECT_TYPE }, { signal });
}

/**
 * Writes a sub-project's export into a new sheet: one row per summary number (`metric`, `value`),
 * then the metadata fields (`metadata:<name>`, value as text or number). Service text stays text.
 */
export async function pasteSubprojectSummary(
  options: LongRunning & { client: RiskClient; run: ExcelRunner; subproject: { id: string; name: string } },
): Promise<PastedSheet> {
  const { client, run, subproject, signal, onProgress } = options;
  onProgress?.({ message: `Reading the summary of ${subproject.name}…` });
  const exported = await client.nature.exportSubproject(subproject.id, { signal }).catch((error: unknown) => {
    if (signal?.aborted) throw new CancelledError();
    throw error;
  });
  const rows: CellValue[][] = natureRows(exported);
  if (rows.length === 0) throw new Error(`${subproject.name} has no summary yet.`);
  const provenance = await provenanceOf(client, "nature-summary", undefined, { subproject_id: subproject.id, subproject_name: subproject.name }, signal);
  const written = await run((context) =>
    writeTableToNewSheet(context, { sheetName: `Nature ${subproject.name}`, tableName: `Nature_${subproject.name}`, header: ["metric", "value"], rows, provenance }, { signal }),
  ).catch((error: unknown) => {
    if (signal?.aborted) throw new CancelledError();
    throw error;
  });
  return { sheetName: written.sheetName, rowCount: written.rowCount, columnCount: written.columnCount };
}
