import { RiskEngine } from "../../src/functions/engine/engine";

/**
 * The engine's fresh pass (scoped refresh): inside it the first call of a key loads anew and the
 * result replaces the cached one; repeated calls share that load; keys not called keep their
 * cached results; after end() the cache answers again.
 */
const connection = { baseUrl: "http://127.0.0.1:9", natureUrl: "http://127.0.0.1:9/nature", apiKey: "k", project: "p" };

test("only keys called in the pass are loaded anew, once each; others stay cached", async () => {
  const engine = new RiskEngine({ connection, batchWindowMs: 0 });
  const loads: Record<string, number> = {};
  const load = (key: string) => engine.load(key, async () => (loads[key] = (loads[key] ?? 0) + 1));
  expect(await Promise.all([load("a"), load("b")])).toEqual([1, 1]);
  expect(await load("a")).toBe(1); // cached

  const pass = engine.beginFreshPass();
  const changes: number[] = [];
  pass.onChange(() => changes.push(pass.pending));
  expect(await Promise.all([load("a"), load("a")])).toEqual([2, 2]); // one fresh load, shared
  expect(await load("a")).toBe(2); // the fresh result, from the cache now
  expect(pass).toMatchObject({ calls: 3, settled: 3, pending: 0 });
  expect(changes.length).toBe(6);
  pass.end();

  expect(await load("b")).toBe(1); // never called in the pass: still the cached result
  expect(await load("a")).toBe(2);
  expect(loads).toEqual({ a: 2, b: 1 });
  expect(pass.calls).toBe(3); // calls after end() are not counted
});
