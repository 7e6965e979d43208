/**
 * The control route that changes some assets' risk data (POST /__emulator/portfolios/:name/change-data),
 * over HTTP: the chosen assets' summary, extended summary and timeseries change and no other's, the
 * dataset gets a new version and digest, and the route is gated like the other control routes
 * (no key, not counted, not in the service's OpenAPI document).
 */
import { call, csvForm, portfolioWith, spiralCsv, waitAvailable } from "./helpers";
import { startTestEmulator, useTestEmulator } from "../support/emulator";

const emu = useTestEmulator();
beforeAll(async () => {
  await portfolioWith(emu, "changing", spiralCsv(40));
});

const P = "/api/portfolios/changing/datasets/physical";
const CHANGE = "/__emulator/portfolios/changing/change-data";

/** entity_id → a fingerprint of the asset's rows in a list answer. */
async function byEntity(path: string): Promise<Map<string, string>> {
  const answer = await call(emu, "GET", path);
  expect({ path, status: answer.status, errors: answer.body.errors }).toEqual({ path, status: 200 });
  const out = new Map<string, string>();
  for (const item of answer.body as Array<Record<string, unknown>>) {
    const id = String(item.entity_id);
    out.set(id, (out.get(id) ?? "") + JSON.stringify(item));
  }
  return out;
}

async function readAll() {
  return {
    summary: await byEntity(`${P}/summary?scenario=ssp585&rows=250`),
    extended: await byEntity(`${P}/summary?extended=true&scenario=ssp585&rows=250`),
    items: await byEntity(`${P}/items?hazard=wildfire&indicator=unified_prob&scenario=ssp585&measure=mid&rows=250`),
    metadata: (await call(emu, "GET", `${P}/`)).body as { version: string; sha256_digest: string },
  };
}

function changedIds(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...before.keys()].filter((id) => before.get(id) !== after.get(id)).sort();
}

test("a fraction of the assets gets new numbers, the others keep theirs; the dataset a new version and digest", async () => {
  const before = await readAll();
  const answer = await call(emu, "POST", CHANGE, { key: null, project: null, json: { fraction: 0.1 } });
  expect(answer.status).toBe(200);
  const changed = [...(answer.body.changed as string[])].sort();
  expect(changed).toHaveLength(4); // 10 % of 40, spread over the portfolio
  expect(new Set(changed).size).toBe(4);
  const after = await readAll();
  expect(changedIds(before.summary, after.summary)).toEqual(changed);
  expect(changedIds(before.extended, after.extended)).toEqual(changed);
  expect(changedIds(before.items, after.items)).toEqual(changed);
  expect(after.metadata.version).not.toBe(before.metadata.version);
  expect(after.metadata.sha256_digest).not.toBe(before.metadata.sha256_digest);
  expect(answer.body).toMatchObject({
    portfolio_name: "changing",
    version: after.metadata.version,
    sha256_digest: after.metadata.sha256_digest,
  });
});

test("a list of entity_ids changes those assets only, and each change is a new version", async () => {
  const before = await readAll();
  const answer = await call(emu, "POST", CHANGE, { json: { entity_ids: ["E3", "E17"] } });
  expect(answer.status).toBe(200);
  expect(answer.body.changed).toEqual(["E3", "E17"]);
  const after = await readAll();
  expect(changedIds(before.summary, after.summary)).toEqual(["E17", "E3"]);
  expect(after.metadata.version).not.toBe(before.metadata.version);
});

test("bad bodies and unknown portfolios are refused with a sentence, and nothing changes", async () => {
  const before = await readAll();
  const refusals: Array<[string, unknown, number, RegExp]> = [
    [CHANGE, {}, 400, /exactly one of "fraction".*"entity_ids"/],
    [CHANGE, { fraction: 0.1, entity_ids: ["E1"] }, 400, /exactly one/],
    [CHANGE, { fraction: 0 }, 400, /fraction: expected a number in \(0, 1\]/],
    [CHANGE, { fraction: "1%" }, 400, /fraction/],
    [CHANGE, { entity_ids: ["E1", "nope"] }, 400, /not in portfolio "changing": nope/],
    [CHANGE, { entity_ids: [] }, 400, /non-empty list/],
    ["/__emulator/portfolios/no-such/change-data", { fraction: 0.5 }, 404, /portfolio "no-such" not found/],
  ];
  for (const [path, json, status, message] of refusals) {
    const answer = await call(emu, "POST", path, { json });
    expect({ json, status: answer.status }).toEqual({ json, status });
    expect(answer.body.errors.join(" ")).toMatch(message);
  }
  const after = await readAll();
  expect(after.metadata).toEqual(before.metadata);
  expect(changedIds(before.summary, after.summary)).toEqual([]);
});

test("gated like the other control routes: not counted, not a method of the service, absent from its OpenAPI", async () => {
  await call(emu, "POST", "/__emulator/stats/reset");
  await call(emu, "POST", CHANGE, { json: { fraction: 0.05 } });
  expect((await call(emu, "GET", "/__emulator/stats")).body.total).toBe(0);
  expect((await call(emu, "GET", CHANGE)).status).toBe(405);
  const openapi = (await call(emu, "GET", "/swagger.json")).text;
  expect(openapi).not.toMatch(/change-data|__emulator/);
  // The service's own routes never reach it.
  expect((await call(emu, "POST", "/api/portfolios/changing/change-data", { json: { fraction: 1 } })).status).toBe(404);
});

test("a summary page asked again is the same bytes with the same headers, until an import replaces the assets or the data changes", async () => {
  await portfolioWith(emu, "repeated", spiralCsv(12));
  const R = "/api/portfolios/repeated/datasets/physical";
  const metadata = await call(emu, "GET", `${R}/`); // an object the server serialises itself
  for (const path of [`${R}/summary?extended=true&scenario=ssp585&rows=5&page=2`, `${R}/summary?window=30&rows=250`]) {
    const first = await call(emu, "GET", path);
    const again = await call(emu, "GET", path);
    expect(first.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(first.text).toBe(JSON.stringify(first.body)); // as the server's JSON serialiser writes it
    for (const header of ["content-type", "content-length"])
      expect(again.headers.get(header)).toBe(first.headers.get(header));
    expect(first.headers.get("content-type")).toBe(metadata.headers.get("content-type"));
  }
  const path = `${R}/summary?extended=true&scenario=ssp585&rows=250`;
  const before = await call(emu, "GET", path);
  // The same portfolio, other assets (an import replaces them): the page is theirs, names beyond
  // ASCII included (items are kept as UTF-8 bytes: the length says bytes, the text decodes whole).
  const imported = await call(emu, "POST", "/api/portfolios/repeated/assets/import/", {
    form: csvForm(spiralCsv(12).replace(/,Asset /g, ",Büro – Zürich 🌊 ")),
  });
  expect(imported.status).toBe(202);
  await waitAvailable(emu, "repeated");
  const after = await call(emu, "GET", path);
  expect(after.text).not.toBe(before.text);
  expect((after.body as Array<{ entity_name: string }>).map((a) => a.entity_name)).toEqual(
    Array.from({ length: 12 }, (_, i) => `Büro – Zürich 🌊 ${i}`),
  );
  expect(after.text).toBe(JSON.stringify(after.body));
  expect(Number(after.headers.get("content-length"))).toBe(Buffer.byteLength(after.text));
});

test("after a change, a page made of kept items and recomputed ones is the page a fresh emulator computes", async () => {
  const R = "/api/portfolios/kept/datasets/physical/summary";
  const pages = [`${R}?extended=true&scenario=ssp245&rows=250`, `${R}?rows=250&page=2`, `${R}?hazard=cyclone&rows=9`];
  const fresh = await startTestEmulator();
  try {
    await portfolioWith(emu, "kept", spiralCsv(30));
    await portfolioWith(fresh, "kept", spiralCsv(30));
    for (const path of pages) await call(emu, "GET", path); // every item kept before the change
    for (const server of [emu, fresh])
      expect(
        (await call(server, "POST", "/__emulator/portfolios/kept/change-data", { json: { entity_ids: ["E4"] } }))
          .status,
      ).toBe(200);
    for (const path of pages) {
      const kept = await call(emu, "GET", path);
      const computed = await call(fresh, "GET", path);
      expect(kept.status).toBe(200);
      expect(kept.text).toBe(computed.text);
    }
  } finally {
    await fresh.close();
  }
});
