import type { Feature } from "../feature";
import { RefreshPanel } from "./RefreshPanel";
import { ScopedRefreshPanel } from "./ScopedRefreshPanel";

/** The "Refresh all" section of the pane. */
export const refreshFeature: Feature = {
  id: "refresh",
  group: "formulas",
  title: "feature.refresh.title",
  keywords: "feature.refresh.keywords",
  Panel: RefreshPanel,
};

/** The "Refresh selection / sheet / workbook" section of the pane. */
export const scopedRefreshFeature: Feature = {
  id: "scoped-refresh",
  group: "formulas",
  title: "feature.scoped-refresh.title",
  keywords: "feature.scoped-refresh.keywords",
  Panel: ScopedRefreshPanel,
};
