import type { Feature } from "../feature";
import { FormulaBuilderPanel } from "./FormulaBuilderPanel";

/** The "Formula builder" section of the pane. */
export const builderFeature: Feature = {
  id: "builder",
  group: "formulas",
  title: "feature.builder.title",
  keywords: "feature.builder.keywords",
  Panel: FormulaBuilderPanel,
};
