import type { Feature } from "../feature";
import { ExplainPanel } from "./ExplainPanel";

/** What other features use: its formula reading, which the changes report shares. */
export { formulaFacts, formulaReferences, splitArguments, type FormulaFacts } from "./explain-actions";

/** The "Explain a number" section of the pane. */
export const explainFeature: Feature = {
  id: "explain",
  group: "formulas",
  title: "Explain a number",
  keywords: "why meaning threshold label score cell",
  Panel: ExplainPanel,
};
