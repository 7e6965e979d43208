import type { Feature } from "../feature";
import { RefreshPanel } from "./RefreshPanel";
import { ScopedRefreshPanel } from "./ScopedRefreshPanel";

/** The "Refresh all" section of the pane. */
export const refreshFeature: Feature = {
  id: "refresh",
  group: "formulas",
  title: "Refresh all",
  keywords: "recalculate update workbook",
  Panel: RefreshPanel,
};

/** The "Refresh selection / sheet / workbook" section of the pane. */
export const scopedRefreshFeature: Feature = {
  id: "scoped-refresh",
  group: "formulas",
  title: "Refresh selection / sheet / workbook",
  keywords: "recalculate update errors only scope",
  Panel: ScopedRefreshPanel,
};
