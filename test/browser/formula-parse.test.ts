/**
 * The harness's formula reader (harness/formula/parse.ts), without a browser: what a user types in a
 * cell becomes the arguments the RISK.* functions receive.
 */
import { FormulaSyntaxError, parseFormula, referencesOf } from "../../harness/formula/parse";

describe("harness formula parser", () => {
  test("a RISK call with numbers, text, references and an omitted optional argument", () => {
    const expr = parseFormula('=RISK.SEARCH(A2, $B$12, "floods", 15, , "label")');
    expect(expr).toEqual({
      kind: "call",
      name: "RISK.SEARCH",
      args: [
        { kind: "ref", sheet: undefined, row: 1, col: 0, rows: 1, cols: 1, text: "A2" },
        { kind: "ref", sheet: undefined, row: 11, col: 1, rows: 1, cols: 1, text: "$B$12" },
        { kind: "string", value: "floods" },
        { kind: "number", value: 15 },
        { kind: "omitted" },
        { kind: "string", value: "label" },
      ],
    });
  });

  test("negative and decimal numbers, booleans, doubled quotes inside text", () => {
    const expr = parseFormula('=RISK.X(-33.8688, .5, 1e3, TRUE, false, "say ""hi""")');
    expect(expr.kind === "call" && expr.args).toEqual([
      { kind: "number", value: -33.8688 },
      { kind: "number", value: 0.5 },
      { kind: "number", value: 1000 },
      { kind: "boolean", value: true },
      { kind: "boolean", value: false },
      { kind: "string", value: 'say "hi"' },
    ]);
  });

  test("sheet-qualified references and ranges are dependencies of the formula", () => {
    const expr = parseFormula("=RISK.SUMMARY('My sites'!A2, Assets!C3:D9, A1)");
    expect(referencesOf(expr).map((r) => [r.sheet, r.row, r.col, r.rows, r.cols])).toEqual([
      ["My sites", 1, 0, 1, 1],
      ["Assets", 2, 2, 7, 2],
      [undefined, 0, 0, 1, 1],
    ]);
  });

  test("a lone value or reference after = is allowed", () => {
    expect(parseFormula("=B7")).toMatchObject({ kind: "ref", row: 6, col: 1 });
    expect(parseFormula('="x"')).toEqual({ kind: "string", value: "x" });
  });

  test("mistakes are reported with what was expected and where", () => {
    expect(() => parseFormula("=RISK.SEARCH(A2 B2)")).toThrow(
      new FormulaSyntaxError('Expected "," or ")" at character 17 of the formula, found "B2)"'),
    );
    expect(() => parseFormula('=RISK.SEARCH("open')).toThrow(/closing "/);
    expect(() => parseFormula("=RISK.SEARCH(floods)")).toThrow(/Unknown name "floods".*double quotes/);
    expect(() => parseFormula("=RISK.SEARCH(15yr)")).toThrow(FormulaSyntaxError);
  });
});
