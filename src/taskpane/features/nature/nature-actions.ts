import type { RiskClient } from "../../../api/client";
import { ConflictError } from "../../../api/errors";
import type { SubProject } from "../../../api/types";
import { refreshAfterChange, type ForgetChange } from "../../ui/data-change";
import { parseGeoJsonFile } from "../../ui/geojson-file";
import { PASTE_KINDS, provenanceOf } from "../pasted";
import { rethrowIfCancelled, type ExcelRunner, type PastedSheet, type PasteOptions } from "../../ui/pane-types";
import { pastedSheet, writeNewSheets } from "../../ui/write-new-sheets";

/** The sub-project type the service uses on create (docs/service.md#nature-sub-projects). */
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
 * The sub-project name the pane proposes for a GeoJSON file: its first feature's `Entity Name`
 * (the property the service reads), or "" when the file has none (the user then types one).
 */
export function proposeSubprojectName(text: string): string {
  try {
    const value = JSON.parse(text) as { features?: Array<{ properties?: Record<string, unknown> | null }> };
    const name = value.features?.[0]?.properties?.["Entity Name"];
    return typeof name === "string" ? name.trim() : typeof name === "number" ? String(name) : "";
  } catch {
    return "";
  }
}

/**
 * Creates a sub-project named `name` in `superproject` from a GeoJSON FeatureCollection file
 * (optionally with a `crs` member). The file is checked first, so a broken file is named before
 * anything is sent. Without a name, the first feature's `Entity Name` is used. A name the
 * superproject already holds is refused by the service (409) and said so plainly.
 */
export async function createSubprojectFromFile(
  client: RiskClient,
  input: { superproject: string; fileName: string; text: string; name?: string },
  signal?: AbortSignal,
  /** With these, the functions' cached sub-project list is dropped and Excel recalculates after the create. */
  refresh?: { run: ExcelRunner | null; forget: ForgetChange },
): Promise<SubProject> {
  if (input.superproject.trim() === "") throw new Error("Choose a superproject first");
  const geojson = parseGeoJsonFile(input.text, input.fileName, ["FeatureCollection"]);
  const name = (input.name ?? "").trim() || proposeSubprojectName(input.text);
  if (name === "")
    throw new Error(`Name the new sub-project: ${input.fileName} has no "Entity Name" to propose one from.`);
  try {
    const created = await client.nature.createSubproject(
      { superproject: input.superproject, projectName: name, geojson, type: SUBPROJECT_TYPE },
      { signal },
    );
    if (refresh) await refreshAfterChange({ ...refresh, change: { kind: "nature" } });
    return created;
  } catch (error) {
    if (error instanceof ConflictError) {
      throw new Error(`${input.superproject} already has a sub-project named “${name}”: choose another name.`, {
        cause: error,
      });
    }
    throw error;
  }
}

/**
 * Writes a sub-project's export into a new sheet: one row per summary number (`metric`, `value`),
 * then the metadata fields (`metadata:<name>`, value as text or number). Service text stays text.
 */
export async function pasteSubprojectSummary(
  options: PasteOptions & { subproject: { id: string; name: string } },
): Promise<PastedSheet> {
  const { client, run, subproject, signal, onProgress } = options;
  onProgress?.({ message: `Reading the summary of ${subproject.name}…` });
  // The kind's own fetch (features/pasted/paste-kinds.ts), the one its refresh runs.
  const { header, rows } = await PASTE_KINDS["nature-summary"]
    .fetch(client, { filters: { subproject_id: subproject.id } }, signal)
    .catch(rethrowIfCancelled(signal));
  if (rows.length === 0) throw new Error(`${subproject.name} has no summary yet.`);
  const provenance = await provenanceOf(
    client,
    "nature-summary",
    undefined,
    { subproject_id: subproject.id, subproject_name: subproject.name },
    signal,
  );
  const [written] = await writeNewSheets(
    run,
    [
      {
        sheetName: `Nature ${subproject.name}`,
        tableName: `Nature_${subproject.name}`,
        header,
        rows,
        provenance,
        rowKeys: { spec: PASTE_KINDS["nature-summary"].rowKey(header) },
      },
    ],
    { signal },
  );
  return pastedSheet(written!);
}
