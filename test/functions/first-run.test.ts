import { RiskEngine } from "../../src/functions/engine/engine";
import { setDefaultEngine } from "../../src/functions/engine/default-engine";
import * as TypedRISK from "../../src/functions/functions";
import { createInvocation } from "../../testing/invocation";
import { getConnection, setConnectionRequired, useConnectionStorage } from "../../src/shared/connection";
import { cellError, installCustomFunctionsStub } from "./support/custom-functions-stub";
import { asExcelCalls } from "./support/excel-calls";

/** The functions as Excel calls them: single values where a parameter takes a range too. */
const { portfolios, summary } = asExcelCalls(TypedRISK);

/**
 * A production build has no emulator to fall back on: with nothing configured, every RISK cell
 * shows #N/A "Open the Climate Risk pane to connect" at once, and nothing is sent anywhere.
 */

let uninstall: () => void;
let sent = 0;

beforeAll(() => {
  uninstall = installCustomFunctionsStub();
  setConnectionRequired(true);
  useConnectionStorage({
    getItem: async () => null,
    setItem: async () => undefined,
    removeItem: async () => undefined,
  });
  setDefaultEngine(
    new RiskEngine({
      connection: getConnection,
      fetch: async () => {
        sent++;
        throw new Error("nothing may be sent");
      },
    }),
  );
});
afterAll(() => {
  setDefaultEngine(undefined);
  setConnectionRequired(undefined);
  useConnectionStorage(undefined);
  uninstall();
});

test("RISK cells show #N/A 'Open the Climate Risk pane to connect' and send nothing", async () => {
  expect(getConnection()).toEqual({ baseUrl: "", natureUrl: "", apiKey: "" });
  expect(
    await cellError(summary("demo-portfolio", 0, "heatwave", "ssp585", 30, "score", createInvocation("A1") as never)),
  ).toEqual({ code: "#N/A", message: "Open the Climate Risk pane to connect" });
  expect(await cellError(portfolios(createInvocation("B1") as never))).toEqual({
    code: "#N/A",
    message: "Open the Climate Risk pane to connect",
  });
  expect(sent).toBe(0);
});
