import type { Feature } from "../feature";
import { ExplainPanel } from "./ExplainPanel";

/** The "Explain a number" section of the pane. */
export const explainFeature: Feature = {
  id: "explain",
  group: "formulas",
  title: "feature.explain.title",
  keywords: "feature.explain.keywords",
  Panel: ExplainPanel,
};
