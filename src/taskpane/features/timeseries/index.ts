import type { Feature } from "../feature";
import { TimeseriesPanel } from "./TimeseriesPanel";

/** The "Timeseries → new sheet" section of the pane. */
export const timeseriesFeature: Feature = {
  id: "timeseries",
  group: "pull",
  title: "feature.timeseries.title",
  keywords: "feature.timeseries.keywords",
  Panel: TimeseriesPanel,
};
