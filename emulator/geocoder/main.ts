/**
 * CLI of the geocoder stand-in: `tsx emulator/geocoder/main.ts [--port 4020] [--latency ms] [--api-key k]`.
 * Prints one line when ready; exits on SIGINT/SIGTERM. `npm start` starts it beside the emulator.
 */
import { startGeocoder, type GeocoderOptions } from "./server";

function parse(argv: string[]): GeocoderOptions {
  const options: GeocoderOptions = { port: 4020 };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (value === undefined) throw new Error(`option ${flag} needs a value`);
    if (flag === "--port") options.port = Number(value);
    else if (flag === "--latency") options.latencyMs = Number(value);
    else if (flag === "--api-key") options.apiKey = value;
    else if (flag === "--host") options.host = value;
    else throw new Error(`unknown option ${flag} (known: --port, --host, --latency, --api-key)`);
  }
  return options;
}

startGeocoder(parse(process.argv.slice(2))).then(
  (geocoder) => {
    console.log(`geocoder stand-in listening on ${geocoder.url}`);
    const stop = () => void geocoder.close().then(() => process.exit(0));
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  },
  (error: Error) => {
    console.error(error.message);
    process.exit(1);
  },
);
