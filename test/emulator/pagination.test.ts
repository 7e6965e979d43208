/**
 * Pagination exactly as docs/service.md#pagination says: page from 1, rows default 50 and 1..250, a short page
 * ends the list (0 items, exactly rows, 120 items → 50, 50, 20).
 */
import { call, portfolioWith, spiralCsv } from "./helpers";
import { useTestEmulator } from "../support/emulator";

const emu = useTestEmulator();
beforeAll(async () => {
  await portfolioWith(emu, "p120", spiralCsv(120));
  await portfolioWith(emu, "p50", spiralCsv(50));
  await call(emu, "POST", "/api/portfolios/", { json: { portfolio_name: "empty" } });
});

async function walk(path: string, rows?: number): Promise<number[]> {
  const sizes: number[] = [];
  for (let page = 1; page < 20; page++) {
    const r = await call(emu, "GET", `${path}?page=${page}${rows ? `&rows=${rows}` : ""}`);
    expect(r.status).toBe(200);
    sizes.push(r.body.length);
    if (r.body.length < (rows ?? 50)) break;
  }
  return sizes;
}

test("120 assets with rows 50 → 50, 50, 20, in portfolio_index order", async () => {
  expect(await walk("/api/portfolios/p120/assets", 50)).toEqual([50, 50, 20]);
  const p3 = await call(emu, "GET", "/api/portfolios/p120/assets?page=3&rows=50");
  expect(p3.body.map((a: { portfolio_index: number }) => a.portfolio_index)).toEqual(
    Array.from({ length: 20 }, (_, i) => 100 + i),
  );
});

test("rows defaults to 50; exactly rows items → a full page then an empty page", async () => {
  expect(await walk("/api/portfolios/p50/assets")).toEqual([50, 0]);
});

test("0 items → one empty page, also for datasets of a portfolio without assets", async () => {
  expect(await walk("/api/portfolios/empty/assets")).toEqual([0]);
  expect(await walk("/api/portfolios/empty/datasets/physical/items")).toEqual([0]);
  expect(await walk("/api/portfolios/empty/datasets/physical/summary")).toEqual([0]);
  expect((await call(emu, "GET", "/api/portfolios/empty/")).body.status).toBe("No assets");
});

test("summary and items page through every row without gaps", async () => {
  // 120 assets × 3 scenarios × 3 windows = 1,080 summary items.
  const sizes = await walk("/api/portfolios/p120/datasets/physical/summary", 250);
  expect(sizes).toEqual([250, 250, 250, 250, 80]);
  const a = await call(emu, "GET", "/api/portfolios/p120/datasets/physical/items?hazard=wildfire&rows=7&page=2");
  const b = await call(emu, "GET", "/api/portfolios/p120/datasets/physical/items?hazard=wildfire&rows=14&page=1");
  expect(a.body).toEqual(b.body.slice(7));
});

test.each([
  ["rows=251", "rows"],
  ["rows=0", "rows"],
  ["rows=2.5", "rows"],
  ["rows=abc", "rows"],
  ["page=0", "page"],
  ["page=-1", "page"],
  ["page=1.5", "page"],
])("%s → 400 naming %s", async (q, name) => {
  const r = await call(emu, "GET", `/api/portfolios/p120/assets?${q}`);
  expect(r.status).toBe(400);
  expect(r.body.errors[0]).toMatch(new RegExp(`^${name}`));
});

test("rows=250 is allowed", async () => {
  expect((await call(emu, "GET", "/api/portfolios/p120/assets?rows=250")).body).toHaveLength(120);
});
