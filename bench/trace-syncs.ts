/**
 * Every sync of each step of one weekly refresh (bench/scenarios/weekly-refresh.ts) at latency 0,
 * with its request and response bytes, its operations and the src frames that sent it:
 * `npx tsx bench/trace-syncs.ts [assets=5000]`. For finding syncs that could ride together (issue
 * 41's "each step within 2 × the fewest syncs"); not part of `npm run bench`.
 */
import { FakeRequestContext } from "../testing/fake-excel/context";
import { FULL_SCALE } from "./context";
import { spawnEmulator } from "./emulator-process";
import { weeklyRun } from "./scenarios/weekly-refresh";

const assets = Number(process.argv[2] ?? "5000");
let on = "";
const order: string[] = [];
const original = FakeRequestContext.prototype.sync;
FakeRequestContext.prototype.sync = function (this: FakeRequestContext, v?: unknown) {
  if (on && (this as unknown as { queue: unknown[] }).queue.length > 0) {
    const stack = (new Error().stack ?? "")
      .split("\n")
      .slice(2)
      .filter((l) => l.includes("/src/"))
      .slice(0, 4)
      .map((l) =>
        l
          .trim()
          .replace(/^at /, "")
          .replace(/\(.*\/src\//, "(")
          .replace(/:\d+\)$/, ")"),
      )
      .join(" < ");
    const host = (
      this as unknown as { host: { syncs: { requestBytes: number; responseBytes: number; operations: number }[] } }
    ).host;
    const at = host.syncs.length;
    const slot = order.length;
    order.push(stack);
    const p = original.call(this, v) as Promise<unknown>;
    return p.finally(() => {
      const r = host.syncs[at];
      if (r)
        order[slot] =
          `${(r.requestBytes / 1e6).toFixed(2)}MB/${(r.responseBytes / 1e6).toFixed(2)}MB ops ${r.operations} ` +
          order[slot];
    }) as never;
  }
  return original.call(this, v) as never;
} as never;
async function main() {
  const emulator = await spawnEmulator({ latencyMs: 0, processingDelayMs: 200 });
  const scale = { ...FULL_SCALE.weekly, assets, series: Math.min(FULL_SCALE.weekly.series, assets), refreshes: 1 };
  try {
    await weeklyRun(emulator, "trace", scale, 0, undefined, () => undefined, undefined, {
      before: async (step) => {
        on = step;
        order.length = 0;
      },
      after: async (step) => {
        console.log(`== ${step}: ${order.length}`);
        for (const s of order) console.log("  " + s);
        on = "";
      },
    });
  } finally {
    emulator.stop();
  }
}
main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
