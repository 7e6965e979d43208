import { estimateJsonBytes, jsonTextBytes, rowBytes, textRowBytes, utf8Length } from "../../src/excel/chunks";

/** Texts that exercise every branch: quotes, backslashes, control characters, accents, CJK, emoji, lone surrogates. */
const TEXTS = [
  "",
  "plain",
  '["12","Lisbon \\"port\\""]',
  "back\\slash",
  "tab\tline\nfeed\rform\fback\b",
  "bell\u0007 null\u0000 unit\u001f",
  "São Paulo — Zürich",
  "東京都",
  "wave 🌊 fire 🔥",
  "lone \ud800 high",
  "lone \udc00 low",
  "high at end \ud83c",
  "AAAA-_zz".repeat(25),
];

describe("request sizes of text rows", () => {
  it.each([...TEXTS, "delete \u007f", "ASCII then é", "é then ASCII"])(
    "utf8Length(%j) is the bytes Node's encoder writes",
    (text) => {
      // A lone surrogate is written as U+FFFD (3 bytes); one that ends the text is counted as a
      // pair's 4, a byte over: a request's size may be overestimated, never under.
      const over = text.endsWith("\ud83c") ? 1 : 0;
      expect(utf8Length(text)).toBe(Buffer.byteLength(text, "utf8") + over);
    },
  );

  it.each(TEXTS)("jsonTextBytes(%j) is the UTF-8 length of its JSON", (text) => {
    expect(jsonTextBytes(text)).toBe(utf8Length(JSON.stringify(text)));
  });

  it("textRowBytes counts what rowBytes counts, without building the JSON", () => {
    expect(textRowBytes([])).toBe(rowBytes([], null));
    expect(textRowBytes(["one"])).toBe(rowBytes(["one"], null));
    expect(textRowBytes(TEXTS)).toBe(rowBytes(TEXTS, null));
  });
});

describe("weighing a read's answer", () => {
  const exact = (cells: unknown[][]) => utf8Length(JSON.stringify(cells));

  it("is exact for small answers and every kind of cell", () => {
    const cells = [
      [1, -0, 1.5e21, NaN, Infinity, true, false, null, ""],
      ['=RISK.SUMMARY("p",A2,"wildfire")', "東京都", "wave 🌊", "tab\t", 0.1, 2, 3, 4, 5],
    ];
    expect(estimateJsonBytes(cells)).toBe(exact(cells));
    expect(estimateJsonBytes([])).toBe(exact([]));
    expect(estimateJsonBytes([[]])).toBe(exact([[]]));
  });

  it("comes within 5 % for a large answer whose columns differ, some of them rarely", () => {
    // 2,048 rows of 24 columns (the stride would be 24: one column only): a note in the last column,
    // formulas, numbers, accented names, and a few very long texts in one column.
    const cells = Array.from({ length: 2_048 }, (_, r) =>
      Array.from({ length: 24 }, (_, c) => {
        if (c === 0) return `asset-${r}`;
        if (c === 23) return r % 50 === 0 ? "x".repeat(2_000) : "note about São Paulo";
        if (c % 3 === 0) return `='Financial impact p'!C${r + 2}*(1-D${r + 2})`;
        if (c % 3 === 1) return Math.round(r * c * 1.37) / 100;
        return "Zürich";
      }),
    );
    const weighed = estimateJsonBytes(cells);
    expect(Math.abs(weighed - exact(cells)) / exact(cells)).toBeLessThan(0.05);
  });
});
