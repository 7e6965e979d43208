/**
 * Every paste kind, one line each, beside the list of features (features/index.ts): each is
 * defined by the feature that pastes it, in its own folder. The refresh of pasted sheets
 * (features/pasted) is handed this list by the registry and the shell rather than importing it, so
 * the pasted sheets' machinery imports no feature and no import cycle runs through it. The kinds'
 * own modules are imported, not their features' index.ts, so that a refresh from the ribbon takes
 * no panel of theirs with it (as the shell's ribbon-commands.ts imports the sections' actions).
 */
import { APPLIED_LAYER_KIND } from "./layer/applied-layer-kind";
import { DISCLOSURE_DATA_KIND, DISCLOSURE_SIGNIFICANT_KIND } from "./disclosure/disclosure-kinds";
import { EXPORT_KIND } from "./export/export-kind";
import { FINANCIAL_IMPACT_KIND } from "./impact/impact-actions";
import { NATURE_SUMMARY_KIND } from "./nature/nature-kind";
import type { PasteKind } from "./pasted";
import { LABEL_COUNTS_KIND, RISK_MATRIX_KIND, SCENARIO_COMPARISON_KIND } from "./visual/risk-view-kinds";
import { EXTENDED_SUMMARY_KIND, SUMMARY_KIND } from "./summary/summary-kinds";
import { TIMESERIES_KIND } from "./timeseries/timeseries-kind";

/** Every paste kind; a refresh finds a sheet's by the operation its provenance records. */
export const PASTE_KINDS: readonly PasteKind[] = [
  TIMESERIES_KIND,
  SUMMARY_KIND,
  EXTENDED_SUMMARY_KIND,
  APPLIED_LAYER_KIND,
  EXPORT_KIND,
  RISK_MATRIX_KIND,
  LABEL_COUNTS_KIND,
  SCENARIO_COMPARISON_KIND,
  DISCLOSURE_DATA_KIND,
  DISCLOSURE_SIGNIFICANT_KIND,
  NATURE_SUMMARY_KIND,
  FINANCIAL_IMPACT_KIND,
];
