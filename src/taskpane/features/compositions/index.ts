import type { Feature } from "../feature";
import { CompositionsPanel } from "./CompositionsPanel";

/** The "Compositions" section of the pane. */
export const compositionsFeature: Feature = {
  id: "compositions",
  group: "portfolios",
  title: "feature.compositions.title",
  keywords: "feature.compositions.keywords",
  Panel: CompositionsPanel,
};
