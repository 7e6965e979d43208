import { PASTE_KINDS, provenanceOf, rowKeysFor } from "../pasted";
import { unlessCancelled, type PastedSheet, type PasteOptions } from "../../ui/pane-types";
import { pastedSheet, writeNewSheets } from "../../ui/write-new-sheets";

/** Options of {@link pasteAppliedLayer}. */
export interface AppliedLayerOptions extends PasteOptions {
  vectorId: string | number;
  /** Used in the sheet name when given (the apply result's name otherwise). */
  vectorName?: string;
  portfolio: string;
}

/**
 * Applies a vector layer to a portfolio's assets, parses the CSV the service returns (papaparse;
 * numeric columns become numbers, ids stay text; the applied-layer paste kind's fetch) and writes
 * it as a table in a new sheet.
 */
export async function pasteAppliedLayer(options: AppliedLayerOptions): Promise<PastedSheet> {
  const { client, run, portfolio, signal, onProgress } = options;
  onProgress?.({ message: `Applying the layer to ${portfolio}…` });
  // The kind's own fetch (features/pasted/paste-kinds.ts), the one its refresh runs.
  const table = await unlessCancelled(
    PASTE_KINDS["applied-layer"].fetch(client, { portfolio, filters: { vector_id: String(options.vectorId) } }, signal),
    signal,
  );
  if (table.rows.length === 0) throw new Error(`Applying the layer to ${portfolio} returned no rows.`);
  const name = options.vectorName ?? table.title ?? String(options.vectorId);
  const provenance = await provenanceOf(
    client,
    "applied-layer",
    portfolio,
    { vector_id: String(options.vectorId), vector_name: name },
    signal,
  );
  const rowKeys = await rowKeysFor(client, "applied-layer", portfolio, table, signal);
  const [written] = await writeNewSheets(
    run,
    [
      {
        sheetName: `${name} ${portfolio}`,
        tableName: `Layer_${name}`,
        header: table.header,
        rows: table.rows,
        provenance,
        rowKeys,
      },
    ],
    { signal, onProgress },
  );
  return pastedSheet(written!);
}
