/**
 * `npm run bench`: every bulk path against the emulator (own process, --latency 40), next to its
 * physical bound and a naive client; prints the table and writes bench/results.md and
 * bench/results.json. Options: --latency ms, --only id,id, --runs n (runs of each search at real
 * latency and refreshes of each weekly-refresh run, 3 by default), --reuse-dist (measure dist/ when
 * it is newer than src/ instead of building), --skip-bundle, --sync-ms ms,ms (the weekly refresh's
 * further runs with each sync charged this round trip; 20,100 by default, "" for none). Exits 0
 * even when a target is missed: these are benchmarks, not tests.
 */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { runBenchmarks, type BenchOptions } from "./bench";
import { FULL_SCALE } from "./context";
import { renderConsole, renderMarkdown } from "./report";

function parseArgs(argv: string[]): BenchOptions {
  const options: BenchOptions = { bundle: "build" };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--latency") options.latencyMs = Number(argv[++i]);
    else if (arg === "--only") options.only = (argv[++i] ?? "").split(",").filter(Boolean);
    else if (arg === "--reuse-dist") options.bundle = "reuse";
    else if (arg === "--skip-bundle") options.bundle = "skip";
    else if (arg === "--runs") {
      const scale = options.scale ?? FULL_SCALE;
      const runs = Number(argv[++i]);
      options.scale = { ...scale, latencyRuns: runs, weekly: { ...scale.weekly, refreshes: runs } };
    } else if (arg === "--sync-ms") {
      const list = (argv[++i] ?? "").split(",").filter(Boolean).map(Number);
      if (!list.every((ms) => ms >= 0)) throw new Error("--sync-ms needs milliseconds ≥ 0, e.g. 20,100");
      const scale = options.scale ?? FULL_SCALE;
      options.scale = { ...scale, weekly: { ...scale.weekly, syncRoundTripsMs: list } };
    } else
      throw new Error(
        `unknown option ${arg} (known: --latency ms, --only id,id, --runs n, --sync-ms ms,ms, --reuse-dist, --skip-bundle)`,
      );
  }
  if (options.scale && !(Number.isInteger(options.scale.latencyRuns) && options.scale.latencyRuns >= 1))
    throw new Error("--runs needs a whole number ≥ 1");
  if (options.latencyMs !== undefined && !(options.latencyMs >= 0))
    throw new Error("--latency needs a number of milliseconds ≥ 0");
  return options;
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const started = Date.now();
  const report = await runBenchmarks({
    ...options,
    log: (message) => console.error(`[bench ${((Date.now() - started) / 1000).toFixed(1)} s] ${message}`),
  });
  const markdown = renderMarkdown(report);
  console.log(`\n${renderConsole(report)}\n`);
  const partial = options.only !== undefined;
  const base = resolve(__dirname, partial ? "results.partial" : "results");
  writeFileSync(
    `${base}.md`,
    `# Benchmark results\n\nWritten by \`npm run bench\`; see docs/benchmarks.md for what each row measures.\n\n${markdown}`,
  );
  writeFileSync(`${base}.json`, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`written: ${base}.md, ${base}.json`);
}

main().then(
  // Pooled keep-alive sockets would keep the process alive for a while; the work is done.
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  },
);
