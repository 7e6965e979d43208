import type { Feature } from "../feature";
import { ConnectionPanel } from "./ConnectionPanel";

/** The "Connection" section of the pane. */
export const connectionFeature: Feature = {
  id: "connection",
  group: "setup",
  title: "feature.connection.title",
  keywords: "feature.connection.keywords",
  Panel: ConnectionPanel,
};
