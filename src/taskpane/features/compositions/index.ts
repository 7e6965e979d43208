import type { Feature } from "../feature";
import { CompositionsPanel } from "./CompositionsPanel";

/** The "Compositions" section of the pane. */
export const compositionsFeature: Feature = {
  id: "compositions",
  group: "portfolios",
  title: "Compositions",
  keywords: "vector layer udf jq geojson upload",
  Panel: CompositionsPanel,
};
