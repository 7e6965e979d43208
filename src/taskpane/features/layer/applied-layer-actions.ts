import { pasteKinds } from "../pasted";
import { APPLIED_LAYER_KIND } from "./applied-layer-kind";
import type { PastedSheet, PasteOptions } from "../../ui/pane-types";
import { message } from "../../../i18n/messages";

/** Options of {@link pasteAppliedLayer}. */
export interface AppliedLayerOptions extends PasteOptions {
  vectorId: string | number;
  /** Used in the sheet name when given (the apply result's name otherwise). */
  vectorName?: string;
  portfolio: string;
}

/**
 * Applies a vector layer to a portfolio's assets and writes the CSV the service returns as a
 * table in a new sheet, through the applied-layer paste kind (features/pasted/paste-kinds.ts: its
 * fetch parses the CSV, numeric columns become numbers, ids stay text; its refresh runs the same).
 */
export async function pasteAppliedLayer(options: AppliedLayerOptions): Promise<PastedSheet> {
  const { portfolio, onProgress } = options;
  onProgress?.({ message: message("layer.run.applying", { portfolio }) });
  const [written] = await pasteKinds(options, [
    {
      kind: APPLIED_LAYER_KIND,
      portfolio,
      // The sheet is named by vector_name when given, else by the name the service answers with.
      filters: { vector_id: String(options.vectorId), vector_name: options.vectorName },
      ifEmpty: message("layer.run.noRows", { portfolio }),
    },
  ]);
  return written!;
}
