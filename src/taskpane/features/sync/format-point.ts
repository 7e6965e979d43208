import type { Translator } from "../../../i18n/translator";

/**
 * A point as the pane shows it: latitude, longitude with Excel's decimal separator and without
 * binary noise (51.974399999999996 → 51.9744); where that separator is a comma, the two are
 * parted by a semicolon, as Excel parts a list there.
 */
export function formatPoint(point: { lat: number; lng: number }, i18n: Translator, digits = 6): string {
  const coordinate = (value: number) => i18n.number(value, { maximumFractionDigits: digits, useGrouping: false });
  return `${coordinate(point.lat)}${listSeparator(i18n)} ${coordinate(point.lng)}`;
}

/** Excel's list (argument) separator: a semicolon where the decimal separator is a comma. */
export function listSeparator(i18n: Translator): string {
  return i18n.separators.decimal === "," ? ";" : ",";
}
