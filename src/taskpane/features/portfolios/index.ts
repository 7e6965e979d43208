import type { Feature } from "../feature";
import { PortfoliosPanel } from "./PortfoliosPanel";

/** What other features use: the assets paste the map reuses. */
export { pasteAssets } from "./portfolios-actions";

/** The "Portfolios: assets, delete" section of the pane. */
export const portfoliosFeature: Feature = {
  id: "portfolios",
  group: "portfolios",
  title: "feature.portfolios.title",
  keywords: "feature.portfolios.keywords",
  Panel: PortfoliosPanel,
};
