// Draws the add-in's icons as PNGs without an image library: the add-in's own (a teal disc with a
// warm "risk" band) and one glyph per Climate Risk ribbon command in 16, 32 and 80 px (the sizes the
// manifest's Icon elements name). Run `node scripts/make-icons.mjs`; the PNGs are committed in
// assets/ and assets/ribbon/.
import { mkdirSync, writeFileSync } from "node:fs";
import { deflateSync } from "node:zlib";

function crc32(bytes) {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}
function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, "ascii");
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}
function encode(size, raw) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
function png(size) {
  const raw = Buffer.alloc(size * (size * 4 + 1));
  const c = (size - 1) / 2;
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0;
    for (let x = 0; x < size; x++) {
      const d = Math.hypot(x - c, y - c) / (size / 2);
      const o = y * (size * 4 + 1) + 1 + x * 4;
      const alpha = d <= 0.92 ? 255 : d <= 1 ? Math.round(255 * (1 - (d - 0.92) / 0.08)) : 0;
      const band = Math.abs(y - c * 1.15) < size * 0.12;
      const [r, g, b] = band ? [242, 140, 40] : y < c * 1.15 ? [15, 118, 110] : [17, 94, 89];
      raw.set([r, g, b, alpha], o);
    }
  }
  return encode(size, raw);
}
for (const size of [16, 32, 64, 80]) writeFileSync(new URL(`../assets/icon-${size}.png`, import.meta.url), png(size));

// Ribbon glyphs, drawn in a 0..1 square from strokes (segments and arcs) and filled shapes, each
// pixel 4x4 supersampled. Strokes get thicker relative to the icon at 16 px so they stay legible.
const TEAL = [15, 118, 110];
const AMBER = [202, 104, 16];
const segment = (x1, y1, x2, y2) => ({ kind: "segment", x1, y1, x2, y2 });
const arc = (cx, cy, r, from, to) => ({ kind: "arc", cx, cy, r, from, to });
const box = (x1, y1, x2, y2) => ({ kind: "box", x1, y1, x2, y2 });
const dot = (cx, cy, r) => ({ kind: "dot", cx, cy, r });
const outline = (x1, y1, x2, y2) => [
  segment(x1, y1, x2, y1),
  segment(x2, y1, x2, y2),
  segment(x2, y2, x1, y2),
  segment(x1, y2, x1, y1),
];
/** A circular refresh arrow in the icon's upper-left part, its head on the right pointing down. */
const refreshArrow = [
  arc(0.4, 0.4, 0.28, 0, 2 * Math.PI - 1.1),
  segment(0.68, 0.42, 0.56, 0.3),
  segment(0.68, 0.42, 0.8, 0.3),
];
const GLYPHS = {
  "refresh-selection": [
    [TEAL, refreshArrow],
    [AMBER, [...outline(0.55, 0.55, 0.9, 0.9)]],
  ],
  "refresh-sheet": [
    [TEAL, refreshArrow],
    [AMBER, [box(0.55, 0.55, 0.92, 0.92)]],
  ],
  "refresh-workbook": [
    [TEAL, refreshArrow],
    [AMBER, [box(0.5, 0.5, 0.8, 0.8), ...outline(0.62, 0.62, 0.94, 0.94)]],
  ],
  "refresh-pasted": [
    [TEAL, refreshArrow],
    [AMBER, [segment(0.52, 0.58, 0.94, 0.58), segment(0.52, 0.74, 0.94, 0.74), segment(0.52, 0.9, 0.94, 0.9)]],
  ],
  builder: [
    [TEAL, [...outline(0.1, 0.2, 0.9, 0.8)]],
    [AMBER, [segment(0.5, 0.32, 0.5, 0.68), segment(0.32, 0.5, 0.68, 0.5)]],
  ],
  explain: [
    [TEAL, [arc(0.5, 0.5, 0.4, 0, 2 * Math.PI)]],
    [AMBER, [segment(0.5, 0.45, 0.5, 0.72), dot(0.5, 0.3, 0.07)]],
  ],
  "to-values": [
    [TEAL, [...outline(0.1, 0.1, 0.9, 0.9)]],
    [AMBER, [segment(0.3, 0.4, 0.7, 0.4), segment(0.3, 0.6, 0.7, 0.6)]],
  ],
  restore: [
    [TEAL, [arc(0.5, 0.55, 0.33, 3.6, 8.4), segment(0.2, 0.15, 0.22, 0.4), segment(0.22, 0.4, 0.45, 0.36)]],
    [AMBER, [dot(0.5, 0.55, 0.08)]],
  ],
  sync: [
    [TEAL, [segment(0.5, 0.85, 0.5, 0.2), segment(0.5, 0.2, 0.28, 0.42), segment(0.5, 0.2, 0.72, 0.42)]],
    [AMBER, [segment(0.15, 0.92, 0.85, 0.92)]],
  ],
  pull: [
    [TEAL, [segment(0.5, 0.1, 0.5, 0.7), segment(0.5, 0.7, 0.28, 0.48), segment(0.5, 0.7, 0.72, 0.48)]],
    [AMBER, [segment(0.15, 0.9, 0.85, 0.9)]],
  ],
  connection: [
    [TEAL, [arc(0.28, 0.5, 0.16, 0, 2 * Math.PI), arc(0.72, 0.5, 0.16, 0, 2 * Math.PI)]],
    [AMBER, [segment(0.4, 0.5, 0.6, 0.5)]],
  ],
  check: [
    [TEAL, [arc(0.5, 0.5, 0.4, 0, 2 * Math.PI)]],
    [AMBER, [segment(0.3, 0.52, 0.45, 0.67), segment(0.45, 0.67, 0.72, 0.36)]],
  ],
};

function distanceToSegment(px, py, s) {
  const dx = s.x2 - s.x1;
  const dy = s.y2 - s.y1;
  const t = Math.max(0, Math.min(1, ((px - s.x1) * dx + (py - s.y1) * dy) / (dx * dx + dy * dy || 1)));
  return Math.hypot(px - (s.x1 + t * dx), py - (s.y1 + t * dy));
}
function covers(shape, px, py, half) {
  if (shape.kind === "segment") return distanceToSegment(px, py, shape) <= half;
  if (shape.kind === "box") return px >= shape.x1 && px <= shape.x2 && py >= shape.y1 && py <= shape.y2;
  if (shape.kind === "dot") return Math.hypot(px - shape.cx, py - shape.cy) <= shape.r + half / 2;
  const d = Math.hypot(px - shape.cx, py - shape.cy);
  if (Math.abs(d - shape.r) > half) return false;
  let angle = Math.atan2(py - shape.cy, px - shape.cx);
  while (angle < shape.from) angle += 2 * Math.PI;
  return angle <= shape.to;
}
function glyph(size, layers) {
  const raw = Buffer.alloc(size * (size * 4 + 1));
  const half = (size <= 16 ? 1.6 : size <= 32 ? 2.4 : 5) / size;
  const samples = 4;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let hits = 0;
      const colour = [0, 0, 0];
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const px = (x + (sx + 0.5) / samples) / size;
          const py = (y + (sy + 0.5) / samples) / size;
          // The last layer that covers the sample wins (amber details over teal outlines).
          let found;
          for (const [rgb, shapes] of layers) if (shapes.some((shape) => covers(shape, px, py, half))) found = rgb;
          if (found) {
            hits++;
            for (let k = 0; k < 3; k++) colour[k] += found[k];
          }
        }
      }
      const o = y * (size * 4 + 1) + 1 + x * 4;
      const alpha = Math.round((255 * hits) / (samples * samples));
      raw.set(hits ? [...colour.map((c) => Math.round(c / hits)), alpha] : [0, 0, 0, 0], o);
    }
  }
  return encode(size, raw);
}
mkdirSync(new URL("../assets/ribbon/", import.meta.url), { recursive: true });
for (const [name, layers] of Object.entries(GLYPHS))
  for (const size of [16, 32, 80])
    writeFileSync(new URL(`../assets/ribbon/${name}-${size}.png`, import.meta.url), glyph(size, layers));
