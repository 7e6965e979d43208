/**
 * The timeseries date filters (`start_date`, `end_date`): a date `YYYY-MM-DD` (the published
 * form) or a year `YYYY` alone. Observed monthly series are narrowed to the months in range.
 */
import { message, type Message } from "../../../../i18n/messages";

const DATE = /^(\d{4})(?:-(\d{2})-(\d{2}))?$/;

/** What is wrong with a typed date filter: not in either form, or a date no calendar has (2021-02-30). */
export type DateFilterFault = "not a date" | "no such date";

/** What is wrong with a typed date filter, or null; "" is no filter. The pane words it in its language. */
export function dateFilterFault(text: string): DateFilterFault | null {
  const value = text.trim();
  if (value === "") return null;
  const m = DATE.exec(value);
  if (!m) return "not a date";
  if (m[2] !== undefined) {
    const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const date = new Date(Date.UTC(year, month - 1, day));
    if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
      return "no such date";
  }
  return null;
}

/** Why a typed date filter is not acceptable (`field` names it as the pane does), or null; "" is no filter. */
export function dateFilterProblem(text: string, field: "from" | "to"): Message | null {
  const fault = dateFilterFault(text);
  if (fault === null) return null;
  const value = text.trim();
  return message(fault === "not a date" ? "timeseries.date.notDate" : "timeseries.date.noSuchDate", { field, value });
}

/** Whether `start` comes after `end` (a year alone spans its whole year); false when either is empty or invalid. */
export function dateRangeReversed(start: string, end: string): boolean {
  const a = DATE.exec(start.trim());
  const b = DATE.exec(end.trim());
  if (!a || !b) return false;
  const first = `${a[1]}-${a[2] ?? "01"}-${a[3] ?? "01"}`;
  const last = `${b[1]}-${b[2] ?? "12"}-${b[3] ?? "31"}`;
  return first > last;
}

/**
 * Whether a series key (`YYYY` for projections, `YYYY-MM` for observed months) falls within the
 * filters, as the service narrows them: a projection by its year, an observed month by its month
 * (a year alone spans its whole year). Empty or invalid filters do not narrow.
 */
export function dateKeyInRange(key: string, start: string, end: string): boolean {
  const a = DATE.exec(start.trim());
  const b = DATE.exec(end.trim());
  const monthly = key.length > 4;
  const from = a ? (monthly ? `${a[1]}-${a[2] ?? "01"}` : a[1]) : "";
  const to = b ? (monthly ? `${b[1]}-${b[2] ?? "12"}` : b[1]) : "";
  return (from === "" || key >= from) && (to === "" || key <= to);
}
