/**
 * CLI of the emulator: `npm run emulator -- [--port 4010] [--host 127.0.0.1] [--latency ms]
 * [--fail-rate 0..1] [--rate-limit n] [--concurrency-limit n] [--data-dir dir] [--seed n]
 * [--processing-delay ms] [--jq-timeout ms] [--jq-workers n] [--allowed-origins a,b] [--quiet]`.
 * `--allowed-origins` defaults to the environment variable EMULATOR_ALLOWED_ORIGINS (else `*`).
 * Prints exactly one line when ready and exits cleanly on SIGINT/SIGTERM.
 */
import { EmulatorOptions, startEmulator } from "./server";

const FLAGS: Record<string, { key: keyof EmulatorOptions; kind: "number" | "string" | "list" }> = {
  "--port": { key: "port", kind: "number" },
  "--host": { key: "host", kind: "string" },
  "--latency": { key: "latencyMs", kind: "number" },
  "--fail-rate": { key: "failRate", kind: "number" },
  "--rate-limit": { key: "rateLimit", kind: "number" },
  "--concurrency-limit": { key: "concurrencyLimit", kind: "number" },
  "--data-dir": { key: "dataDir", kind: "string" },
  "--seed": { key: "seed", kind: "number" },
  "--processing-delay": { key: "processingDelayMs", kind: "number" },
  "--jq-timeout": { key: "jqTimeoutMs", kind: "number" },
  "--jq-workers": { key: "jqWorkers", kind: "number" },
  "--allowed-origins": { key: "allowedOrigins", kind: "list" },
};

/** A comma-separated list (`--allowed-origins`, EMULATOR_ALLOWED_ORIGINS) as its items. */
function listOf(value: string): string[] {
  return value
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

function parseArgs(argv: string[]): EmulatorOptions {
  const opts: Record<string, unknown> = { port: 4010 };
  const envOrigins = process.env.EMULATOR_ALLOWED_ORIGINS;
  if (envOrigins) opts.allowedOrigins = listOf(envOrigins);
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split("=", 2) as [string, string | undefined];
    let value = inline;
    if (flag === "--quiet") {
      opts.quiet = true;
      continue;
    }
    const spec = FLAGS[flag];
    if (!spec) throw new Error(`unknown option ${flag} (known: ${Object.keys(FLAGS).join(", ")}, --quiet)`);
    if (value === undefined) value = argv[++i];
    if (value === undefined) throw new Error(`option ${flag} needs a value`);
    if (spec.kind === "number") {
      const n = Number(value);
      if (!Number.isFinite(n)) throw new Error(`option ${flag}: "${value}" is not a number`);
      opts[spec.key] = n;
    } else if (spec.kind === "list") opts[spec.key] = listOf(value);
    else opts[spec.key] = value;
  }
  return opts as EmulatorOptions;
}

async function main(): Promise<void> {
  let options: EmulatorOptions;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error((e as Error).message);
    process.exit(2);
  }
  const emulator = await startEmulator(options);
  console.log(`emulator listening on ${emulator.url}`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    emulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((e) => {
  console.error(`emulator failed to start: ${(e as Error).message}`);
  process.exit(1);
});
