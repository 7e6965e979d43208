import { HAZARDS, lookupHazard, type HazardNames } from "../shared/vocabulary";
import { NotAvailableError } from "./formula-errors";
import { message } from "../i18n/messages";

/**
 * Finds a hazard by any of its spellings. An unknown name is an unknown hazard (`#N/A`, not
 * `#VALUE!`: the argument is well formed), with the names that work in the message.
 */
export function findHazard(text: string): HazardNames {
  const hazard = lookupHazard(text);
  if (!hazard) {
    throw new NotAvailableError(
      message("cell.na.unknownHazard", {
        hazard: `"${text.slice(0, 30)}"`,
        hazards: HAZARDS.map((h) => h.search).join(", "),
      }),
    );
  }
  return hazard;
}
