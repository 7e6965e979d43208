/**
 * Coordinates as analysts have them, read without guessing. The service takes WGS84 decimal
 * degrees with at least 2 decimal places (published guide); asset lists arrive with degrees,
 * minutes and seconds (`48°51'24"N`), a hemisphere letter (`41.9N`, `12.5W`) or a decimal comma
 * typed as text (`51,5074`). Each of these has one reading, which the pane offers as a conversion
 * (previewed, written only when the analyst accepts). Text with more than one reading, or a
 * hemisphere that contradicts its column, stays a problem to fix by hand.
 */
import { message, type Message, type MessageId, type MessageValue } from "../i18n/messages";
import type { CellValue } from "./types";

/** Which coordinate a column holds. */
export type CoordinateAxis = "lat" | "lng";

/** Decimal places the service asks for (published guide: "at least 2"). */
export const MIN_COORDINATE_DECIMALS = 2;

/** Decimal places a converted coordinate is written with (0.000001° is about 0.1 m). */
const CONVERTED_DECIMALS = 6;

/** How a coordinate cell reads. */
export type CoordinateReading =
  | { kind: "blank" }
  /** A number already (a number cell, or text such as `51.5074`); `decimals` as written. */
  | { kind: "number"; value: number; decimals: number }
  /** Text with exactly one reading as decimal degrees; `form` says which. */
  | { kind: "convertible"; value: number; form: CoordinateForm }
  /** Text with no reading, or more than one: `reason` says why, for the problem's message (`sync.check.reason.*`). */
  | { kind: "unreadable"; reason: Message };

/** The forms a convertible coordinate was written in, as the preview names them. */
export type CoordinateForm = "degrees, minutes, seconds" | "hemisphere letter" | "decimal comma";

const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const HEMISPHERES: Record<string, { axis: CoordinateAxis; sign: 1 | -1 }> = {
  N: { axis: "lat", sign: 1 },
  S: { axis: "lat", sign: -1 },
  E: { axis: "lng", sign: 1 },
  W: { axis: "lng", sign: -1 },
};

/** An unreadable coordinate's reading with the reason `id` (values: what it quotes). */
function unreadable(id: MessageId, values?: Record<string, MessageValue>): CoordinateReading {
  return { kind: "unreadable", reason: message(id, values) };
}

/** Decimal places of a number as JavaScript prints it (51.5 → 1, 51 → 0, 1e-7 → 7). */
export function decimalsOf(value: number): number {
  const text = String(value);
  const exponent = /e-(\d+)$/.exec(text);
  if (exponent) return Number(exponent[1]) + (text.split("e")[0]!.split(".")[1]?.length ?? 0);
  return text.split(".")[1]?.length ?? 0;
}

function round(value: number): number {
  const factor = 10 ** CONVERTED_DECIMALS;
  return Math.round(value * factor) / factor;
}

/** Reads one coordinate cell of a latitude or longitude column; see {@link CoordinateReading}. */
export function readCoordinate(raw: CellValue | null | undefined, axis: CoordinateAxis): CoordinateReading {
  if (typeof raw === "number")
    return Number.isFinite(raw)
      ? { kind: "number", value: raw, decimals: decimalsOf(raw) }
      : unreadable("sync.check.reason.notFinite");
  if (raw === null || raw === undefined) return { kind: "blank" };
  if (typeof raw === "boolean") return unreadable("sync.check.reason.boolean");
  const text = raw.trim();
  if (text === "") return { kind: "blank" };
  if (PLAIN_NUMBER.test(text)) {
    const value = Number(text);
    const decimals = /e/i.test(text) ? decimalsOf(value) : (text.split(".")[1]?.length ?? 0);
    return { kind: "number", value, decimals };
  }
  // Decimal comma: one comma, digits either side, no dot (`51,5074`, `-0,1278`). A dot as well
  // (`1.234,56`) could be a thousands dot or a second decimal mark: two readings.
  if (/^[+-]?\d+,\d+$/.test(text)) {
    return { kind: "convertible", value: Number(text.replace(",", ".")), form: "decimal comma" };
  }
  if (/\d\s*[,;]\s+[+-]?\d|\d\s*;\s*[+-]?\d/.test(text)) {
    return unreadable("sync.check.reason.twoNumbers");
  }
  if (/\d[.,]\d*[.,]/.test(text) && /,/.test(text)) {
    return unreadable("sync.check.reason.decimalMark");
  }
  return readDegrees(text, axis);
}

/** `48°51'24"N`, `N 48° 51.4'`, `-12.5°`, `41.9N`, `12.5 W`. */
function readDegrees(text: string, axis: CoordinateAxis): CoordinateReading {
  const normalized = text
    .replace(/[′’‘´`]/g, "'")
    .replace(/[″“”]|''/g, '"')
    .replace(/º|˚/g, "°")
    .replace(/,/g, ".");
  const letters = normalized.match(/[A-Za-z]/g) ?? [];
  if (letters.length > 1) return unreadable("sync.check.reason.decimalDegrees", { example: 51.5074 });
  let sign: 1 | -1 = 1;
  let hemisphere: string | undefined;
  let body = normalized;
  if (letters.length === 1) {
    hemisphere = letters[0]!.toUpperCase();
    const meaning = HEMISPHERES[hemisphere];
    if (!meaning) return unreadable("sync.check.reason.notHemisphere", { letter: letters[0]! });
    if (meaning.axis !== axis) {
      return unreadable("sync.check.reason.wrongAxis", { letter: hemisphere, axis });
    }
    const at = normalized.search(/[A-Za-z]/);
    const before = normalized.slice(0, at).trim();
    const after = normalized.slice(at + 1).trim();
    if (before !== "" && after !== "") return unreadable("sync.check.reason.letterInMiddle");
    body = before || after;
    sign = meaning.sign;
  }
  body = body.trim();
  const negative = body.startsWith("-");
  if (negative || body.startsWith("+")) body = body.slice(1).trim();
  if (negative && hemisphere) {
    return unreadable("sync.check.reason.minusAndLetter", { letter: hemisphere });
  }
  const dms = /^(\d+(?:\.\d+)?)\s*°?\s*(?:(\d+(?:\.\d+)?)\s*'\s*(?:(\d+(?:\.\d+)?)\s*"?)?)?$/.exec(body);
  if (!dms || (!hemisphere && !/[°'"]/.test(body)))
    return unreadable("sync.check.reason.decimalDegrees", { example: 51.5074 });
  const degrees = Number(dms[1]);
  const minutes = dms[2] === undefined ? 0 : Number(dms[2]);
  const seconds = dms[3] === undefined ? 0 : Number(dms[3]);
  if ((dms[2] !== undefined && dms[1]!.includes(".")) || (dms[3] !== undefined && dms[2]!.includes("."))) {
    return unreadable("sync.check.reason.decimalsBeforeMinutes");
  }
  if (minutes >= 60 || seconds >= 60) return unreadable("sync.check.reason.below60");
  const value = round((negative ? -1 : sign) * (degrees + minutes / 60 + seconds / 3600));
  const form: CoordinateForm =
    dms[2] !== undefined ? "degrees, minutes, seconds" : hemisphere ? "hemisphere letter" : "degrees, minutes, seconds";
  return { kind: "convertible", value, form };
}
