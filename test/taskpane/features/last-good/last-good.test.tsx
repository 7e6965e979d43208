import { FluentProvider, webLightTheme } from "@fluentui/react-components";
import { renderToString } from "react-dom/server";
import { RiskEngine } from "../../../../src/functions/engine/engine";
import { setDefaultEngine } from "../../../../src/functions/engine/default-engine";
import { LastGoodCache, MemoryStorage } from "../../../../src/functions/engine/last-good-cache";
import * as TypedRISK from "../../../../src/functions/functions";
import { createInvocation } from "../../../../testing/invocation";
import { retryStaleCells } from "../../../../src/taskpane/features/last-good/last-good-actions";
import { LastGoodPanel } from "../../../../src/taskpane/features/last-good/LastGoodPanel";
import { TaskpaneContext, type TaskpaneServices } from "../../../../src/taskpane/ui/services";
import { startFaultyServer, type FaultyServer } from "../../../support/faulty-server";
import { installCustomFunctionsStub } from "../../../functions/support/custom-functions-stub";
import { asExcelCalls } from "../../../functions/support/excel-calls";
import { newWorkbook } from "../../support";
import { TEST_IDS } from "../../../../src/taskpane/ui/test-ids";

/**
 * The task pane's "Last good values" section over HTTP: a service that starts failing (502 pages
 * from a gateway) puts the cells on the list with when their values were fetched; "Retry these"
 * recalculates them once it answers again, and the list empties.
 */

const RISK = asExcelCalls(TypedRISK);
let server: FaultyServer;
let engine: RiskEngine;
let uninstall: () => void;

/** A point search answer whose flood score is the latitude / 100 (so each cell has its own value). */
function searchBody(url: string): unknown {
  const lat = Number(new URL(url, "http://x").searchParams.get("lat"));
  const scores = [{ hazard: "floods", score: lat / 100, label: "LOW" }];
  const exposure = { "15yr": scores, "30yr": scores };
  return {
    type: "FeatureCollection",
    features: [
      {
        type: "Feature",
        geometry: { type: "Point", coordinates: [0, lat] },
        properties: { physical_risk_exposure: { local: exposure, background: exposure } },
      },
    ],
  };
}

beforeAll(async () => {
  uninstall = installCustomFunctionsStub();
  server = await startFaultyServer({ okBody: searchBody });
  engine = new RiskEngine({
    connection: { baseUrl: server.url, natureUrl: server.url, apiKey: "key-1", project: "demo" },
    maxRetries: 0,
    ttlMs: 0,
    lastGood: new LastGoodCache(new MemoryStorage()),
  });
  setDefaultEngine(engine);
});

afterAll(async () => {
  setDefaultEngine(undefined);
  uninstall();
  await server.close();
});

const cells = () =>
  Promise.all(
    [10, 20].map((lat, i) =>
      RISK.search(lat, 5, "floods", "30yr", null, null, createInvocation(`Sheet1!C${i + 2}`)).then(
        (value) => value[0]![0],
        (error: { code: string }) => error.code,
      ),
    ),
  );

function renderPanel(services: Partial<TaskpaneServices>): string {
  const value = {
    config: {},
    isDefault: false,
    client: null,
    clientError: null,
    run: null,
    emptyCache: () => undefined,
    ...services,
  } as TaskpaneServices;
  return renderToString(
    <FluentProvider theme={webLightTheme}>
      <TaskpaneContext.Provider value={value}>
        <LastGoodPanel engine={engine} />
      </TaskpaneContext.Provider>
    </FluentProvider>,
  ).replace(/<!-- -->/g, "");
}

test("failed refreshes are listed with when each value was fetched; Retry these refreshes them and empties the list", async () => {
  const { fake, run } = newWorkbook();
  expect(await cells()).toEqual([0.1, 0.2]);
  expect(renderPanel({ run })).toContain(`data-testid="${TEST_IDS.lastGood.staleNone}"`);

  server.setMode("html-error", { status: 502 });
  expect(await cells()).toEqual(["#N/A", "#N/A"]);
  const html = renderPanel({ run });
  expect(html.split(`data-testid="${TEST_IDS.lastGood.staleCell}"`)).toHaveLength(3);
  expect(html).toContain('data-address="Sheet1!C2"');
  expect(html).toContain('data-showing="error"');
  expect(html).toContain("shows an error, fetched ");
  expect(html).toContain("(The risk service failed (HTTP 502); recalculate to retry)");
  const { failurePolicy, staleRetry, cacheClear, staleCount } = TEST_IDS.lastGood;
  for (const id of [failurePolicy, staleRetry.id, cacheClear.id, staleCount])
    expect(html).toContain(`data-testid="${id}"`);

  server.setMode("ok");
  const before = server.requests.length;
  const syncs = fake.syncCount;
  expect(await retryStaleCells({ run, engine })).toBe(2);
  expect(fake.syncCount).toBe(syncs + 1); // the full recalculation was asked of Excel
  expect(await cells()).toEqual([0.1, 0.2]); // what Excel's recalculation runs
  expect(server.requests.length - before).toBe(2);
  expect(engine.staleCells.list()).toEqual([]);
  expect(renderPanel({ run })).toContain(`data-testid="${TEST_IDS.lastGood.staleNone}"`);
});
