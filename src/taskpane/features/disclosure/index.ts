import type { Feature } from "../feature";
import { DisclosurePanel } from "./DisclosurePanel";

/** The "Disclosure tables → new sheets" section of the pane: ESRS E1-9, IFRS S2 29(c) and TCFD as formulas. */
export const disclosureFeature: Feature = {
  id: "disclosure",
  group: "pull",
  title: "feature.disclosure.title",
  keywords: "feature.disclosure.keywords",
  Panel: DisclosurePanel,
};
