/**
 * The https certificate for the dev server (`npm start`), found or made without asking anything:
 *
 *  1. office-addin-dev-certs, when that package is installed (or its certificates were installed
 *     with `npx office-addin-dev-certs install`) AND this platform lets it trust its own
 *     certificate authority (Windows and macOS; on Linux it writes certificates but cannot trust
 *     them, and exits 0 anyway: see docs/harness.md). Browsers and Excel then trust it.
 *  2. A self-signed certificate for localhost / 127.0.0.1 made with `openssl req -x509` into
 *     .certs/ (gitignored), reused while it stays valid for at least another day. A browser or
 *     Excel must be told once to trust it (visit https://localhost:3000 and accept, or import
 *     .certs/localhost.crt into the system's trust store).
 *  3. Nothing: webpack-dev-server generates its own self-signed certificate (same caveat as 2).
 *
 * Run alone with `node scripts/certificate.mjs` to print what would be used.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { X509Certificate } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const ONE_DAY_MS = 24 * 60 * 60 * 1000;

/**
 * @typedef {object} Certificate
 * @property {"office-addin-dev-certs" | "openssl" | "webpack-dev-server"} source who made it
 * @property {string | undefined} certFile PEM certificate (undefined: webpack-dev-server makes one)
 * @property {string | undefined} keyFile PEM private key
 * @property {boolean} trusted whether the system already trusts it (only office-addin-dev-certs)
 * @property {boolean} reused whether an existing certificate was reused
 * @property {string} note one line for the console saying what it means
 */

/**
 * Finds or makes the dev server's certificate (see the file comment for the order of choices).
 * @param {{dir?: string, origin?: string, log?: (line: string) => void}} [options] dir: where openssl
 *   certificates go (default .certs/); origin: the dev server's address, for the console note
 * @returns {Promise<Certificate>}
 */
export async function ensureCertificate(options = {}) {
  const dir = options.dir ?? path.join(ROOT, ".certs");
  const log = options.log ?? (() => undefined);
  const origin = options.origin ?? "https://localhost:3000";

  const office = await tryOfficeAddinDevCerts(dir, log);
  if (office) return office;

  const certFile = path.join(dir, "localhost.crt");
  const keyFile = path.join(dir, "localhost.key");
  if (stillValid(certFile) && existsSync(keyFile)) {
    return {
      source: "openssl",
      certFile,
      keyFile,
      trusted: false,
      reused: true,
      note: selfSignedNote(certFile, origin),
    };
  }
  if (hasOpenssl()) {
    mkdirSync(dir, { recursive: true });
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "30",
        "-subj",
        "/CN=localhost",
        "-addext",
        "subjectAltName=DNS:localhost,IP:127.0.0.1",
        "-keyout",
        keyFile,
        "-out",
        certFile,
      ],
      { stdio: "ignore" },
    );
    log(`Made a self-signed certificate for localhost in ${path.relative(ROOT, dir) || dir}/ (valid 30 days).`);
    return {
      source: "openssl",
      certFile,
      keyFile,
      trusted: false,
      reused: false,
      note: selfSignedNote(certFile, origin),
    };
  }
  return {
    source: "webpack-dev-server",
    certFile: undefined,
    keyFile: undefined,
    trusted: false,
    reused: false,
    note: "openssl was not found: webpack-dev-server generates its own self-signed certificate; your browser must accept it once.",
  };
}

/**
 * office-addin-dev-certs only where it can make its certificate trusted: installed, and not on
 * Linux (where `install` cannot reach a trust store, prints an error and still exits 0).
 */
async function tryOfficeAddinDevCerts(dir, log) {
  if (process.platform !== "win32" && process.platform !== "darwin") return undefined;
  let devCerts;
  try {
    const require = createRequire(path.join(ROOT, "package.json"));
    devCerts = await import(pathToFileURL(require.resolve("office-addin-dev-certs")).href);
  } catch {
    return installedElsewhere(); // not a dependency of this project; maybe installed with npx
  }
  try {
    const api = devCerts.default ?? devCerts;
    const options = await api.getHttpsServerOptions(); // installs and trusts the CA when needed (may show an OS prompt)
    mkdirSync(dir, { recursive: true });
    const certFile = path.join(dir, "office-addin-localhost.crt");
    const keyFile = path.join(dir, "office-addin-localhost.key");
    writeFileSync(certFile, options.cert);
    writeFileSync(keyFile, options.key, { mode: 0o600 });
    return officeCertificate(certFile, keyFile);
  } catch (error) {
    log(
      `office-addin-dev-certs could not provide a trusted certificate (${error?.message ?? error}); using a self-signed one.`,
    );
    return undefined;
  }
}

/** Certificates left by `npx office-addin-dev-certs install` (Windows/macOS), if still valid. */
function installedElsewhere() {
  const home = path.join(os.homedir(), ".office-addin-dev-certs");
  const certFile = path.join(home, "localhost.crt");
  const keyFile = path.join(home, "localhost.key");
  return stillValid(certFile) && existsSync(keyFile) ? officeCertificate(certFile, keyFile) : undefined;
}

function officeCertificate(certFile, keyFile) {
  return {
    source: "office-addin-dev-certs",
    certFile,
    keyFile,
    trusted: true,
    reused: false,
    note: "Certificate from office-addin-dev-certs, whose authority this computer trusts: Excel and browsers accept it.",
  };
}

/** True when the PEM file exists, parses, names localhost and stays valid for at least a day. */
function stillValid(certFile) {
  if (!existsSync(certFile)) return false;
  try {
    const cert = new X509Certificate(readFileSync(certFile));
    const now = Date.now();
    return (
      Date.parse(cert.validFrom) <= now &&
      Date.parse(cert.validTo) - now > ONE_DAY_MS &&
      (cert.subjectAltName ?? "").includes("DNS:localhost")
    );
  } catch {
    return false;
  }
}

function hasOpenssl() {
  const probe = spawnSync("openssl", ["version"], { stdio: "ignore" });
  return probe.status === 0;
}

function selfSignedNote(certFile, origin) {
  return (
    `Self-signed certificate ${path.relative(ROOT, certFile)} (not trusted by this computer): ` +
    `open ${origin} once and accept it, or import it into your system's trust store, before sideloading.`
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const cert = await ensureCertificate({ log: (line) => console.log(line) });
  console.log(JSON.stringify(cert, null, 2));
}
