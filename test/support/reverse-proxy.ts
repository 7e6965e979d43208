/**
 * Running the shipped reverse-proxy configurations (deploy/) in tests, on 127.0.0.1 only: a
 * certificate made with openssl, an https "service" in front of an emulator (the upstream whose
 * certificate the proxy must verify, recording the headers that reach it), and nginx or Caddy
 * started on the shipped file with only its CHANGE values replaced. Each server binary is optional:
 * `serverBinary` says whether it is installed, and the tests skip with a message when not.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(__dirname, "..", "..");
/** The shipped nginx site file. */
export const NGINX_SITE = path.join(ROOT, "deploy", "nginx", "climate-risk-addin.conf");
/** The shipped Caddyfile. */
export const CADDYFILE = path.join(ROOT, "deploy", "caddy", "Caddyfile");

/** The service's hosts as the shipped files name them (their certificates must carry these names). */
export const SERVICE_HOSTS = ["risk.example.com", "nature.example.com"];

/** Where nginx or caddy is installed, or undefined (Debian: `apt-get install nginx-light caddy`). */
export function serverBinary(name: "nginx" | "caddy"): string | undefined {
  for (const dir of ["/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin"]) {
    const file = path.join(dir, name);
    if (existsSync(file)) return file;
  }
  return undefined;
}

/** A fresh temporary folder, removed by the returned function. */
export function scratchDir(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A self-signed certificate (its own authority) for these DNS names and 127.0.0.1. */
export function makeCertificate(dir: string, name: string, dnsNames: string[]): { cert: string; key: string } {
  const cert = path.join(dir, `${name}.crt`);
  const key = path.join(dir, `${name}.key`);
  const san = [...dnsNames.map((n) => `DNS:${n}`), "IP:127.0.0.1"].join(",");
  execFileSync(
    "openssl",
    ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", `/CN=${dnsNames[0]}`].concat([
      "-addext",
      `subjectAltName=${san}`,
      "-keyout",
      key,
      "-out",
      cert,
    ]),
    { stdio: "ignore" },
  );
  return { cert, key };
}

/** One request as it reached the https service. */
export interface UpstreamRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

/** The https "service": TLS with `certificate`, forwarding everything to `emulatorUrl`. */
export interface TlsService {
  /** https://127.0.0.1:PORT */
  url: string;
  readonly requests: readonly UpstreamRequest[];
  close(): Promise<void>;
}

/** Starts the https service in front of an emulator (http://127.0.0.1:PORT). */
export async function startTlsService(
  emulatorUrl: string,
  certificate: { cert: string; key: string },
): Promise<TlsService> {
  const target = new URL(emulatorUrl);
  const requests: UpstreamRequest[] = [];
  const server = https.createServer(
    { cert: readFileSync(certificate.cert), key: readFileSync(certificate.key) },
    (request, response) => {
      requests.push({ method: request.method ?? "", url: request.url ?? "", headers: request.headers });
      const upstream = http.request(
        {
          host: target.hostname,
          port: target.port,
          method: request.method,
          path: request.url,
          headers: { ...request.headers, host: target.host },
        },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      upstream.on("error", () => {
        if (!response.headersSent) response.writeHead(502);
        response.end();
      });
      request.pipe(upstream);
    },
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A free port on 127.0.0.1 (the OS picks it; the caller binds it right away). */
export async function freePort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Replaces each `[from, to]` in a shipped file's text, and fails when one is not found exactly
 * once: a shipped file that drifted from what its test replaces fails the test instead of passing
 * on a stale copy.
 */
export function withReplacements(text: string, replacements: [string, string][], file: string): string {
  let out = text;
  for (const [from, to] of replacements) {
    const count = out.split(from).length - 1;
    if (count !== 1) throw new Error(`${file}: expected "${from}" once, found it ${count} times`);
    out = out.replace(from, () => to);
  }
  return out;
}

/** A proxy server started on a shipped configuration. */
export interface RunningProxy {
  /** Its origin, http://127.0.0.1:PORT */
  origin: string;
  /** Everything it wrote to its logs so far (access and error logs). */
  logs(): string;
  close(): Promise<void>;
}

/** What a proxy forwards to, and what it trusts. */
export interface ProxyTargets {
  /** The https service standing for both the base URL (/) and the nature URL (/nature/). */
  serviceUrl: string;
  /** The certificate authority the proxy trusts for the service (instead of the system's). */
  trustedCa: string;
  /** Scratch folder for configuration, logs and state. */
  dir: string;
}

/**
 * nginx on deploy/nginx/climate-risk-addin.conf: listening on 127.0.0.1 (plain http), serving
 * `root` (and office.js from node_modules, which a development build loads from /office-js/),
 * forwarding /risk-api/ and /risk-nature/ to the https service.
 */
export async function startNginx(targets: ProxyTargets & { root: string }): Promise<RunningProxy> {
  const binary = serverBinary("nginx");
  if (!binary) throw new Error("nginx is not installed");
  const { dir } = targets;
  const port = await freePort();
  const own = makeCertificate(dir, "addin", ["addin.example.com"]);
  const service = new URL(targets.serviceUrl);
  const officeJs = path.join(ROOT, "node_modules", "@microsoft", "office-js", "dist");
  const site = withReplacements(
    readFileSync(NGINX_SITE, "utf8"),
    [
      // Plain http on 127.0.0.1 (a loopback page may use it; the tests' fetch and browser need no
      // certificate of the add-in's host). The upstream side keeps its TLS and verification.
      ["listen 443 ssl http2;", `listen 127.0.0.1:${port};`],
      ["/etc/ssl/addin.example.com/fullchain.pem", own.cert],
      ["/etc/ssl/addin.example.com/privkey.pem", own.key],
      ["/var/log/nginx/climate-risk-addin.access.log", path.join(dir, "access.log")],
      ["/var/log/nginx/climate-risk-addin.error.log", path.join(dir, "error.log")],
      ["root /srv/climate-risk-addin/dist;", `root ${targets.root};`],
      ["/etc/ssl/certs/ca-certificates.crt", targets.trustedCa],
      ["proxy_pass https://risk.example.com/;", `proxy_pass https://${service.host}/;`],
      ["proxy_pass https://nature.example.com/;", `proxy_pass https://${service.host}/nature/;`],
      // Only the tests' development build loads office.js locally; a production build uses the CDN.
      ["    location / {", `    location /office-js/ {\n        alias ${officeJs}/;\n    }\n    location / {`],
    ],
    NGINX_SITE,
  );
  writeFileSync(path.join(dir, "site.conf"), site);
  const temp = (name: string) => `${name} ${path.join(dir, name)};`;
  writeFileSync(
    path.join(dir, "nginx.conf"),
    [
      "worker_processes 1;",
      `pid ${path.join(dir, "nginx.pid")};`,
      `error_log ${path.join(dir, "error.log")} warn;`,
      "events { worker_connections 256; }",
      "http {",
      "  include /etc/nginx/mime.types;",
      "  default_type application/octet-stream;",
      `  ${temp("client_body_temp_path")} ${temp("proxy_temp_path")}`,
      `  ${temp("fastcgi_temp_path")} ${temp("uwsgi_temp_path")} ${temp("scgi_temp_path")}`,
      `  include ${path.join(dir, "site.conf")};`,
      "}",
      "",
    ].join("\n"),
  );
  const child = spawn(binary, ["-p", dir, "-c", path.join(dir, "nginx.conf"), "-g", "daemon off;"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  return running(child, `http://127.0.0.1:${port}`, dir, ["access.log", "error.log"]);
}

/**
 * Caddy on deploy/caddy/Caddyfile: plain http on 127.0.0.1 (Caddy's own certificate automation
 * needs a public name), serving `root`, forwarding /risk-api/ and /risk-nature/ to the https
 * service, and trusting `trustedCa` for it in place of the system's authorities.
 */
export async function startCaddy(targets: ProxyTargets & { root: string }): Promise<RunningProxy> {
  const binary = serverBinary("caddy");
  if (!binary) throw new Error("caddy is not installed");
  const { dir } = targets;
  const port = await freePort();
  const service = new URL(targets.serviceUrl);
  const trust = (host: string) => [
    `tls_server_name ${host} # CHANGE: its host, as its certificate names it`,
    `tls_server_name ${host}\n\t\t\t\ttls_trusted_ca_certs ${targets.trustedCa}`,
  ];
  const caddyfile = withReplacements(
    readFileSync(CADDYFILE, "utf8"),
    [
      [
        "addin.example.com {",
        `{\n\tadmin off\n\tauto_https off\n\tstorage file_system ${dir}\n}\n\nhttp://127.0.0.1:${port} {\n\tbind 127.0.0.1`,
      ],
      ["root * /srv/climate-risk-addin/dist", `root * ${targets.root}`],
      ["/var/log/caddy/climate-risk-addin.access.log", path.join(dir, "access.log")],
      ["reverse_proxy https://risk.example.com {", `reverse_proxy https://${service.host} {`],
      // The tests' service serves nature under /nature: the Caddyfile's note for a URL with a path.
      [
        "\t\treverse_proxy https://nature.example.com {",
        `\t\trewrite * /nature{uri}\n\t\treverse_proxy https://${service.host} {`,
      ],
      trust("risk.example.com") as [string, string],
      trust("nature.example.com") as [string, string],
    ],
    CADDYFILE,
  );
  const file = path.join(dir, "Caddyfile");
  writeFileSync(file, caddyfile);
  const child = spawn(binary, ["run", "--config", file, "--adapter", "caddyfile"], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir },
  });
  return running(child, `http://127.0.0.1:${port}`, dir, ["access.log"]);
}

/** Waits until the server answers on `origin` (or exits), and wraps it. */
async function running(child: ChildProcess, origin: string, dir: string, logFiles: string[]): Promise<RunningProxy> {
  let output = "";
  child.stderr?.on("data", (data: Buffer) => (output += data.toString()));
  const exited = new Promise<never>((_, reject) =>
    child.once("exit", (code) =>
      reject(new Error(`${path.basename(String(child.spawnfile))} exited (${code}):\n${output}`)),
    ),
  );
  exited.catch(() => undefined);
  const logs = () =>
    [
      output,
      ...logFiles
        .map((f) => path.join(dir, f))
        .filter(existsSync)
        .map((f) => readFileSync(f, "utf8")),
    ].join("\n");
  const deadline = Date.now() + 15_000;
  for (;;) {
    const up = await Promise.race([answers(origin), exited]);
    if (up) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`the proxy did not answer on ${origin} within 15 s:\n${logs()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    origin,
    logs,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** Whether anything answers HTTP(S) at `origin` (any status). */
function answers(origin: string): Promise<boolean> {
  const client = origin.startsWith("https:") ? https : http;
  return new Promise((resolve) => {
    const request = client.get(`${origin}/`, { rejectUnauthorized: false, timeout: 1000 }, (response) => {
      response.resume();
      resolve(true);
    });
    request.on("error", () => resolve(false));
    request.on("timeout", () => request.destroy());
  });
}

/** A proxy on a shipped configuration, the https service behind it, and their scratch folder. */
export interface ProxiedService {
  proxy: RunningProxy;
  service: TlsService;
  /** Stops both and removes the folder. */
  close(): Promise<void>;
}

/**
 * The whole chain in one call: an https service in front of `emulatorUrl` with a certificate for
 * SERVICE_HOSTS, and `server` on its shipped configuration in front of that, serving `root`
 * (default: nothing of interest) and trusting the service's certificate, or with
 * `trust: "stranger"` another one (so it must refuse the service). `serviceNames`: the names the
 * service's certificate carries instead of SERVICE_HOSTS (others: the proxy must refuse it).
 */
export async function startProxiedService(
  server: "nginx" | "caddy",
  emulatorUrl: string,
  options: { root?: string; trust?: "service" | "stranger"; serviceNames?: string[] } = {},
): Promise<ProxiedService> {
  const scratch = scratchDir(`climate-risk-${server}-`);
  const certificate = makeCertificate(scratch.dir, "service", options.serviceNames ?? SERVICE_HOSTS);
  const trusted = options.trust === "stranger" ? makeCertificate(scratch.dir, "stranger", SERVICE_HOSTS) : certificate;
  const service = await startTlsService(emulatorUrl, certificate);
  const start = server === "nginx" ? startNginx : startCaddy;
  let proxy: RunningProxy;
  try {
    proxy = await start({
      serviceUrl: service.url,
      trustedCa: trusted.cert,
      dir: scratch.dir,
      root: options.root ?? scratch.dir,
    });
  } catch (error) {
    await service.close();
    scratch.remove();
    throw error;
  }
  return {
    proxy,
    service,
    close: async () => {
      await proxy.close();
      await service.close();
      scratch.remove();
    },
  };
}
