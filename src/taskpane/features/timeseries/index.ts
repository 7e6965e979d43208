import type { Feature } from "../feature";
import { TimeseriesPanel } from "./TimeseriesPanel";

/** The "Timeseries → new sheet" section of the pane. */
export const timeseriesFeature: Feature = {
  id: "timeseries",
  group: "pull",
  title: "Timeseries → new sheet",
  keywords: "paste series years projected observed",
  Panel: TimeseriesPanel,
};
