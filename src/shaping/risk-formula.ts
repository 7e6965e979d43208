/**
 * The one reader of RISK formula text: whether a formula calls a RISK function, and, for a formula
 * that is one RISK call, the function's name and its arguments as written. It is pure text work,
 * so it lives here, below both the workbook layer (src/excel, which finds RISK cells but may not
 * import src/functions) and the functions (src/functions/formula-facts.ts reads the arguments by
 * their specs); the ribbon and the pane use it too.
 */

/** A RISK function's name as a formula writes it, up to its opening parenthesis (group 1: the name). */
const RISK_NAME = String.raw`RISK\.([A-Z]+)\s*\(`;

/** A formula that calls one of the RISK.* functions, anywhere in it. */
export const RISK_CALL = new RegExp(String.raw`\b${RISK_NAME}`, "i");

/**
 * A formula that is one RISK call: `=RISK.NAME(...)`, also as Excel writes a function of an add-in
 * it has not loaded (`_xldudf_RISK.NAME`). Group 1 the name, group 2 the arguments' text.
 */
const WHOLE_CALL = new RegExp(String.raw`^=\s*(?:_xldudf_)?${RISK_NAME}(.*)\)\s*$`, "i");

/** A formula that is one RISK call: the function's name after `RISK.` (upper case) and its arguments as written. */
export interface RiskCallText {
  fn: string;
  /** Each argument's text, trimmed; an omitted argument is "". */
  args: string[];
}

/** Reads `=RISK.NAME(a, b, …)`; undefined for any other formula. */
export function riskCall(formula: string): RiskCallText | undefined {
  const match = WHOLE_CALL.exec(formula);
  return match ? { fn: match[1]!.toUpperCase(), args: splitArguments(match[2]!) } : undefined;
}

/** Splits a formula's arguments at top-level commas, keeping quoted text whole. */
export function splitArguments(text: string): string[] {
  const out: string[] = [];
  let current = "";
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"') quoted = !quoted;
    if (!quoted && (ch === "(" || ch === "{")) depth++;
    if (!quoted && (ch === ")" || ch === "}")) depth--;
    if (!quoted && depth === 0 && ch === ",") {
      out.push(current.trim());
      current = "";
    } else current += ch;
  }
  if (current.trim() !== "" || out.length > 0) out.push(current.trim());
  return out;
}
