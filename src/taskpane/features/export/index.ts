import type { Feature } from "../feature";
import { ExportPanel } from "./ExportPanel";

/** The "Export ZIP → sheets" section of the pane. */
export const exportFeature: Feature = {
  id: "export",
  group: "pull",
  title: "feature.export.title",
  keywords: "feature.export.keywords",
  Panel: ExportPanel,
};
