/**
 * Limits on the shape of JSON the emulator accepts and stores. A deeply nested document is cheap
 * to send and expensive to keep: serialising the whole state (persistence) and jq's engine both
 * recurse, so one tenant's 6,000-level GeoJSON used to overflow the stack of every later write.
 * Documents are therefore refused at the door, before anything is stored.
 */
/**
 * Largest request body, JSON or multipart, in bytes (inferred: the contract shows no payload
 * limit). Past it the answer is 413 (emulator/http/oversized-body.ts).
 */
export const BODY_LIMIT = 10 * 1024 * 1024;

/**
 * Most names in a UDF's `equation.inputLayers` (inferred: the contract shows none; the published
 * examples name one). Every name costs a lookup and a layer handed to the jq worker: unbounded, a
 * 2 MB body listing one layer 100,000 times held the server's thread for seconds.
 */
export const MAX_INPUT_LAYERS = 16;

/**
 * Deepest nesting (objects and arrays) accepted in a request body or an uploaded GeoJSON file.
 * GeoJSON itself needs about 8 (FeatureCollection → features → Feature → geometry → MultiPolygon
 * coordinates); 32 leaves room for nested properties.
 */
export const MAX_JSON_DEPTH = 32;

/**
 * The nesting depth of `value`, counting each object or array as one level; stops counting (and
 * answers `limit + 1`) as soon as `limit` is exceeded. Iterative, so any depth is measured safely.
 */
export function jsonDepth(value: unknown, limit = MAX_JSON_DEPTH): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    if (depth > deepest) deepest = depth;
    if (deepest > limit) return limit + 1;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
    }
  }
  return deepest;
}
