/**
 * `npm start`: the add-in running against the local emulator, in one command, on a fresh clone.
 *
 *  1. finds or makes an https certificate (scripts/certificate.mjs, never asks anything);
 *  2. starts the emulator (tsx emulator/main.ts), unless one already answers on its port, and the
 *     geocoder stand-in (tsx emulator/geocoder/main.ts, Pelias and Nominatim formats) beside it;
 *  3. starts webpack-dev-server in development mode (pages, the harness, office.js, /emulator proxy);
 *  4. waits until both answer, then prints the harness URL and how to sideload manifest.xml.
 * Ctrl-C (SIGINT), SIGTERM or SIGHUP stop everything it started: each child runs in its own process
 * group, and the whole group is terminated (tsx and webpack start children of their own).
 *
 * Settings (environment): DEV_SERVER_PORT or PORT (3000), EMULATOR_PORT (4010), GEOCODER_PORT
 * (4020), START_TIMEOUT_SECONDS (240).
 */
import { spawn } from "node:child_process";
import { spawnSync } from "node:child_process";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { ensureCertificate } from "./certificate.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(path.join(ROOT, "package.json"));
const IS_WINDOWS = process.platform === "win32";

const devPort = Number(process.env.DEV_SERVER_PORT || process.env.PORT || 3000);
const emulatorPort = Number(process.env.EMULATOR_PORT || 4010);
const timeoutMs = Number(process.env.START_TIMEOUT_SECONDS || 240) * 1000;
const emulatorUrl = `http://127.0.0.1:${emulatorPort}`;
const geocoderPort = Number(process.env.GEOCODER_PORT || 4020);
const geocoderUrl = `http://127.0.0.1:${geocoderPort}`;
const devOrigin = `https://localhost:${devPort}`;

/** @type {Array<{name: string, child: import("node:child_process").ChildProcess, exited: boolean}>} */
const children = [];
let stopping = false;

main().catch(async (error) => {
  console.error(`\nnpm start failed: ${error?.message ?? error}`);
  await stopAll();
  process.exit(1);
});

async function main() {
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.on(signal, () => {
      if (stopping) return;
      console.log(`\n${signal}: stopping the dev server and the emulator…`);
      void stopAll().then(() => process.exit(signal === "SIGINT" ? 130 : 143));
    });
  }
  process.on("exit", killAllNow);

  const cert = await ensureCertificate({ origin: devOrigin, log: (line) => console.log(line) });
  console.log(cert.note);

  if (await answers(`${emulatorUrl}/__emulator/stats`)) {
    console.log(
      `An emulator already answers at ${emulatorUrl}: using it (it was not started here, so it keeps running).`,
    );
  } else {
    await assertPortFree(emulatorPort, "127.0.0.1", "EMULATOR_PORT");
    start("emulator", [require.resolve("tsx/cli"), "emulator/main.ts", "--port", String(emulatorPort)], {});
  }

  if (await answers(`${geocoderUrl}/__geocoder/stats`)) {
    console.log(`A geocoder stand-in already answers at ${geocoderUrl}: using it.`);
  } else {
    await assertPortFree(geocoderPort, "127.0.0.1", "GEOCODER_PORT");
    start("geocoder", [require.resolve("tsx/cli"), "emulator/geocoder/main.ts", "--port", String(geocoderPort)], {});
  }

  await assertPortFree(devPort, "localhost", "DEV_SERVER_PORT");
  console.log("Building the add-in (the first build takes a little while)…");
  start(
    "webpack",
    [require.resolve("webpack/bin/webpack.js"), "serve", "--mode", "development", "--stats", "minimal"],
    {
      DEV_SERVER_PORT: String(devPort),
      EMULATOR_URL: emulatorUrl,
      ...(cert.certFile ? { DEV_CERT_FILE: cert.certFile, DEV_KEY_FILE: cert.keyFile } : {}),
    },
  );

  await waitFor("the emulator", `${emulatorUrl}/__emulator/stats`);
  await waitFor("the geocoder stand-in", `${geocoderUrl}/__geocoder/stats`);
  await waitFor("the dev server", `${devOrigin}/harness.html`);
  printNextSteps(cert);
}

/** Spawns `node args...` in its own process group with prefixed output; an early exit ends npm start. */
function start(name, args, extraEnv) {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...extraEnv },
    stdio: ["ignore", "pipe", "pipe"],
    detached: !IS_WINDOWS, // own process group, so the whole tree can be stopped at once
  });
  const entry = { name, child, exited: false };
  children.push(entry);
  prefixLines(child.stdout, `[${name}] `, process.stdout);
  prefixLines(child.stderr, `[${name}] `, process.stderr);
  child.on("exit", (code, signal) => {
    entry.exited = true;
    if (stopping) return;
    console.error(`\n${name} stopped unexpectedly (${signal ?? `exit code ${code}`}); stopping everything.`);
    void stopAll().then(() => process.exit(1));
  });
  return entry;
}

function prefixLines(stream, prefix, out) {
  let pending = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk) => {
    pending += chunk;
    const lines = pending.split(/\r?\n/);
    pending = lines.pop() ?? "";
    for (const line of lines) out.write(`${prefix}${line}\n`);
  });
  stream.on("end", () => {
    if (pending) out.write(`${prefix}${pending}\n`);
  });
}

/** Stops every child's whole process group: SIGTERM, then SIGKILL after 5 s. */
async function stopAll() {
  stopping = true;
  for (const { child } of children) signalGroup(child, "SIGTERM");
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline && children.some(({ child }) => groupAlive(child))) await sleep(100);
  for (const { child } of children) if (groupAlive(child)) signalGroup(child, "SIGKILL");
}

function killAllNow() {
  for (const { child } of children) if (groupAlive(child)) signalGroup(child, "SIGKILL");
}

function signalGroup(child, signal) {
  if (child.pid === undefined) return;
  try {
    if (IS_WINDOWS) {
      if (signal === "SIGKILL" || signal === "SIGTERM")
        spawnSync("taskkill", ["/pid", String(child.pid), "/T", "/F"], { stdio: "ignore" });
    } else {
      process.kill(-child.pid, signal);
    }
  } catch {
    // the group is gone already
  }
}

/** Whether any process of the child's group still exists (signal 0 only checks). */
function groupAlive(child) {
  if (child.pid === undefined) return false;
  if (IS_WINDOWS) return child.exitCode === null && child.signalCode === null;
  try {
    process.kill(-child.pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function assertPortFree(port, host, variable) {
  const free = await new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
  if (!free)
    throw new Error(
      `port ${port} on ${host} is in use. Stop what uses it, or choose another port with ${variable}=<port> npm start.`,
    );
}

/** Polls a URL until it answers 2xx, failing after START_TIMEOUT_SECONDS or when npm start is stopping. */
async function waitFor(what, url) {
  const deadline = Date.now() + timeoutMs;
  while (!(await answers(url))) {
    if (stopping) throw new Error(`stopped while waiting for ${what}`);
    if (Date.now() > deadline) throw new Error(`${what} did not answer at ${url} within ${timeoutMs / 1000} s`);
    await sleep(500);
  }
}

function answers(url) {
  return new Promise((resolve) => {
    const client = url.startsWith("https:") ? https : http;
    const request = client.get(url, { rejectUnauthorized: false, timeout: 5000 }, (response) => {
      response.resume();
      resolve((response.statusCode ?? 0) >= 200 && (response.statusCode ?? 0) < 300);
    });
    request.on("timeout", () => request.destroy());
    request.on("error", () => resolve(false));
  });
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function printNextSteps(cert) {
  const trust = cert.trusted
    ? "   The certificate is trusted by this computer already."
    : [
        `   The certificate is self-signed: first open ${devOrigin} in your browser and accept it`,
        cert.certFile
          ? `   (or import ${path.relative(ROOT, cert.certFile)} into your system's trust store, which desktop Excel needs).`
          : "   (desktop Excel needs it in your system's trust store).",
      ].join("\n");
  console.log(`
──────────────────────────────────────────────────────────────────────────────
 Climate Risk add-in is running (development build, local emulator).

 Try it without Excel, in the browser harness (a test and demo tool, not Excel):
   ${devOrigin}/harness.html
 The task pane page alone:        ${devOrigin}/taskpane.html
 The emulator (demo key demo-key, project demo): ${emulatorUrl}
 The geocoder stand-in (Connection > Geocoder, Pelias or Nominatim, no key): ${geocoderUrl}

 Sideload into Excel:
${trust}
   Excel on the web: open a workbook, Home > Add-ins > More add-ins > Upload My Add-in,
     and upload manifest.xml from this folder.
   Excel desktop (Windows or Mac, where Excel is installed), in another terminal:
     npx office-addin-debugging start manifest.xml

 Ctrl-C stops the dev server, the emulator and the geocoder stand-in.
──────────────────────────────────────────────────────────────────────────────`);
}
