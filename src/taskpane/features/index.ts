/**
 * The registry of the task pane's sections: what the shell renders and searches. A new section is
 * a folder under features/ with an index.ts that exports its Feature, listed here. Beside it,
 * paste-kinds.ts lists every paste kind; the pasted sheets' section is handed that list.
 */
import { connectionFeature } from "./connection";
import { checkFeature } from "./check";
import { builderFeature } from "./builder";
import { explainFeature } from "./explain";
import { changesFeature } from "./changes";
import { refreshFeature, scopedRefreshFeature } from "./refresh";
import { lastGoodFeature } from "./last-good";
import { staticCopyFeature } from "./static";
import { summaryFeature } from "./summary";
import { timeseriesFeature } from "./timeseries";
import { appliedLayerFeature } from "./layer";
import { impactFeature } from "./impact";
import { disclosureFeature } from "./disclosure";
import { visualFeature } from "./visual";
import { exportFeature } from "./export";
import { pastedSheetsFeature } from "./pasted";
import { syncFeature } from "./sync";
import { portfoliosFeature } from "./portfolios";
import { compositionsFeature } from "./compositions";
import { natureFeature } from "./nature";
import type { Feature, FeatureGroupId } from "./feature";
import { PASTE_KINDS } from "./paste-kinds";
import type { MessageId } from "../../i18n/messages";

export type { Feature, FeatureGroupId } from "./feature";

/** A heading of the pane and the sections under it. */
export interface FeatureGroup {
  id: FeatureGroupId;
  /** The heading's message id (src/i18n/catalogs). */
  title: MessageId;
  features: readonly Feature[];
}

/**
 * Every section of the pane, in the order it shows them. Inside a group the order is the order of
 * the work: build, read, refresh; pull, look, keep; send, manage.
 */
export const FEATURES: readonly Feature[] = [
  connectionFeature,
  checkFeature,
  builderFeature,
  explainFeature,
  changesFeature,
  refreshFeature,
  scopedRefreshFeature,
  lastGoodFeature,
  staticCopyFeature,
  summaryFeature,
  timeseriesFeature,
  appliedLayerFeature,
  impactFeature,
  disclosureFeature,
  visualFeature,
  exportFeature,
  pastedSheetsFeature(PASTE_KINDS),
  syncFeature,
  portfoliosFeature,
  compositionsFeature,
  natureFeature,
];

const GROUP_TITLES: Record<FeatureGroupId, MessageId> = {
  setup: "group.setup",
  formulas: "group.formulas",
  pull: "group.pull",
  portfolios: "group.portfolios",
};

/** The pane's sections under their four headings plus the connection, in the order of FEATURES. */
export const FEATURE_GROUPS: readonly FeatureGroup[] = (Object.keys(GROUP_TITLES) as FeatureGroupId[]).map((id) => ({
  id,
  title: GROUP_TITLES[id],
  features: FEATURES.filter((feature) => feature.group === id),
}));
