/**
 * Excel data types in `any` parameters. The generated metadata says allowCustomDataForDataTypeAny
 * (CustomFunctionsRuntime 1.4: Windows Version 2208, Mac 16.64, the web), so there a cell holding
 * a formatted number or a linked data type reaches horizon, window or vector as an object
 * (Excel's CellValue JSON), where older hosts pass its basic value. Each function must read such
 * an argument as its basic value, or refuse it naming the parameter and the data type: never
 * "[object Object]". Shapes follow @types/office-js (Excel.FormattedNumberCellValue,
 * Excel.DoubleCellValue, Excel.EntityCellValue).
 */
import { RiskEngine } from "../../src/functions/engine/engine";
import { setDefaultEngine } from "../../src/functions/engine/default-engine";
import * as TypedRISK from "../../src/functions/functions";
import { createInvocation } from "../../testing/invocation";
import { plainArgument } from "../../src/functions/arguments";
import { cellError, installCustomFunctionsStub } from "./support/custom-functions-stub";
import { asExcelCalls } from "./support/excel-calls";
import { startTestService, type TestService } from "../support/emulator";

/** The functions as Excel calls them: single values where a parameter takes a range too. */
const RISK = asExcelCalls(TypedRISK);
let fixture: TestService;
let uninstall: () => void;
const inv = () => createInvocation();

const formatted30: Excel.FormattedNumberCellValue = { type: "FormattedNumber", basicValue: 30, numberFormat: '0 "yr"' };
const double15: Excel.DoubleCellValue = { type: "Double", basicValue: 15 };
const text30yr: Excel.StringCellValue = { type: "String", basicValue: "30yr" };
const entity: Excel.EntityCellValue = {
  type: "Entity",
  text: "Paris",
  basicType: "Error",
  basicValue: "#VALUE!",
  properties: { Population: { type: "Double", basicValue: 2.1e6 } },
};

beforeAll(async () => {
  uninstall = installCustomFunctionsStub();
  fixture = await startTestService({ processingDelayMs: 50 });
  setDefaultEngine(new RiskEngine({ connection: fixture.connection, maxRetries: 0, errorTtlMs: 0 }));
});
afterAll(async () => {
  setDefaultEngine(undefined);
  uninstall();
  await fixture.emulator.close();
});

describe("data types in any parameters", () => {
  test("SEARCH's horizon as a Double or String data type is read as its basic value", async () => {
    const plain15 = await RISK.search(51.5, -0.12, "floods", 15, null as never, null as never, inv());
    const plain30 = await RISK.search(51.5, -0.12, "floods", "30yr", null as never, null as never, inv());
    expect(await RISK.search(51.5, -0.12, "floods", double15, null as never, null as never, inv())).toEqual(plain15);
    expect(await RISK.search(51.5, -0.12, "floods", text30yr, null as never, null as never, inv())).toEqual(plain30);
    // In a column formula each element of a range may be a data type too.
    const column = await RISK.search(
      [[51.5], [51.5]],
      [[-0.12], [-0.12]],
      "floods",
      [[double15], [text30yr]],
      null as never,
      null as never,
      inv(),
    );
    expect(column).toEqual([plain15[0], plain30[0]]);
  });

  test("SUMMARY's window as a formatted number is read as its number", async () => {
    const plain = await RISK.summary("demo-portfolio", 0, "floods", "ssp245", 30, null as never, inv());
    expect(await RISK.summary("demo-portfolio", 0, "floods", "ssp245", formatted30, null as never, inv())).toEqual(
      plain,
    );
  });

  test("an entity (no plain basic value) is refused as #VALUE!, naming the parameter and the entity", async () => {
    const error = await cellError(RISK.search(51.5, -0.12, "floods", entity, null as never, null as never, inv()));
    expect(error.code).toBe("#VALUE!");
    expect(error.message).toBe(
      'horizon must be a plain value, not a data type (Entity "Paris"): use one of its fields, e.g. =A1.Name',
    );
    const layerError = await cellError(RISK.layer(entity, "demo-portfolio", 0, null as never, inv()));
    expect(layerError.message).toMatch(/^vector must be a plain value, not a data type \(Entity "Paris"\)/);
    expect(layerError.message).not.toContain("[object Object]");
  });
});

describe("plainArgument", () => {
  test("passes plain values through, reads basic values, refuses errors and arrays", () => {
    expect(plainArgument(42, "x")).toBe(42);
    expect(plainArgument(null, "x")).toBeNull();
    expect(plainArgument({ type: "Boolean", basicValue: true }, "x")).toBe(true);
    expect(() => plainArgument({ type: "Error", basicValue: "#N/A", errorType: "NotAvailable" }, "index")).toThrow(
      "index must be a plain value, not a data type (Error)",
    );
    expect(() => plainArgument({ type: "Array", elements: [[1]] }, "window")).toThrow(
      "window must be a plain value, not a data type (Array)",
    );
  });
});
