/**
 * Parses the small formula language the harness understands: one function call
 * (`=RISK.SEARCH(A2, $B$2, "floods", "15yr", , "label")`) or one value (`=A1`, `=42`, `="text"`).
 * Arguments are numbers, strings in double quotes ("" inside is a quote), TRUE/FALSE, cell
 * references (A2, $A$2, Sheet2!A2, 'My sheet'!A2) and ranges (A2:B5). An empty argument is an
 * omitted optional argument (Excel passes null). Anything else is a syntax error naming the position.
 */

import { columnIndex } from "../../src/shaping/a1";

/** A cell or range reference; row/col are 0-based, sheet is undefined for "this sheet". */
export interface RefExpr {
  kind: "ref";
  sheet?: string;
  row: number;
  col: number;
  rows: number;
  cols: number;
  text: string;
}

/** One parsed expression. */
export type Expr =
  | { kind: "number"; value: number }
  | { kind: "string"; value: string }
  | { kind: "boolean"; value: boolean }
  | { kind: "omitted" }
  | RefExpr
  | { kind: "call"; name: string; args: Expr[] };

/** A formula the harness cannot read; the message says what was expected where. */
export class FormulaSyntaxError extends Error {
  override readonly name = "FormulaSyntaxError";
}

/** Parse a formula (with or without its leading "="). */
export function parseFormula(formula: string): Expr {
  const parser = new Parser(formula.startsWith("=") ? formula.slice(1) : formula);
  const expr = parser.expression(true);
  parser.skipSpaces();
  if (!parser.atEnd()) parser.fail("the end of the formula");
  return expr;
}

/** Every reference in an expression (the cells a formula depends on). */
export function referencesOf(expr: Expr): RefExpr[] {
  if (expr.kind === "ref") return [expr];
  if (expr.kind === "call") return expr.args.flatMap(referencesOf);
  return [];
}

const CELL = /^\$?([A-Za-z]{1,3})\$?([0-9]{1,7})/;
const NUMBER = /^[0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?/;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*/;

class Parser {
  private pos = 0;
  constructor(private readonly text: string) {}

  atEnd(): boolean {
    return this.pos >= this.text.length;
  }

  skipSpaces(): void {
    while (!this.atEnd() && /\s/.test(this.text[this.pos])) this.pos++;
  }

  fail(expected: string): never {
    const found = this.atEnd() ? "the end" : `"${this.text.slice(this.pos, this.pos + 12)}"`;
    throw new FormulaSyntaxError(`Expected ${expected} at character ${this.pos + 2} of the formula, found ${found}`);
  }

  /** An expression; `top` allows nothing to be omitted. */
  expression(top = false): Expr {
    this.skipSpaces();
    const rest = this.text.slice(this.pos);
    if (!top && (rest.startsWith(",") || rest.startsWith(")"))) return { kind: "omitted" };
    if (rest.startsWith('"')) return this.string();
    if (rest.startsWith("-") || rest.startsWith("+")) {
      this.pos++;
      const operand = this.expression(true);
      if (operand.kind !== "number") this.fail("a number after the sign");
      return { kind: "number", value: rest.startsWith("-") ? -operand.value : operand.value };
    }
    const number = NUMBER.exec(rest);
    if (number && !/[A-Za-z_]/.test(rest[number[0].length] ?? "")) {
      this.pos += number[0].length;
      return { kind: "number", value: Number(number[0]) };
    }
    const ref = this.reference();
    if (ref) return ref;
    const name = NAME.exec(rest);
    if (name) {
      this.pos += name[0].length;
      this.skipSpaces();
      if (this.text[this.pos] === "(") return this.call(name[0]);
      const upper = name[0].toUpperCase();
      if (upper === "TRUE" || upper === "FALSE") return { kind: "boolean", value: upper === "TRUE" };
      throw new FormulaSyntaxError(`Unknown name "${name[0]}" in the formula (text needs double quotes)`);
    }
    return this.fail('a number, a "text", TRUE/FALSE, a cell reference or a function call');
  }

  private string(): Expr {
    let value = "";
    this.pos++; // opening quote
    for (;;) {
      if (this.atEnd()) this.fail('a closing "');
      const ch = this.text[this.pos++];
      if (ch === '"') {
        if (this.text[this.pos] === '"') {
          value += '"';
          this.pos++;
          continue;
        }
        return { kind: "string", value };
      }
      value += ch;
    }
  }

  /** A reference with an optional sheet prefix, or undefined when the text is not one. */
  private reference(): RefExpr | undefined {
    const start = this.pos;
    let sheet: string | undefined;
    const rest = this.text.slice(this.pos);
    const quoted = /^'((?:[^']|'')+)'!/.exec(rest);
    const plain = /^([A-Za-z0-9_.]+)!/.exec(rest);
    if (quoted) {
      sheet = quoted[1].replace(/''/g, "'");
      this.pos += quoted[0].length;
    } else if (plain) {
      sheet = plain[1];
      this.pos += plain[0].length;
    }
    const first = this.cell();
    if (!first) {
      if (sheet !== undefined) this.fail("a cell reference after the sheet name");
      this.pos = start;
      return undefined;
    }
    let last = first;
    if (this.text[this.pos] === ":") {
      this.pos++;
      const second = this.cell();
      if (!second) this.fail("the cell that ends the range");
      last = second;
    }
    const row = Math.min(first.row, last.row);
    const col = Math.min(first.col, last.col);
    return {
      kind: "ref",
      sheet,
      row,
      col,
      rows: Math.abs(last.row - first.row) + 1,
      cols: Math.abs(last.col - first.col) + 1,
      text: this.text.slice(start, this.pos),
    };
  }

  private cell(): { row: number; col: number } | undefined {
    const match = CELL.exec(this.text.slice(this.pos));
    if (!match) return undefined;
    const after = this.text[this.pos + match[0].length];
    if (after !== undefined && /[A-Za-z0-9_(.]/.test(after)) return undefined; // a name such as LOG10( or RISK.X
    const row = Number(match[2]) - 1;
    if (row < 0) return undefined;
    this.pos += match[0].length;
    return { row, col: columnIndex(match[1]) };
  }

  private call(name: string): Expr {
    this.pos++; // "("
    const args: Expr[] = [];
    this.skipSpaces();
    if (this.text[this.pos] === ")") {
      this.pos++;
      return { kind: "call", name, args };
    }
    for (;;) {
      args.push(this.expression());
      this.skipSpaces();
      const ch = this.text[this.pos];
      if (ch === ",") {
        this.pos++;
        continue;
      }
      if (ch === ")") {
        this.pos++;
        return { kind: "call", name, args };
      }
      this.fail('"," or ")"');
    }
  }
}
