import type { Feature } from "../feature";
import { ExplainPanel } from "./ExplainPanel";

/** The "Explain a number" section of the pane. */
export const explainFeature: Feature = {
  id: "explain",
  group: "formulas",
  title: "Explain a number",
  keywords: "why meaning threshold label score cell",
  Panel: ExplainPanel,
};
