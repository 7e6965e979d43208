/**
 * Every sync of each step of one weekly refresh (bench/scenarios/weekly-refresh.ts) at latency 0,
 * with its request and response bytes, its operations and the src frames that sent it:
 * `npx tsx bench/trace-syncs.ts [assets=5000]`. For finding syncs that could ride together (issue
 * 41's "each step within 2 × the fewest syncs"); not part of `npm run bench`.
 */
import { FULL_SCALE } from "./context";
import { spawnEmulator } from "./emulator-process";
import { weeklyRun } from "./scenarios/weekly-refresh";
import { RemoteWorkbook } from "./workbook-worker/remote-excel";

const assets = Number(process.argv[2] ?? "5000");
let on = "";
const order: string[] = [];

/** The src frames that called sync: the batch's JSON goes to the workbook's thread from within it. */
function srcFrames(): string {
  return (new Error().stack ?? "")
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
}

// The workbook is in its own thread (bench/workbook-worker): each sync is one "sync" request to it,
// with the batch's actions as JSON, answered with the deliveries as JSON.
type Request = (message: { type: string; actions?: string }) => Promise<unknown>;
const prototype = RemoteWorkbook.prototype as unknown as { request: Request };
const original = prototype.request;
prototype.request = function (this: unknown, message) {
  const answer = original.call(this, message);
  if (!on || message.type !== "sync" || message.actions === undefined) return answer;
  const slot = order.length;
  const operations = (JSON.parse(message.actions) as unknown[]).length;
  const requestBytes = Buffer.byteLength(message.actions);
  order.push(srcFrames());
  return answer.then((deliveries) => {
    const responseBytes = typeof deliveries === "string" ? Buffer.byteLength(deliveries) : 0;
    order[slot] =
      `${(requestBytes / 1e6).toFixed(2)}MB/${(responseBytes / 1e6).toFixed(2)}MB ops ${operations} ` + order[slot];
    return deliveries;
  });
};
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
