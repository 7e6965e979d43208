// Draws the add-in's icons (a teal disc with a warm "risk" band) as PNGs without an image
// library: run once with `node scripts/make-icons.mjs`; the PNGs are committed in assets/.
import { writeFileSync } from "node:fs";
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
for (const size of [16, 32, 64, 80]) writeFileSync(new URL(`../assets/icon-${size}.png`, import.meta.url), png(size));
