/**
 * Drill: a sync that fails at any step (check, create, upload, status polling), in any way (503,
 * connection reset, an answer lost after the service acted, no answer in time), names the step,
 * leaves the sheet untouched, and a plain retry ends in the same portfolio as a clean run: same
 * assets, one portfolio, no duplicates, and never a "replace?" question about its own half-sync.
 */
import { RiskClient, type Asset } from "../../src/api";
import type { SyncStep } from "../../src/taskpane/features/sync/sync-actions";
import { StepError, type ExcelRunner } from "../../src/taskpane/ui/pane-types";
import { createFakeExcel } from "../../testing/fake-excel";
import { syncSelection, userSheetsOf } from "../taskpane/support";
import { recordFigures } from "./support/figures";
import { type TestService, startTestService } from "../support/emulator";

let service: TestService;
let client: RiskClient;
let cleanAssets: Array<Omit<Asset, "portfolio_name">>;

const SITES = [
  ["entity_id", "entity_name", "lat", "lng", "label:country", "label:tier"],
  ["S-1", "London depot", 51.5074, -0.1278, "GB", "gold"],
  ["S-2", 'Paris, "Nord" hub', 48.8566, 2.3522, "FR", "silver"],
  ["S-3", "Lagos port", 6.5244, 3.3792, "NG", "gold"],
  ["S-4", "Zürich Lager", 47.3769, 8.5417, "CH", "bronze"],
];

function workbook() {
  const fake = createFakeExcel({ firstSheetName: "Sites" });
  fake.setValues("Sites", "A1:F5", SITES);
  fake.setSelection("Sites", "A1:F5");
  return { fake, run: ((batch) => fake.run(batch)) as ExcelRunner };
}

const never = async (): Promise<boolean> => {
  throw new Error("confirmReplace must not be asked: the portfolio holds nothing or exactly these assets");
};

/** The pane's sync of the workbook's selection into this portfolio, polling fast; it is never asked to replace. */
const syncInto = (through: RiskClient, run: ExcelRunner, portfolio: string) =>
  syncSelection({ client: through }, run, { portfolio, confirmReplace: never, pollIntervalMs: 10 });

const withoutName = (assets: Asset[]) => assets.map(({ portfolio_name: _name, ...rest }) => rest);

beforeAll(async () => {
  service = await startTestService({ processingDelayMs: 30 });
  client = service.client;
  const { run } = workbook();
  const result = await syncInto(client, run, "clean_run");
  expect(result.outcome).toBe("synced");
  cleanAssets = withoutName(await client.portfolios.assets("clean_run").all());
  expect(cleanAssets).toHaveLength(4);
});
afterAll(() => service.close());

type FailureKind = "503" | "reset" | "answer lost" | "no answer";

/** Which request belongs to which step of a sync of `portfolio`. */
function stepOf(method: string, path: string, portfolio: string, uploaded: boolean): SyncStep | undefined {
  if (method === "POST" && /^\/api\/portfolios\/?$/.test(path)) return "create";
  if (method === "POST" && /\/assets\/import\/?$/.test(path)) return "upload";
  if (method === "GET" && new RegExp(`^/api/portfolios/${portfolio}/?$`).test(path)) return uploaded ? "poll" : "check";
  return undefined;
}

/** A client whose first request of `step` fails as `kind`; every other request reaches the emulator. */
function clientFailing(step: SyncStep, kind: FailureKind, portfolio: string): RiskClient {
  let uploaded = false;
  let failed = false;
  const fetchWithFault: typeof fetch = async (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const path = new URL(request.url).pathname;
    const thisStep = stepOf(request.method, path, portfolio, uploaded);
    if (thisStep === "upload") uploaded = true;
    if (failed || thisStep !== step) return fetch(request);
    failed = true;
    switch (kind) {
      case "503":
        return new Response(JSON.stringify({ errors: ["injected outage"] }), {
          status: 503,
          headers: { "content-type": "application/json" },
        });
      case "reset":
        throw new TypeError("fetch failed: ECONNRESET (injected)");
      case "answer lost":
        await (await fetch(request)).arrayBuffer(); // the service acted ...
        throw new TypeError("fetch failed: socket hang up (injected)"); // ... but its answer never arrived
      case "no answer":
        return new Promise<Response>((_, reject) =>
          request.signal.addEventListener("abort", () => reject(request.signal.reason), { once: true }),
        );
    }
  };
  return new RiskClient(service.connection, { fetch: fetchWithFault, maxRetries: 0, timeoutMs: 300 });
}

const STEPS: SyncStep[] = ["check", "create", "upload", "poll"];
const KINDS: FailureKind[] = ["503", "reset", "answer lost", "no answer"];
const CASES = STEPS.flatMap((step) => KINDS.map((kind) => [step, kind] as [SyncStep, FailureKind]));
const figures: Record<string, unknown> = { cases: CASES.length };
afterAll(() => recordFigures("sync-retries", figures));

test.each(CASES)(
  "a failure at %s (%s) names the step, leaves the sheet untouched, and a retry ends like a clean run",
  async (step, kind) => {
    const portfolio = `retry_${step}_${kind.replace(/\W+/g, "_")}`;
    const { fake, run } = workbook();
    const before = fake.snapshot();
    const error = await syncInto(clientFailing(step, kind, portfolio), run, portfolio).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StepError);
    expect((error as StepError).step).toBe(step);
    expect((error as Error).message).toMatch(
      /^(Checking the portfolio|Creating the portfolio|Uploading the assets|Waiting for risk data) failed: /,
    );
    expect(fake.snapshot()).toEqual(before);

    const retried = await syncInto(client, run, portfolio);
    expect(retried).toMatchObject({ outcome: "synced", assetCount: 4 });
    expect(withoutName(await client.portfolios.assets(portfolio).all())).toEqual(cleanAssets);
    expect((await client.portfolios.list()).filter((p) => p.portfolio_name === portfolio)).toHaveLength(1);
    expect(userSheetsOf(fake)).toEqual(before); // the successful retry adds only the record of where the assets are
    figures[`${step}/${kind}`] = { retryUploaded: retried.outcome === "synced" && retried.uploaded };
  },
);

test("retrying again after success changes nothing (no second upload, no duplicates)", async () => {
  await service.resetStats();
  const { run } = workbook();
  const again = await syncInto(client, run, "clean_run");
  expect(again).toMatchObject({ outcome: "synced", uploaded: false, created: false });
  const stats = await service.stats();
  expect(Object.keys(stats.routes).filter((r) => r.startsWith("POST "))).toEqual([]);
  expect(withoutName(await client.portfolios.assets("clean_run").all())).toEqual(cleanAssets);
});
