import type { Feature } from "../feature";
import { ConnectionPanel } from "./ConnectionPanel";

/** The "Connection" section of the pane. */
export const connectionFeature: Feature = {
  id: "connection",
  group: "setup",
  title: "Connection",
  keywords: "api key project service url emulator connect",
  Panel: ConnectionPanel,
};
