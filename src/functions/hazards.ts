import { HAZARDS, lookupHazard, type HazardNames } from "../shared/vocabulary";
import { NotAvailableError } from "./formula-errors";

/**
 * Finds a hazard by any of its spellings. An unknown name is an unknown hazard (`#N/A`, not
 * `#VALUE!`: the argument is well formed), with the names that work in the message.
 */
export function findHazard(text: string): HazardNames {
  const hazard = lookupHazard(text);
  if (!hazard) {
    throw new NotAvailableError(
      `Unknown hazard "${text.slice(0, 30)}": use ${HAZARDS.map((h) => h.search).join(", ")}`,
    );
  }
  return hazard;
}
