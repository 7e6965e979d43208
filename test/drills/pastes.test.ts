/**
 * Drill: every paste (timeseries, applied layer, summary, export unpack, nature summary) either
 * completes with every row or leaves no new sheet, whatever fails: a workbook sync at each point
 * of the write (rejected outright, or half applied), the service at each request (503, reset,
 * stall), or the user's Cancel at each progress report. The user's sheets are never touched.
 */
import { PROVENANCE_STORE_SHEET, SOURCES_SHEET } from "../../src/shaping/paste-provenance";
import { WRITTEN_STORE_PREFIX } from "../../src/excel/written-store";
import { RiskClient } from "../../src/api";
import { pasteAppliedLayer } from "../../src/taskpane/features/layer/applied-layer-actions";
import { downloadExport, unpackExport, type DownloadedExport } from "../../src/taskpane/features/export/export-actions";
import { pasteSubprojectSummary } from "../../src/taskpane/features/nature/nature-actions";
import { pasteSummary } from "../../src/taskpane/features/summary/summary-actions";
import { pasteTimeseries } from "../../src/taskpane/features/timeseries/timeseries-actions";
import { CancelledError, type ExcelRunner, type LongRunning, type PastedSheet } from "../../src/taskpane/ui/pane-types";
import { createFakeExcel, type FakeExcel, type WorkbookSnapshot } from "../../testing/fake-excel";
import { recordFigures } from "./support/figures";
import { type TestService, startTestService } from "../support/emulator";

const PORTFOLIO = "demo-portfolio";
/** The provenance store and the Sources sheet: written with a paste, gone with a failed one. */
const PROVENANCE_SHEETS = new Set([PROVENANCE_STORE_SHEET, SOURCES_SHEET]);
/** The records of what each paste wrote (very hidden, one per keyed table): also gone with a failed paste. */
const isWrittenRecord = (name: string) => name.startsWith(WRITTEN_STORE_PREFIX);
const isRecordSheet = (name: string) => PROVENANCE_SHEETS.has(name) || isWrittenRecord(name);
let service: TestService;
let client: RiskClient;
let exported: DownloadedExport;
let subproject: { id: string; name: string };

beforeAll(async () => {
  service = await startTestService();
  client = service.client;
  exported = await downloadExport(client, PORTFOLIO);
  const [first] = await client.nature.subprojects("nc-demo");
  subproject = { id: first.id, name: first.name };
});
afterAll(() => service.close());

/** A paste as the task pane runs it, against a given client and workbook. */
type Paste = (client: RiskClient, run: ExcelRunner, options: LongRunning) => Promise<PastedSheet[]>;

const PASTES: Record<string, Paste> = {
  timeseries: (c, run, o) =>
    pasteTimeseries({
      client: c,
      run,
      portfolio: PORTFOLIO,
      filters: { hazard: "wildfire", scenario: "ssp585", measure: "mid" },
      chartAssets: [0, 1],
      rows: 50,
      ...o,
    }).then((r) => r.sheets),
  "applied layer": (c, run, o) =>
    pasteAppliedLayer({ client: c, run, vectorId: 1, vectorName: "demo-losses", portfolio: PORTFOLIO, ...o }).then(
      (r) => [r],
    ),
  summary: (c, run, o) => pasteSummary({ client: c, run, portfolio: PORTFOLIO, scenario: "ssp585", ...o }),
  // The download is the service part; a fault there is covered by downloadExport below.
  "export unpack": (_c, run, o) => unpackExport({ run, download: exported, ...o }),
  "nature summary": (c, run, o) => pasteSubprojectSummary({ client: c, run, subproject, ...o }).then((r) => [r]),
};

/**
 * A workbook with the user's own content: values, a formula, a merge, a table, and a sheet whose name a paste wants.
 */
function userWorkbook(): FakeExcel {
  const fake = createFakeExcel({ firstSheetName: "Sites" });
  fake.setValues("Sites", "A1:C3", [
    ["id", "name", "value"],
    ["S-1", '=HYPERLINK("x")', 12.5],
    ["S-2", "Zürich", 7],
  ]);
  fake.setValues("Sites", "E1:E1", [["=SUM(C2:C3)"]]);
  fake.merge("Sites", "G1:H2");
  fake.addSheet("TS demo-portfolio");
  fake.setValues("TS demo-portfolio", "A1:A2", [["my own notes"], [42]]);
  return fake;
}

/** The cells of a sheet with sheet-local addresses, to compare sheets made under different names. */
function contentOf(sheet: WorkbookSnapshot["sheets"][number]): unknown[] {
  return sheet.cells.map(([address, ...rest]) => [address.replace(/^.*!/, ""), ...rest]);
}

interface Reference {
  /** Per new sheet: rows, and cell content. */
  sheets: Array<{ rowCount: number; content: unknown[] }>;
  syncs: number;
  requests: number;
  progressReports: number;
}

const references = new Map<string, Reference>();
const figures: Record<string, Record<string, number>> = {};
afterAll(() => recordFigures("pastes", figures));

/**
 * Checks the invariant after one attempt: the user's sheets are as before, and either the attempt
 * completed with exactly the reference sheets, or it failed and the workbook is exactly as before.
 */
function expectWholeOrAbsent(
  name: string,
  fake: FakeExcel,
  before: WorkbookSnapshot,
  outcome: { ok: true; sheets: PastedSheet[] } | { ok: false; error: unknown },
): "complete" | "absent" {
  const after = fake.snapshot();
  const reference = references.get(name)!;
  const beforeNames = new Set(before.sheets.map((s) => s.name));
  for (const sheet of before.sheets) expect(after.sheets.find((s) => s.name === sheet.name)).toEqual(sheet);
  for (const table of before.tables) expect(after.tables).toContainEqual(table);
  if (outcome.ok) {
    const added = after.sheets.filter((s) => !beforeNames.has(s.name) && !isRecordSheet(s.name));
    expect(added.map(contentOf)).toEqual(reference.sheets.map((s) => s.content));
    expect(outcome.sheets.map((s) => s.rowCount)).toEqual(reference.sheets.map((s) => s.rowCount));
    return "complete";
  }
  expect(outcome.error).toBeInstanceOf(Error);
  expect((outcome.error as Error).message.length).toBeGreaterThan(5);
  expect(after).toEqual(before);
  return "absent";
}

async function attempt(paste: Paste, c: RiskClient, run: ExcelRunner, options: LongRunning = {}) {
  try {
    return { ok: true as const, sheets: await paste(c, run, options) };
  } catch (error) {
    return { ok: false as const, error };
  }
}

/** The list a paged request reads (its URL without `page`) and the page, or undefined when not paged. */
function pageOf(url: string): { list: string; page: number; rows: number } | undefined {
  const parsed = new URL(url);
  const page = Number(parsed.searchParams.get("page"));
  if (!page) return undefined;
  const rows = Number(parsed.searchParams.get("rows") ?? 0);
  parsed.searchParams.delete("page");
  return { list: parsed.toString(), page, rows };
}

/**
 * A client whose n-th request (1-based) fails as `how`; the others go to the emulator. It records
 * whether the failed request was a read-ahead past the end of its list (a page after one that came
 * back short in the same run): the reader drops such a page by design, so losing it loses nothing.
 */
function clientFailingAt(
  n: number,
  how: "503" | "reset",
): { client: RiskClient; failedPastEnd: () => boolean; injected: () => boolean } {
  let count = 0;
  let failed: ReturnType<typeof pageOf>;
  const shortPage = new Map<string, number>();
  const failing: typeof fetch = async (input, init) => {
    count++;
    const url = input instanceof Request ? input.url : String(input);
    if (count === n) {
      failed = pageOf(url);
      if (how === "503")
        return new Response(JSON.stringify({ errors: ["injected"] }), {
          status: 503,
          headers: { "content-type": "application/json" },
        });
      throw new TypeError("fetch failed: socket hang up (injected)");
    }
    const response = await fetch(input, init);
    const paged = pageOf(url);
    if (!paged || !response.ok) return response;
    // Read the page here to see whether it is short, and hand on an equal answer.
    const text = await response.text();
    // A page of the service's lists is a bare array (src/api/resources/datasets.ts).
    const items = (JSON.parse(text) as unknown[]).length;
    if (items < paged.rows) shortPage.set(paged.list, Math.min(paged.page, shortPage.get(paged.list) ?? Infinity));
    return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  return {
    client: new RiskClient(service.connection, { fetch: failing, maxRetries: 0, timeoutMs: 5_000 }),
    failedPastEnd: () => failed !== undefined && failed.page > (shortPage.get(failed.list) ?? Infinity),
    injected: () => count >= n,
  };
}

describe.each(Object.keys(PASTES))("%s", (name) => {
  const paste = PASTES[name];

  test("a clean paste adds its sheets with every row and leaves the user's sheets alone", async () => {
    const fake = userWorkbook();
    const before = fake.snapshot();
    let requests = 0;
    const counting = new RiskClient(service.connection, {
      maxRetries: 0,
      onRequest: () => requests++,
    });
    let progressReports = 0;
    const syncsBefore = fake.syncCount;
    const sheets = await paste(counting, (b) => fake.run(b), { onProgress: () => progressReports++ });
    const after = fake.snapshot();
    const added = after.sheets.filter((s) => !before.sheets.some((b) => b.name === s.name) && !isRecordSheet(s.name));
    expect(added.map((s) => s.name)).toEqual(sheets.map((s) => s.sheetName));
    // Every paste but the export unpack (given no client here) records its provenance.
    if (name !== "export unpack")
      expect(after.sheets.filter((s) => PROVENANCE_SHEETS.has(s.name)).map((s) => s.name)).toEqual([
        PROVENANCE_STORE_SHEET,
        SOURCES_SHEET,
      ]);
    // The record of what each keyed sheet was written with is kept out of sight.
    for (const s of after.sheets.filter((x) => isWrittenRecord(x.name))) expect(s.visibility).toBe("VeryHidden");
    for (const [i, sheet] of sheets.entries()) {
      expect(sheet.rowCount).toBeGreaterThan(0);
      // Header + every row: the last row's first cell is filled, nothing below it.
      expect(fake.usedAddress(sheet.sheetName)).toMatch(new RegExp(`![A-Z]+1:[A-Z]+${sheet.rowCount + 1}$`));
      expect(added[i].visibility).toBe("Visible");
    }
    await expectRowsMatchService(name, sheets);
    for (const sheet of before.sheets) expect(after.sheets.find((s) => s.name === sheet.name)).toEqual(sheet);
    references.set(name, {
      sheets: sheets.map((s, i) => ({ rowCount: s.rowCount, content: contentOf(added[i]) })),
      syncs: fake.syncCount - syncsBefore,
      requests,
      progressReports,
    });
    figures[name] = {
      rows: sheets.reduce((n, s) => n + s.rowCount, 0),
      syncs: fake.syncCount - syncsBefore,
      requests,
      progressReports,
    };
  });

  test("a failing workbook sync at every point of the write leaves the whole paste or nothing", async () => {
    const reference = references.get(name)!;
    const outcomes = { complete: 0, absent: 0 };
    const points = spread(reference.syncs, 8);
    for (const k of points) {
      for (const fault of [{}, { applyFirst: 1 }]) {
        const fake = userWorkbook();
        const before = fake.snapshot();
        fake.failSync(k, fault);
        const outcome = await attempt(paste, client, (b) => fake.run(b));
        outcomes[expectWholeOrAbsent(name, fake, before, outcome)]++;
      }
    }
    // Every sync of the write matters: each injected failure made the paste leave nothing.
    expect(outcomes.absent).toBe(2 * points.length);
    figures[name].workbookFaultsInjected = 2 * points.length;
  });

  test("a service failure at any request leaves no new sheet", async () => {
    const reference = references.get(name)!;
    if (reference.requests === 0) return; // export unpack works from a download already made
    let absent = 0;
    for (let n = 1; n <= reference.requests; n++) {
      for (const how of ["503", "reset"] as const) {
        const fake = userWorkbook();
        const before = fake.snapshot();
        const failing = clientFailingAt(n, how);
        const outcome = await attempt(paste, failing.client, (b) => fake.run(b));
        // Whole or absent, always. A failed request the paste needs leaves nothing; a page read
        // ahead past the list's end may fail unseen (the reader drops it unless it failed before the
        // short page came), and a run may read ahead less than the reference did (no n-th request).
        const result = expectWholeOrAbsent(name, fake, before, outcome);
        if (failing.injected() && !failing.failedPastEnd()) expect(result).toBe("absent");
        if (result === "absent") absent++;
      }
    }
    // The first request is always needed: its failure at least left nothing.
    expect(absent).toBeGreaterThanOrEqual(2);
    figures[name].serviceFaultsInjected = 2 * reference.requests;
  });

  test("Cancel at any progress report leaves the whole paste or nothing (a CancelledError)", async () => {
    const reference = references.get(name)!;
    const outcomes = { complete: 0, absent: 0 };
    for (let j = 0; j < reference.progressReports; j++) {
      const fake = userWorkbook();
      const before = fake.snapshot();
      const controller = new AbortController();
      let reports = 0;
      const outcome = await attempt(paste, client, (b) => fake.run(b), {
        signal: controller.signal,
        onProgress: () => {
          if (reports++ === j) controller.abort();
        },
      });
      const result = expectWholeOrAbsent(name, fake, before, outcome);
      if (result === "absent") expect((outcome as { error: unknown }).error).toBeInstanceOf(CancelledError);
      outcomes[result]++;
    }
    // Cancel before anything was written always wins.
    expect(outcomes.absent).toBeGreaterThan(0);
    figures[name].cancelPoints = reference.progressReports;
    figures[name].cancelledToNothing = outcomes.absent;
  });
});

/** Row counts of the clean pastes against what the service holds (read directly with the client). */
async function expectRowsMatchService(name: string, sheets: PastedSheet[]): Promise<void> {
  switch (name) {
    case "timeseries": {
      const items = await client.datasets
        .items(PORTFOLIO, { hazard: "wildfire", scenario: "ssp585", measure: "mid" })
        .all();
      // Projected and observed series in their own sheets: together every item, once.
      expect(sheets.reduce((n, s) => n + s.rowCount, 0)).toBe(items.length);
      return;
    }
    case "applied layer": {
      const applied = await client.compositions.applyVector(1, PORTFOLIO);
      expect(sheets[0].rowCount).toBe(applied.csv.trim().split(/\r?\n/).length - 1);
      return;
    }
    case "summary": {
      const extended = await client.datasets.extendedSummary(PORTFOLIO, { scenario: "ssp585" }).all();
      expect(sheets).toHaveLength(2);
      expect(sheets[1].rowCount).toBe(extended.length);
      return;
    }
    case "nature summary": {
      const summary = await client.nature.exportSubproject(subproject.id);
      expect(sheets[0].rowCount).toBe(Object.keys(summary.summary).length + Object.keys(summary.metadata).length);
      return;
    }
    case "export unpack":
      expect(sheets.length).toBeGreaterThan(0);
      return;
  }
}

test("a failed export download says why and writes nothing (it never touches the workbook)", async () => {
  for (const how of ["503", "reset"] as const) {
    const error = await downloadExport(clientFailingAt(1, how).client, PORTFOLIO).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(how === "503" ? /HTTP 503/ : /could not reach/);
  }
});

/** Up to `max` sync numbers from 1..n: the first three, the last two, and evenly between. */
function spread(n: number, max: number): number[] {
  if (n <= max) return Array.from({ length: n }, (_, i) => i + 1);
  const picks = new Set([1, 2, 3, n - 1, n]);
  for (let i = 1; picks.size < max; i++) picks.add(Math.round((i * n) / (max - 4)));
  return [...picks].filter((k) => k >= 1 && k <= n).sort((a, b) => a - b);
}
