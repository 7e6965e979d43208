import type { Feature } from "../feature";
import { SyncPanel } from "./SyncPanel";

/** What other features use: selecting a problem's cell. */
export { selectProblemCell } from "./sync-actions";

/** What the formula builder uses: the offer to read a sheet's many RISK.SEARCH points as a portfolio. */
export { SearchPointsOffer } from "./SearchPointsOffer";

/** The "Sync a range to a portfolio" section of the pane. */
export const syncFeature: Feature = {
  id: "sync",
  group: "portfolios",
  title: "feature.sync.title",
  keywords: "feature.sync.keywords",
  Panel: SyncPanel,
};
