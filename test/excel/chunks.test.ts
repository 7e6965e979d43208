import { jsonTextBytes, rowBytes, textRowBytes, utf8Length } from "../../src/excel/chunks";

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
