/**
 * Smooth, seeded scalar fields on the sphere. Each field is a sum of a few sinusoids of the
 * 3-D unit vector of a point, so it is continuous everywhere (no seam at ±180°, no pole
 * artefacts) and cheap enough to evaluate hundreds of thousands of times per request.
 */

const FREQUENCIES = [2, 3.5, 6, 10, 17];

interface Wave {
  x: number;
  y: number;
  z: number;
  freq: number;
  amp: number;
  phase: number;
}

const waveCache = new Map<string, Wave[]>();

/** A 32-bit string+number hash (FNV-1a), used to derive per-channel parameters from the seed. */
export function hash32(text: string, seed: number): number {
  let h = 0x811c9dc5 ^ (seed >>> 0);
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a tiny deterministic RNG returning numbers in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function wavesFor(channel: string, seed: number): Wave[] {
  const key = `${channel}|${seed}`;
  let waves = waveCache.get(key);
  if (waves) return waves;
  const rnd = mulberry32(hash32(channel, seed));
  waves = FREQUENCIES.map((freq, i) => {
    // Uniform random direction on the sphere.
    const z = rnd() * 2 - 1;
    const t = rnd() * Math.PI * 2;
    const r = Math.sqrt(1 - z * z);
    return { x: r * Math.cos(t), y: r * Math.sin(t), z, freq, amp: 1 / (1 + 0.7 * i), phase: rnd() * Math.PI * 2 };
  });
  waveCache.set(key, waves);
  return waves;
}

const DEG = Math.PI / 180;

/** A smooth field in [-1, 1] for a named channel at (lat, lng) in degrees. */
export function field(channel: string, lat: number, lng: number, seed: number): number {
  const waves = wavesFor(channel, seed);
  const cl = Math.cos(lat * DEG);
  const px = cl * Math.cos(lng * DEG);
  const py = cl * Math.sin(lng * DEG);
  const pz = Math.sin(lat * DEG);
  let sum = 0;
  let norm = 0;
  for (const w of waves) {
    sum += w.amp * Math.sin(w.freq * Math.PI * (w.x * px + w.y * py + w.z * pz) + w.phase);
    norm += w.amp;
  }
  // The sum of independent sinusoids rarely approaches its bound; stretch it a little.
  const v = (sum / norm) * 1.8;
  return v > 1 ? 1 : v < -1 ? -1 : v;
}

/** The same field mapped to [0, 1]. */
export function field01(channel: string, lat: number, lng: number, seed: number): number {
  return 0.5 + 0.5 * field(channel, lat, lng, seed);
}

/** A smooth bump: 1 at `centre`, falling off over `width` (Gaussian). */
export function bump(x: number, centre: number, width: number): number {
  const d = (x - centre) / width;
  return Math.exp(-d * d);
}

/** Hermite smoothstep between edges a < b. */
export function smoothstep(x: number, a: number, b: number): number {
  const t = x <= a ? 0 : x >= b ? 1 : (x - a) / (b - a);
  return t * t * (3 - 2 * t);
}

/** Clamp into [lo, hi]. */
export function clamp(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}
