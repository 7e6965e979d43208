import { RiskEngine, evaluateCells, setDefaultEngine, type FakeInvocation } from "../../testing/evaluate-cells";
import { searchAnswer, sendJson, startFakeService, type FakeService } from "./support/fake-service";

/**
 * Running formulas outside Excel (benchmarks, drills, the harness): no CustomFunctions global, the
 * real functions called as Excel calls them, each cell settled to a value or an error value.
 */

let service: FakeService;
let engine: RiskEngine;
beforeAll(async () => {
  expect((globalThis as { CustomFunctions?: unknown }).CustomFunctions).toBeUndefined();
  service = await startFakeService((request, res) => {
    if (request.path === "/api/search" && request.query.get("lat") !== "66") {
      return sendJson(res, searchAnswer(Number(request.query.get("lat")), Number(request.query.get("lng"))));
    }
    // lat 66 never answers: a cell the test cancels.
  });
  engine = new RiskEngine({ connection: service.connection });
  setDefaultEngine(engine);
});
afterAll(async () => {
  setDefaultEngine(undefined);
  await service.close();
});

test("evaluateCells settles every cell to a value or an error value, with omitted optionals passed as null", async () => {
  const invocations: FakeInvocation[] = [];
  const pending = evaluateCells(
    [
      { fn: "SEARCH", args: [10, 20, "floods", "30yr"] },
      { fn: "SEARCH", args: [10, 20, "wildfire", 15, "background", "label"] },
      { fn: "SEARCH", args: [100, 20, "floods", "30yr"] },
      { fn: "SEARCH", args: [66, 1, "floods", "30yr"] },
    ],
    invocations,
  );
  await new Promise((resolve) => setTimeout(resolve, 50));
  invocations[3]!.cancel();
  const results = await pending;

  const local = searchAnswer(10, 20).features[0]!.properties.physical_risk_exposure;
  expect(results[0]).toEqual({ value: [[local.local["30yr"].find((e) => e.hazard === "floods")!.score]] });
  expect(results[1]).toEqual({ value: [[local.background["15yr"].find((e) => e.hazard === "wildfire")!.label]] });
  expect(results[2]).toEqual({ error: { code: "#VALUE!", message: "lat must be from -90 to 90 (got 100)" } });
  expect(results[3]).toEqual({ error: { code: "#N/A", message: "Cancelled" } });
  expect(engine.stats()).toMatchObject({ calls: 3, loads: 2, aborted: 1 });
});
