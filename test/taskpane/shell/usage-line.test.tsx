import { FluentProvider, webLightTheme } from "@fluentui/react-components";
import { renderToString } from "react-dom/server";
import { MANY_PENDING, progressText, UsageLine } from "../../../src/taskpane/shell/UsageLine";
import { TEST_IDS } from "../../../src/taskpane/ui/test-ids";

/** The pane's usage line: counters since start, and while many RISK loads are pending, done / total and time left. */

const STATS = { requests: 5_000, cacheHits: 12, failures: 0 };
const idle = { pending: 0, done: 0, total: 0, estimateMs: 0, concurrency: 6, latencyMs: 300 };

test("many pending loads: done / total and the time left at the present pace", () => {
  expect(progressText({ pending: 3_800, done: 1_200, total: 5_000, estimateMs: 40_000 })).toBe(
    "RISK cells: 1,200 / 5,000 loaded · about 40 s left",
  );
  expect(progressText({ pending: 4_994, done: 6, total: 5_000, estimateMs: 250_000 })).toBe(
    "RISK cells: 6 / 5,000 loaded · about 4 min 10 s left",
  );
  expect(progressText({ pending: 5_000, done: 0, total: 5_000, estimateMs: undefined })).toBe(
    "RISK cells: 0 / 5,000 loaded · estimating the time left",
  );
});

test("a few pending loads (they settle before anyone reads them) show nothing", () => {
  expect(progressText({ pending: MANY_PENDING - 1, done: 3, total: 22, estimateMs: 300 })).toBeNull();
});

test("the line shows the progress above the counters while many loads are pending, and only the counters otherwise", () => {
  const render = (progress: typeof idle) =>
    renderToString(
      <FluentProvider theme={webLightTheme}>
        <UsageLine read={() => STATS} readProgress={() => progress} />
      </FluentProvider>,
    );
  const busy = render({ ...idle, pending: 3_800, done: 1_200, total: 5_000, estimateMs: 40_000 });
  expect(busy).toMatch(
    new RegExp(
      `data-testid="${TEST_IDS.shell.usageProgress}"[^>]*>RISK cells: 1,200 / 5,000 loaded · about 40 s left<`,
    ),
  );
  expect(busy).toContain("Since start: 5,000 requests sent · 12 answers from cache · 0 failures");
  const quiet = render(idle);
  expect(quiet).not.toContain(TEST_IDS.shell.usageProgress);
  expect(quiet).toContain(`data-testid="${TEST_IDS.shell.usageLine}"`);
});
