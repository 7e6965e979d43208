import type { RiskClient } from "../../../api/client";
import { ConflictError } from "../../../api/errors";
import type { SubProject } from "../../../api/types";
import { refreshAfterChange, type ForgetChange } from "../../ui/data-change";
import { parseGeoJsonFile } from "../../ui/geojson-file";
import { pasteKinds } from "../pasted";
import { NATURE_SUMMARY_KIND } from "./nature-kind";
import type { ExcelRunner, PastedSheet, PasteOptions } from "../../ui/pane-types";
import { message } from "../../../i18n/messages";
import { MessageError } from "../../../i18n/message-error";

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
  if (input.superproject.trim() === "") throw new MessageError(message("nature.error.noSuperproject"));
  const geojson = parseGeoJsonFile(input.text, input.fileName, ["FeatureCollection"]);
  const name = (input.name ?? "").trim() || proposeSubprojectName(input.text);
  if (name === "") throw new MessageError(message("nature.error.noName", { file: input.fileName }));
  try {
    const created = await client.nature.createSubproject(
      { superproject: input.superproject, projectName: name, geojson, type: SUBPROJECT_TYPE },
      { signal },
    );
    if (refresh) await refreshAfterChange({ ...refresh, change: { kind: "nature" } });
    return created;
  } catch (error) {
    if (error instanceof ConflictError) {
      throw new MessageError(message("nature.error.nameTaken", { superproject: input.superproject, name }), {
        cause: error,
      });
    }
    throw error;
  }
}

/**
 * Writes a sub-project's export into a new sheet through the nature-summary paste kind
 * (features/pasted/paste-kinds.ts): one row per summary number (`metric`, `value`), then the
 * metadata fields (`metadata:<name>`, value as text or number). Service text stays text.
 */
export async function pasteSubprojectSummary(
  options: PasteOptions & { subproject: { id: string; name: string } },
): Promise<PastedSheet> {
  const { subproject, onProgress } = options;
  onProgress?.({ message: message("nature.progress.summary", { name: subproject.name }) });
  const [written] = await pasteKinds(options, [
    {
      kind: NATURE_SUMMARY_KIND,
      filters: { subproject_id: subproject.id, subproject_name: subproject.name },
      ifEmpty: message("nature.error.noSummary", { name: subproject.name }),
    },
  ]);
  return written!;
}
