import type { Feature } from "../feature";
import { SyncPanel } from "./SyncPanel";

/** What other features use: selecting a problem's cell. */
export { selectProblemCell } from "./sync-actions";

/** The "Sync a range to a portfolio" section of the pane. */
export const syncFeature: Feature = {
  id: "sync",
  group: "portfolios",
  title: "Sync a range to a portfolio",
  keywords: "upload assets import diff push sheet",
  Panel: SyncPanel,
};
