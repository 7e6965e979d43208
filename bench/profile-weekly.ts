/**
 * One run of the weekly refresh (bench/scenarios/weekly-refresh.ts) against an emulator of its own,
 * with a CPU profile of each step of the refresh (not the workbook's building) written to a file per
 * step: `npx tsx bench/profile-weekly.ts [--latency 40] [--cap 32] [--assets 5000] [--step "Refresh
 * pasted sheets"] [--out weekly.cpuprofile] [--allocations] [--heap-snapshot file] [--no-profile] [--refreshes 1]`.
 * `--allocations` samples allocations instead (every object, collected or not: who makes the
 * garbage); `--heap-snapshot` writes one before the step. Prints each step's wall time, bound and
 * the emulator's CPU. For finding where the refresh's time goes; not part of `npm run bench`.
 */
import { writeFileSync } from "node:fs";
import { writeHeapSnapshot } from "node:v8";
import { Session } from "node:inspector/promises";
import { FULL_SCALE } from "./context";
import { emulatorCpuMs, spawnEmulator } from "./emulator-process";
import { weeklyRun } from "./scenarios/weekly-refresh";

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : fallback;
}

async function main(): Promise<void> {
  const latencyMs = Number(option("latency", "40"));
  const cap = option("cap", "");
  const assets = Number(option("assets", "5000"));
  const out = option("out", "weekly.cpuprofile");
  // One refresh unless told (a profile per step is written over by each further refresh).
  const refreshes = Number(option("refreshes", "1"));
  const scale = { ...FULL_SCALE.weekly, assets, series: Math.min(FULL_SCALE.weekly.series, assets), refreshes };
  const emulator = await spawnEmulator({
    latencyMs,
    concurrencyLimit: cap ? Number(cap) : undefined,
    processingDelayMs: 200,
  });
  const profiling = !process.argv.includes("--no-profile");
  const only = option("step", ""); // profile this step alone ("Refresh pasted sheets")
  // One file per step: weekly.cpuprofile → weekly-Refreshall.cpuprofile, ...
  const fileOf = (step: string) => out.replace(/(\.\w+)?$/, (ext) => `-${step.replace(/\W+/g, "")}${ext}`);
  const session = new Session();
  session.connect();
  // The emulator's CPU over each step (its process group), told when the step's line is logged.
  let cpuMark: number | null = null;
  const log = (message: string) => {
    const cpu = emulatorCpuMs(emulator.pid);
    const spent = cpuMark !== null && cpu !== null ? `; emulator CPU ${Math.round(cpu - cpuMark)} ms` : "";
    if (cpuMark !== null) cpuMark = cpu;
    console.error(`${message}${spent}`);
  };
  try {
    const run = await weeklyRun(
      emulator,
      "weekly-profile",
      scale,
      latencyMs,
      cap ? Number(cap) : undefined,
      log,
      undefined,
      {
        before: async (step) => {
          cpuMark = emulatorCpuMs(emulator.pid);
          if (only && step !== only) return;
          const snapshot = option("heap-snapshot", "");
          if (snapshot) console.error(`heap snapshot: ${writeHeapSnapshot(snapshot)}`);
          if (!profiling) return;
          if (process.argv.includes("--allocations")) {
            // Every allocation sampled, collected since or not: who makes the garbage.
            await session.post("HeapProfiler.enable");
            await session.post("HeapProfiler.startSampling", {
              samplingInterval: 65_536,
              includeObjectsCollectedByMajorGC: true,
              includeObjectsCollectedByMinorGC: true,
            });
            return;
          }
          await session.post("Profiler.enable");
          await session.post("Profiler.setSamplingInterval", { interval: 500 });
          await session.post("Profiler.start");
        },
        after: async (step) => {
          if (!profiling || (only && step !== only)) return;
          if (process.argv.includes("--allocations")) {
            const { profile } = await session.post("HeapProfiler.stopSampling");
            writeFileSync(fileOf(step), JSON.stringify(profile));
            return;
          }
          const { profile } = await session.post("Profiler.stop");
          writeFileSync(fileOf(step), JSON.stringify(profile));
        },
      },
    );
    const steps = run.steps.map(
      (s) =>
        `${s.name}: ${Math.round(s.wallMs)} ms (bound ${Math.round(s.boundMs)}; ${s.requests} requests, ` +
        `${(s.answerBytes / 1e6).toFixed(1)} MB of answers (${Math.round(s.answersMs)} ms of the bound), ` +
        `${s.peakInFlight} at once, Excel ${Math.round(s.excelMs)} ms (calculation ${Math.round(s.calculationMs)} ms; batches open ${Math.round(s.batchSpanMs)} ms), GC ${Math.round(s.gcMs)} ms, major ${Math.round(s.majorGcMs)} ms, add-in thread busy ${Math.round(s.threadBusyMs)} ms)`,
    );
    console.log(
      [
        `whole ${Math.round(run.wallMs)} ms vs bound ${Math.round(run.boundMs)} (× ${(run.wallMs / run.boundMs).toFixed(2)} at ${run.decodeMsPerMb.toFixed(1)} ms a MB)` +
          (run.refreshes.length > 1
            ? `, the median of ${run.refreshes.map((r) => `${Math.round(r.wallMs)} ms × ${(r.wallMs / r.boundMs).toFixed(2)} at ${r.decodeMsPerMb.toFixed(1)}`).join(", ")}`
            : "") +
          `; built in ${Math.round(run.buildMs)} ms`,
        ...steps,
        // What the workbook showed: a faster refresh that shows less is not faster.
        `after: ${run.riskCalls} RISK calls, ${run.cellsWithoutValue} cells without a value; pasted ` +
          `${run.pasted.refreshed} refreshed, ${run.pasted.refused} refused ${run.pasted.messages.join(" ")}; ` +
          `${run.notesMisplaced} of ${run.notesChecked} notes misplaced; What changed ${run.changes.cells} cells, ` +
          `${run.changes.outsideChangedAssets} outside; heap: add-in peak ${Math.round(run.memory.heapUsed / 1e6)} MB, ` +
          `workbook ${Math.round(run.workbookHeap / 1e6)} MB`,
      ].join("\n"),
    );
    if (profiling) console.log(`profiles: ${fileOf("<step>")}`);
  } finally {
    emulator.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
