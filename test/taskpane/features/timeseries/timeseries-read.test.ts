import { RiskClient } from "../../../../src/api";
import { TIMESERIES_KIND } from "../../../../src/taskpane/features/timeseries/timeseries-kind";
import { RecordingServer, queryOf, sendJson } from "../../../support/recording-server";

/**
 * The timeseries paste's read, against a small server whose every page takes 100 ms: with the
 * catalog's estimate (expectedItems) its first pages are asked for together; without one, page 1
 * goes alone first (most lists fit in a page), costing a round trip before the rest.
 */

const SERIES = 10;
let server: RecordingServer;
let arrivals: Array<{ page: number; at: number }>;

beforeEach(async () => {
  arrivals = [];
  server = await new RecordingServer(async (req, res) => {
    const query = queryOf(req);
    const page = Number(query.get("page"));
    const rows = Number(query.get("rows"));
    arrivals.push({ page, at: performance.now() });
    await new Promise((r) => setTimeout(r, 100));
    const start = (page - 1) * rows;
    const items = Array.from({ length: Math.max(0, Math.min(rows, SERIES - start)) }, (_, i) => ({
      portfolio_index: start + i,
      hazard: "wildfire",
      risk_exposure: { "2030": 0.1, "2040": 0.2 },
    }));
    sendJson(res, 200, items);
  }).start();
});
afterEach(async () => server.close());

async function readAll(expectedItems: number | undefined): Promise<number> {
  const client = new RiskClient(
    { baseUrl: server.url, natureUrl: `${server.url}/nature`, apiKey: "k", project: "demo" },
    { maxRetries: 0 },
  );
  const stream = TIMESERIES_KIND.stream!(
    client,
    { portfolio: "p", filters: { hazard: "wildfire" } },
    { rows: 2, readAhead: 3, expectedItems },
  );
  let items = 0;
  await stream.read((page) => void (items += page.length));
  return items;
}

const secondPageDelay = () => arrivals.find((a) => a.page === 2)!.at - arrivals.find((a) => a.page === 1)!.at;

test("with the catalog's estimate, page 2 is asked for with page 1, not after its answer", async () => {
  expect(await readAll(SERIES)).toBe(SERIES);
  expect(secondPageDelay()).toBeLessThan(50);
});

test("without an estimate, page 1 goes alone first", async () => {
  expect(await readAll(undefined)).toBe(SERIES);
  expect(secondPageDelay()).toBeGreaterThanOrEqual(90);
});
