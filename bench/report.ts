import type { BenchReport } from "./bench";
import type { ScenarioResult } from "./context";
import { count, fmt } from "./format";

const MB = 1024 * 1024;

function ms(value: number | null): string {
  if (value === null) return "—";
  return value >= 10_000 ? `${fmt(value / 1000, 1)} s` : `${fmt(value)} ms`;
}

function ratio(value: number | null, digits = 2): string {
  return value === null || !Number.isFinite(value) ? "—" : `${fmt(value, digits)}×`;
}

/** The columns of the results table, in order. */
export const COLUMNS = [
  "Scenario",
  "Requests",
  "Wall",
  "Bound",
  "Wall ÷ bound",
  "Naive",
  "Faster than naive",
  "Peak RSS / heap",
  "Emulator CPU",
  "Target",
  "Status",
] as const;

/** One table row's cells. */
export function rowCells(r: ScenarioResult): string[] {
  return [
    r.scenario,
    r.requests === null ? "—" : count(r.requests),
    ms(r.wallMs),
    ms(r.boundMs),
    ratio(r.wallMs !== null && r.boundMs ? r.wallMs / r.boundMs : null),
    ms(r.naiveMs),
    ratio(r.wallMs !== null && r.naiveMs !== null ? r.naiveMs / r.wallMs : null, 1),
    r.memory ? `${fmt(r.memory.rss / MB)} / ${fmt(r.memory.heapUsed / MB)} MB` : "—",
    typeof r.details.emulatorCpuBulkMs === "number" ? ms(r.details.emulatorCpuBulkMs) : "—",
    r.target,
    r.status,
  ];
}

/** The results as Markdown: the table, then each scenario's checks and how its figures were made. */
export function renderMarkdown(report: BenchReport): string {
  const escape = (cell: string) => cell.replace(/\|/g, "\\|");
  const lines: string[] = [];
  const env = report.environment;
  lines.push(
    `Run ${report.startedAt.slice(0, 16).replace("T", " ")} UTC · Node ${env.node} · ${env.cpus} × ${env.cpuModel} · load average ${env.loadAverageBefore.join(" ")} before, ${env.loadAverageAfter.join(" ")} after · whole run ${fmt(report.totalMs / 1000, 1)} s`,
    `Emulator in its own process, latency ${report.latencyMs} ms · engine concurrency ${report.settings.concurrency}, read-ahead ${report.settings.readAhead} pages of ${report.settings.rows} rows`,
    "",
  );
  lines.push(`| ${COLUMNS.join(" | ")} |`, `|${COLUMNS.map(() => "---").join("|")}|`);
  for (const r of report.results) lines.push(`| ${rowCells(r).map(escape).join(" | ")} |`);
  lines.push("");
  if (report.setup) {
    lines.push(
      `Set-up (not measured): portfolio \`${report.setup.portfolio}\`, ${count(report.setup.assets)} assets (CSV ${fmt(report.setup.csvBytes / 1024)} KB), created, imported and ready in ${ms(report.setup.readyMs)}.`,
      "",
    );
  }
  for (const r of report.results) {
    lines.push(`**${r.scenario}** — ${r.status}`);
    for (const c of r.checks) lines.push(`- ${c.pass ? "PASS" : "MISS"} ${c.name}: ${c.detail}`);
    if (r.requestNote) lines.push(`- requests: ${r.requestNote}`);
    if (r.boundNote) lines.push(`- bound: ${r.boundNote}`);
    if (r.naiveNote) lines.push(`- naive: ${r.naiveNote}`);
    if (typeof r.details.emulatorCpuBulkMs === "number")
      lines.push(
        `- emulator CPU while the add-in's path ran (the Emulator CPU column): ${fmt(r.details.emulatorCpuBulkMs)} ms`,
      );
    if (r.details.emulatorCpuMs !== undefined)
      lines.push(
        `- emulator CPU during the whole scenario, naive client included: ${fmt(Number(r.details.emulatorCpuMs))} ms`,
      );
    lines.push("");
  }
  return lines.join("\n");
}

/** The table as aligned plain text for the terminal. */
export function renderConsole(report: BenchReport): string {
  const rows = [COLUMNS.slice() as string[], ...report.results.map(rowCells)];
  const widths = COLUMNS.map((_, i) =>
    Math.min(i === 0 || i === 9 ? 48 : 24, Math.max(...rows.map((row) => row[i].length))),
  );
  const cut = (text: string, width: number) =>
    text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);
  return rows.map((row) => row.map((cell, i) => cut(cell, widths[i])).join("  ")).join("\n");
}
