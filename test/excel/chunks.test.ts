import { jsonBytes, jsonTextBytes, rowBytes, textRowBytes, utf8Length } from "../../src/excel/chunks";

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
  it.each(TEXTS)("jsonTextBytes(%j) is the UTF-8 length of its JSON", (text) => {
    expect(jsonTextBytes(text)).toBe(utf8Length(JSON.stringify(text)));
  });

  it("textRowBytes counts what rowBytes counts, without building the JSON", () => {
    expect(textRowBytes([])).toBe(rowBytes([], null));
    expect(textRowBytes(["one"])).toBe(rowBytes(["one"], null));
    expect(textRowBytes(TEXTS)).toBe(rowBytes(TEXTS, null));
  });
});

describe("the size of a read's answer", () => {
  const VALUES: unknown[] = [
    null,
    true,
    false,
    0,
    -0,
    7,
    -7,
    10,
    99,
    100,
    -1000,
    Number.MAX_SAFE_INTEGER,
    -Number.MAX_SAFE_INTEGER,
    2 ** 60,
    1e21,
    0.1,
    -3.25e-7,
    1 / 3,
    NaN,
    Infinity,
    ...TEXTS,
    [],
    {},
    [1, "two", null, undefined, [true, [], {}]],
    { a: 1, skipped: undefined, 'quote"d': ["x", { nested: -12.5 }], when: new Date(0) },
    [TEXTS, TEXTS.map((t, i) => [t, i * 1.5, i % 2 === 0])],
  ];
  it.each(VALUES.map((value) => [value]))("jsonBytes(%j) is the UTF-8 length of its JSON", (value) => {
    expect(jsonBytes(value)).toBe(utf8Length(JSON.stringify(value)));
  });
});
