/**
 * The pane's side of the country check (model/country-check.ts): run it on a validated range, only
 * where the range has a country column (the 1:50m outlines are then fetched, a chunk of their own),
 * and write the swap and sign fixes the analyst accepts, keeping the original coordinates in the
 * column beside the range.
 */
import { applyCellChanges } from "../../../excel/asset-cells";
import { readAddress } from "../../../excel/read-range";
import type { CellValue } from "../../../shaping/types";
import { parseA1 } from "../../../shaping/a1";
import { message } from "../../../i18n/messages";
import { MessageError } from "../../../i18n/message-error";
import type { CountryCheck } from "./model/country-check";
import type { AssetValidation } from "./model/validate-assets";
import type { ExcelRunner } from "../../ui/pane-types";

/** What the check adds to a check's or a sync's findings. */
export interface CountryFindings {
  /** The check's outcome, when the range has a country column and readable coordinates. */
  countryCheck?: CountryCheck;
  /** Why the check could not run (the outlines did not load): the sync goes on without it. */
  countryCheckError?: string;
}

/**
 * Checks the validated range's points against their countries. Nothing when the range has no
 * country column (nothing is loaded then); a failure to load the outlines is reported, not thrown,
 * since the check never stops a sync.
 */
export async function checkRangeCountries(
  values: CellValue[][],
  address: string,
  validation: AssetValidation,
): Promise<CountryFindings> {
  const hasCountry = validation.columns.some((c) => c.target.kind === "label" && c.target.key === "country");
  if (!hasCountry || validation.assets.length === 0) return {};
  try {
    const { checkCountries } = await import(/* webpackChunkName: "country-check" */ "./model/country-check");
    const countryCheck = checkCountries(values, address, validation);
    return countryCheck ? { countryCheck } : {};
  } catch (error) {
    return { countryCheckError: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Writes the previewed fixes (only when the analyst accepts them): each row's corrected lat and lng,
 * and its original coordinates in the column beside the range, under the header "original lat,
 * lng". When that column holds anything else, or a cell changed since the preview, nothing is
 * written. Returns how many points were fixed.
 */
export async function applyCountryFixes(run: ExcelRunner, check: CountryCheck): Promise<number> {
  const { fixCellChanges, ORIGINALS_HEADER } = await import(
    /* webpackChunkName: "country-check" */ "./model/country-check"
  );
  const fixes = check.findings.flatMap((f) => (f.fix ? [f.fix] : []));
  if (fixes.length === 0) return 0;
  const last = fixes[fixes.length - 1]!.original.cell;
  const column = await run((context) => readAddress(context, `${check.originalsHeader.address}:${last}`));
  const headerNow = String(column.values[0]?.[0] ?? "");
  // The column is read from the header row down: the row of sheet row s is s - headerRow.
  const headerRow = parseA1(check.originalsHeader.address).row + 1;
  const held = fixes.find((f) => String(column.values[f.sheetRow - headerRow]?.[0] ?? "") !== "");
  if ((headerNow !== "" && headerNow !== ORIGINALS_HEADER) || held) {
    const where = held ? held.original.cell : check.originalsHeader.cell;
    throw new MessageError(message("sync.country.problem.originalsHeld", { cell: where }));
  }
  await run((context) => applyCellChanges(context, fixCellChanges(check, headerNow)));
  return fixes.length;
}
