import { RiskClient } from "../../../../src/api/client";
import { ServerError } from "../../../../src/api/errors";
import { RISK_DATA_AVAILABLE } from "../../../../src/api/types";
import {
  listWorkbookTables,
  selectProblemCell,
  syncRangeToPortfolio,
  type ReplaceQuestion,
  type SyncStep,
} from "../../../../src/taskpane/features/sync/sync-actions";
import { CancelledError, StepError } from "../../../../src/taskpane/ui/pane-types";
import { syncedRangesOf } from "../../../../src/taskpane/ui/asset-source-actions";
import {
  countRequests,
  newWorkbook,
  syncSelection,
  startPaneTestService,
  usePaneTestService,
  userSheetsOf,
} from "../../support";
import { emulatorStats, routeCount, type EmulatorStats } from "../../../support/emulator";
import { englishTranslator } from "../../../../src/i18n/translator";
import { wordsOf } from "../../../../src/taskpane/ui/i18n";

/**
 * "Sync a range to a portfolio" end to end: the fake workbook holds the range, the emulator is
 * the service over HTTP. The sheet is compared before and after every sync: a sync never changes it.
 */

const service = usePaneTestService({ processingDelayMs: 50 });
beforeEach(() => service.emulator.reset());

const SITES = [
  ["Site ID", "Name", "Latitude", "Lon", "Country", "label:tier"],
  ["S-1", "London depot", 51.5074, -0.1278, "GB", "gold"],
  ["S-2", 'Paris, "Nord" hub', 48.8566, 2.3522, "FR", "silver"],
  ["S-3", "Lagos port", 6.5244, 3.3792, "NG", "gold"],
];

function workbookWithSites(values: unknown[][] = SITES, sheet = "Sites") {
  const wb = newWorkbook({ firstSheetName: sheet });
  const last = String.fromCharCode(64 + values[0].length);
  wb.fake.setValues(sheet, `A1:${last}${values.length}`, values);
  wb.fake.setSelection(sheet, `A1:${last}${values.length}`);
  return wb;
}

/**
 * No sync request reached the service: no existence check, no create, no upload. (Read-ahead
 * pages of an earlier test, aborted on the client, may still arrive: those are asset-list GETs.)
 */
function expectNothingSent(stats: EmulatorStats): void {
  expect(routeCount(stats, "GET /api/portfolios/:portfolio_name")).toBe(0);
  expect(countRequests(stats, "POST ")).toBe(0);
}

const never = async (): Promise<boolean> => {
  throw new Error("confirmReplace must not be asked");
};

test("a selection becomes a new portfolio with risk data; the sheet is unchanged; a second sync uploads nothing", async () => {
  const { fake, run } = workbookWithSites();
  const before = userSheetsOf(fake);
  const messages: string[] = [];
  const result = await syncSelection(service, run, {
    portfolio: "my_sites",
    confirmReplace: never,
    pollIntervalMs: 20,
    onProgress: (p) => messages.push(wordsOf(englishTranslator, p.message)),
  });
  expect(result).toMatchObject({
    outcome: "synced",
    portfolio: "my_sites",
    assetCount: 3,
    created: true,
    uploaded: true,
    address: "Sites!A1:F4",
  });
  expect(userSheetsOf(fake)).toEqual(before);
  expect(await syncedRangesOf(run, "my_sites")).toEqual(["Sites!A1:F4"]); // recorded in the workbook, for the map
  expect(messages.some((m) => m.startsWith("Creating portfolio my_sites"))).toBe(true);
  expect(messages.some((m) => m.startsWith("Uploading 3 assets"))).toBe(true);

  const portfolio = await service.client.portfolios.get("my_sites");
  expect(portfolio.status).toBe(RISK_DATA_AVAILABLE);
  const assets = await service.client.portfolios.assets("my_sites").all();
  expect(assets.map((a) => [a.entity_id, a.entity_name, a.lat, a.lng, a.labels])).toEqual([
    ["S-1", "London depot", 51.5074, -0.1278, { country: "GB", tier: "gold" }],
    ["S-2", 'Paris, "Nord" hub', 48.8566, 2.3522, { country: "FR", tier: "silver" }],
    ["S-3", "Lagos port", 6.5244, 3.3792, { country: "NG", tier: "gold" }],
  ]);

  const again = await syncSelection(service, run, {
    portfolio: "my_sites",
    confirmReplace: never,
    pollIntervalMs: 20,
  });
  expect(again).toMatchObject({ outcome: "synced", created: false, uploaded: false });
  expect(
    countRequests(await emulatorStats(service.emulator), "POST /api/portfolios/:portfolio_name/assets/import"),
  ).toBe(1);
  expect(userSheetsOf(fake)).toEqual(before);
});

test("a bad range lists every problem with its cell and sends nothing; a click selects the cell", async () => {
  const { fake, run } = workbookWithSites([
    ["entity_id", "entity_name", "lat", "lng"],
    ["A", "ok", 10, 20],
    ["A", "duplicate id", 11, 21],
    ["C", "lat too big", 91, 22],
    ["D", "text lng", 12, "east"],
    ["E", "blank lat", "", 23],
  ]);
  const before = userSheetsOf(fake);
  const result = await syncSelection(service, run, {
    portfolio: "bad_sites",
    confirmReplace: never,
  });
  expect(result.outcome).toBe("invalid");
  const problems = result.outcome === "invalid" ? result.problems : [];
  const cells = problems.map((p) => p.cell);
  expect(cells).toEqual(expect.arrayContaining(["A3", "C4", "D5", "C6"]));
  for (const p of problems) expect(p.address).toMatch(/^Sites!/);
  expectNothingSent(await emulatorStats(service.emulator));
  expect(userSheetsOf(fake)).toEqual(before);

  const lat = problems.find((p) => p.cell === "C4")!;
  await selectProblemCell(run, lat.address);
  expect(fake.selectionAddress()).toBe("Sites!C4");
});

test("a named table is a source too, and the table list offers it", async () => {
  const { fake, run } = workbookWithSites();
  await run(async (context) => {
    const table = context.workbook.tables.add("Sites!A1:F4", true);
    table.name = "SiteTable";
    await context.sync();
  });
  fake.setSelection("Sites", "H10");
  expect(await listWorkbookTables(run)).toEqual([{ name: "SiteTable", sheetName: "Sites" }]);
  const result = await syncRangeToPortfolio({
    client: service.client,
    run,
    source: { kind: "table", name: "SiteTable" },
    portfolio: "from_table",
    confirmReplace: never,
    pollIntervalMs: 20,
  });
  expect(result).toMatchObject({ outcome: "synced", assetCount: 3 });
  await expect(
    syncRangeToPortfolio({
      client: service.client,
      run,
      source: { kind: "table", name: "Nope" },
      portfolio: "x",
      confirmReplace: never,
    }),
  ).rejects.toThrow(/no table named "Nope"/);
});

test("replacing a non-empty portfolio is asked first; declining uploads nothing and keeps its assets", async () => {
  const { run } = workbookWithSites();
  const before = await service.client.portfolios.assets("demo-portfolio").all();
  const questions: ReplaceQuestion[] = [];
  const result = await syncSelection(service, run, {
    portfolio: "demo-portfolio",
    confirmReplace: async (q) => (questions.push(q), false),
  });
  expect(result.outcome).toBe("declined");
  expect(questions).toEqual([
    expect.objectContaining({ portfolio: "demo-portfolio", existingCount: before.length, newCount: 3 }),
  ]);
  expect(await service.client.portfolios.assets("demo-portfolio").all()).toEqual(before);
  expect(countRequests(await emulatorStats(service.emulator), "assets/import")).toBe(0);

  const accepted = await syncSelection(service, run, {
    portfolio: "demo-portfolio",
    confirmReplace: async () => true,
    pollIntervalMs: 20,
  });
  expect(accepted).toMatchObject({ outcome: "synced", uploaded: true });
  expect((await service.client.portfolios.assets("demo-portfolio").all()).length).toBe(3);
});

/** A client whose first request matching `method` + `path` gets a 500, as a failing service would answer. */
function clientFailingOnce(method: string, path: RegExp): RiskClient {
  let failed = false;
  const failing: typeof fetch = async (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init);
    if (!failed && request.method === method && path.test(new URL(request.url).pathname)) {
      failed = true;
      return new Response(JSON.stringify({ errors: ["injected failure"] }), {
        status: 500,
        headers: { "content-type": "application/json" },
      });
    }
    return fetch(request);
  };
  return new RiskClient(service.connection, { fetch: failing, maxRetries: 0 });
}

test.each<[SyncStep, string, RegExp]>([
  ["create", "POST", /^\/api\/portfolios\/?$/],
  ["upload", "POST", /\/assets\/import\/?$/],
  ["poll", "GET", /^\/api\/portfolios\/retry_me\/?$/],
])(
  "a failure while %s names that step, leaves the sheet as it was, and a retry ends in the same portfolio without duplicates",
  async (step, method, path) => {
    const { fake, run } = workbookWithSites();
    const before = userSheetsOf(fake);
    // The first GET of the portfolio is the existence check; fail the one after the upload for "poll".
    const failingClient = step === "poll" ? clientFailingAfterUpload() : clientFailingOnce(method, path);
    const error = await syncRangeToPortfolio({
      client: failingClient,
      run,
      source: { kind: "selection" },
      portfolio: "retry_me",
      confirmReplace: never,
      pollIntervalMs: 20,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StepError);
    expect((error as StepError).step).toBe(step);
    expect((error as StepError).cause).toBeInstanceOf(ServerError);
    expect(fake.snapshot()).toEqual(before); // nothing at all, not even a record of where the assets are

    const retried = await syncSelection(service, run, {
      portfolio: "retry_me",
      confirmReplace: never,
      pollIntervalMs: 20,
    });
    expect(retried.outcome).toBe("synced");
    const assets = await service.client.portfolios.assets("retry_me").all();
    expect(assets.map((a) => a.entity_id)).toEqual(["S-1", "S-2", "S-3"]);
    expect((await service.client.portfolios.list()).filter((p) => p.portfolio_name === "retry_me")).toHaveLength(1);
    expect(userSheetsOf(fake)).toEqual(before);
  },
);

/** Fails the first status read that follows the upload. */
function clientFailingAfterUpload(): RiskClient {
  let uploaded = false;
  let failed = false;
  const failing: typeof fetch = async (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const path = new URL(request.url).pathname;
    if (request.method === "POST" && /assets\/import/.test(path)) uploaded = true;
    else if (uploaded && !failed && request.method === "GET" && /^\/api\/portfolios\/retry_me\/?$/.test(path)) {
      failed = true;
      return new Response(JSON.stringify({ errors: ["injected failure"] }), {
        status: 503,
        headers: { "content-type": "application/json" },
      });
    }
    return fetch(request);
  };
  return new RiskClient(service.connection, { fetch: failing, maxRetries: 0 });
}

test("an invalid portfolio name is refused before anything is sent", async () => {
  const { run } = workbookWithSites();
  await expect(
    syncSelection(service, run, {
      portfolio: "my sites",
      confirmReplace: never,
    }),
  ).rejects.toThrow(/Portfolio name/);
  expectNothingSent(await emulatorStats(service.emulator));
});

test("Cancel while waiting for risk data stops waiting and says the upload happened", async () => {
  const slow = await startPaneTestService({ processingDelayMs: 60_000 });
  try {
    const { run } = workbookWithSites();
    const controller = new AbortController();
    const result = syncRangeToPortfolio({
      client: slow.client,
      run,
      source: { kind: "selection" },
      portfolio: "slow_one",
      confirmReplace: never,
      pollIntervalMs: 20,
      signal: controller.signal,
      onProgress: (p) => {
        if (wordsOf(englishTranslator, p.message).startsWith("Generating risk data")) controller.abort();
      },
    });
    const error = await result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CancelledError);
    expect((error as Error).message).toMatch(/assets are uploaded/);
  } finally {
    await slow.emulator.close();
  }
});
