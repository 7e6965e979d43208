import type { Feature } from "../feature";
import { TimeseriesPanel } from "./TimeseriesPanel";

/** What other features use: the scenario choices other pastes offer. */
export { SCENARIO_CHOICES } from "./timeseries-actions";

/** The "Timeseries → new sheet" section of the pane. */
export const timeseriesFeature: Feature = {
  id: "timeseries",
  group: "pull",
  title: "Timeseries → new sheet",
  keywords: "paste series years projected observed",
  Panel: TimeseriesPanel,
};
