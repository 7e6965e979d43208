/**
 * The fingerprint a pasted table's record holds, and by which a refresh tells that the analyst
 * edited its values: a refresh that missed an edit would overwrite the analyst's work, and one that
 * saw an edit where there was none would refuse to refresh. Records written before issue 41 hold
 * the JSON form and must still be checked by it.
 */
import { FingerprintBuilder, fingerprintMatches, tableFingerprint } from "../../src/shaping/paste-provenance";
import type { CellValue } from "../../src/shaping/types";

const HEADER: CellValue[] = ["entity_id", "score", "label", "note"];
const ROWS: CellValue[][] = [
  ["A-1", 0.25, "LOW", ""],
  ["A-2", -0, true, ""],
  ["A-3", 1e-7, "HIGH", "checked"],
];
/** What the add-in before issue 41 recorded for HEADER and ROWS (computed by that version's code). */
const RECORDED_BEFORE_ISSUE_41 = "fnv1a32:5f901c928577900d:3";

const edited = (row: number, col: number, value: CellValue) =>
  ROWS.map((r, i) => (i === row ? r.map((v, j) => (j === col ? value : v)) : r));

describe("a record written before issue 41 (the JSON form)", () => {
  it("matches the table it was taken of, as Excel reads it back", () => {
    // Excel gives 0 for -0 and "" for an empty cell, which the old form also counted as equal.
    const readBack = ROWS.map((r) => r.map((v) => (v === 0 ? 0 : v)));
    expect(fingerprintMatches(RECORDED_BEFORE_ISSUE_41, HEADER, readBack)).toBe(true);
  });

  it("does not match once a value, the header or the row count changed", () => {
    expect(fingerprintMatches(RECORDED_BEFORE_ISSUE_41, HEADER, edited(0, 1, 0.26))).toBe(false);
    expect(fingerprintMatches(RECORDED_BEFORE_ISSUE_41, HEADER, edited(2, 3, ""))).toBe(false);
    expect(fingerprintMatches(RECORDED_BEFORE_ISSUE_41, ["entity_id", "score", "label", "notes"], ROWS)).toBe(false);
    expect(fingerprintMatches(RECORDED_BEFORE_ISSUE_41, HEADER, ROWS.slice(0, 2))).toBe(false);
  });
});

describe("a fingerprint written now", () => {
  const recorded = tableFingerprint(HEADER, ROWS);

  it("is of the new form and matches its own table", () => {
    expect(recorded).toMatch(/^fnv1a32w:[0-9a-f]{16}:3$/);
    expect(fingerprintMatches(recorded, HEADER, ROWS)).toBe(true);
  });

  it("notices any one changed cell, a number's last bit included", () => {
    const next = (x: number) => x + Math.abs(x) * Number.EPSILON;
    expect(next(0.25)).not.toBe(0.25);
    for (const table of [
      edited(0, 1, next(0.25)),
      edited(0, 1, "0.25"), // the number and its text differ
      edited(1, 2, false),
      edited(1, 3, "x"),
      edited(2, 3, "checke"),
      edited(2, 0, "A-4"),
    ])
      expect(fingerprintMatches(recorded, HEADER, table)).toBe(false);
    expect(fingerprintMatches(recorded, ["entity_id", "score", "label"], ROWS)).toBe(false);
    expect(fingerprintMatches(recorded, HEADER, [ROWS[1]!, ROWS[0]!, ROWS[2]!])).toBe(false);
  });

  it('reads -0 as 0, and a row\'s trailing empty cells ("", null) as absent, as Excel reads them back', () => {
    const readBack = [
      ["A-1", 0.25, "LOW"],
      ["A-2", 0, true, null, ""],
      ["A-3", 1e-7, "HIGH", "checked", ""],
    ] as unknown as CellValue[][];
    expect(fingerprintMatches(recorded, HEADER, readBack)).toBe(true);
  });

  it("is the same whether the rows came in pages or at once", () => {
    const builder = new FingerprintBuilder();
    builder.addRows(ROWS.slice(0, 1));
    builder.addRows(ROWS.slice(1));
    expect(builder.finish(HEADER)).toBe(recorded);
  });
});
