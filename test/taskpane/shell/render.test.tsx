import { FluentProvider, webLightTheme } from "@fluentui/react-components";
import { renderToString } from "react-dom/server";
import { App } from "../../../src/taskpane/shell/App";
import { newWorkbook } from "../support";
import { setConnectionRequired } from "../../../src/shared/connection";
import { TEST_IDS } from "../../../src/taskpane/ui/test-ids";

/**
 * Render smoke test without a DOM: the whole pane renders on the server, shows the demo-connection
 * notice, and carries the test ids the browser tests drive. (Effects and clicks are exercised by
 * the browser harness.)
 */
test("the task pane renders every section with its test ids and the demo-connection notice", () => {
  const { run } = newWorkbook();
  const html = renderToString(
    <FluentProvider theme={webLightTheme}>
      <App run={run} emptyCache={() => undefined} host={null} />
    </FluentProvider>,
  );
  for (const id of [
    TEST_IDS.shell.taskpane,
    TEST_IDS.connection.defaultNotice,
    TEST_IDS.connection.baseUrl,
    TEST_IDS.connection.apiKey,
    TEST_IDS.connection.test,
    TEST_IDS.connection.save,
  ]) {
    expect(html.includes(`data-testid="${id}"`) ? id : `missing ${id}`).toBe(id);
  }
  for (const section of [
    "connection",
    "check",
    "sync",
    "timeseries",
    "layer",
    "summary",
    "impact",
    "explain",
    "changes",
    "export",
    "portfolios",
    "compositions",
    "nature",
    "refresh",
    "last-good",
  ]) {
    expect(
      html.includes(`data-testid="${TEST_IDS.shell.sectionHeader(section)}"`) ? section : `missing ${section}`,
    ).toBe(section);
  }
  expect(new RegExp(`type="password"[^>]*data-testid="${TEST_IDS.connection.apiKey}"`).test(html)).toBe(true);
  // The sections sit under four group headings, after the search box.
  const headings = [...html.matchAll(/<h2 id="group-[a-z]+"[^>]*>([^<]+)<\/h2>/g)].map((m) => m[1]);
  expect(headings).toEqual(["Set up", "Formulas", "Pull data into sheets", "Portfolios and layers"]);
  expect(html.indexOf(`data-testid="${TEST_IDS.shell.sectionSearch}"`)).toBeLessThan(
    html.indexOf(`data-testid="${TEST_IDS.shell.group("setup")}"`),
  );
  expect(html.includes(`data-testid="${TEST_IDS.shell.noWorkbookNotice}"`)).toBe(false);
});

test("without a workbook the pane says so instead of failing", () => {
  const html = renderToString(
    <FluentProvider theme={webLightTheme}>
      <App run={null} emptyCache={() => undefined} host={null} />
    </FluentProvider>,
  );
  expect(html.includes(`data-testid="${TEST_IDS.shell.noWorkbookNotice}"`)).toBe(true);
});

test("a production first run (nothing configured, no emulator) opens on the connection form and says what to enter", () => {
  setConnectionRequired(true);
  try {
    const { run } = newWorkbook();
    const html = renderToString(
      <FluentProvider theme={webLightTheme}>
        <App run={run} emptyCache={() => undefined} host={null} />
      </FluentProvider>,
    );
    expect(html).toContain(`data-testid="${TEST_IDS.connection.firstRun}"`);
    expect(html).toContain("Connect to your climate risk service");
    expect(html).not.toContain(`data-testid="${TEST_IDS.connection.defaultNotice}"`);
    expect(html).not.toContain(`data-testid="${TEST_IDS.shell.connectionUnusable}"`);
    expect(html).toMatch(new RegExp(`data-testid="${TEST_IDS.shell.connectionSummary}"[^>]*>Not connected`));
    expect(html).toContain(`data-testid="${TEST_IDS.shell.usageLine}"`);
    for (const section of ["builder", "scoped-refresh", "pasted", "static"])
      expect(html).toContain(`data-testid="${TEST_IDS.shell.sectionHeader(section)}"`);
  } finally {
    setConnectionRequired(undefined);
  }
});
