import { FluentProvider, webLightTheme } from "@fluentui/react-components";
import { renderToString } from "react-dom/server";
import { App } from "../../../src/taskpane/shell/App";
import { newWorkbook } from "../support";
import { setConnectionRequired } from "../../../src/shared/connection";

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
    "taskpane",
    "connection-default-notice",
    "connection-base-url",
    "connection-api-key",
    "connection-test",
    "connection-save",
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
    expect(html.includes(`data-testid="section-${section}-header"`) ? section : `missing ${section}`).toBe(section);
  }
  expect(/type="password"[^>]*data-testid="connection-api-key"/.test(html)).toBe(true);
  // The sections sit under four group headings, after the search box.
  const headings = [...html.matchAll(/<h2 id="group-[a-z]+"[^>]*>([^<]+)<\/h2>/g)].map((m) => m[1]);
  expect(headings).toEqual(["Set up", "Formulas", "Pull data into sheets", "Portfolios and layers"]);
  expect(html.indexOf('data-testid="section-search"')).toBeLessThan(html.indexOf('data-testid="group-setup"'));
  expect(html.includes('data-testid="no-workbook-notice"')).toBe(false);
});

test("without a workbook the pane says so instead of failing", () => {
  const html = renderToString(
    <FluentProvider theme={webLightTheme}>
      <App run={null} emptyCache={() => undefined} host={null} />
    </FluentProvider>,
  );
  expect(html.includes('data-testid="no-workbook-notice"')).toBe(true);
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
    expect(html).toContain('data-testid="connection-first-run"');
    expect(html).toContain("Connect to your climate risk service");
    expect(html).not.toContain('data-testid="connection-default-notice"');
    expect(html).not.toContain('data-testid="connection-unusable"');
    expect(html).toMatch(/data-testid="connection-summary"[^>]*>Not connected/);
    expect(html).toContain('data-testid="usage-line"');
    for (const section of ["builder", "scoped-refresh", "pasted", "static"])
      expect(html).toContain(`data-testid="section-${section}-header"`);
  } finally {
    setConnectionRequired(undefined);
  }
});
