/**
 * Shared helpers of the emulator tests: talk to an emulator (started with test/support/emulator.ts)
 * over real HTTP with a given key and project.
 */
import type { RunningEmulator } from "../../emulator/server";
import { DEMO_API_KEY, DEMO_PROJECT } from "../../src/shared/vocabulary";

/**
 * A response with its parsed body (JSON when JSON, text otherwise). Without T the body is `any`:
 * these tests read JSON of every route's shape and their assertions are what checks it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above; typing each read is its own change
export interface Answer<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** Options of one call. */
export interface CallOptions {
  key?: string | null;
  project?: string | null;
  json?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
}

/** Calls the emulator; defaults to the demo connection's key and project (DEMO_HEADERS). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the body type of Answer, see there
export async function call<T = any>(
  emu: RunningEmulator,
  method: string,
  path: string,
  o: CallOptions = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...(o.headers ?? {}) };
  const key = o.key === undefined ? DEMO_API_KEY : o.key;
  const project = o.project === undefined ? DEMO_PROJECT : o.project;
  if (key !== null) headers["X-Service-APIKey"] = key;
  if (project !== null) headers["X-Service-Project"] = project;
  let body: BodyInit | undefined;
  if (o.json !== undefined) {
    headers["Content-Type"] = "application/json";
    body = typeof o.json === "string" ? o.json : JSON.stringify(o.json);
  } else if (o.form) body = o.form;
  const res = await fetch(`${emu.url}${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  if ((res.headers.get("content-type") ?? "").includes("application/json") && text !== "") parsed = JSON.parse(text);
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

/** A multipart form holding one CSV file in the field `asset`. */
export function csvForm(csv: string, field = "asset"): FormData {
  const form = new FormData();
  form.append(field, new Blob([csv], { type: "text/csv" }), "assets.csv");
  return form;
}

/** Creates a portfolio and imports a CSV into it, then waits until its risk data is available. */
export async function portfolioWith(
  emu: RunningEmulator,
  name: string,
  csv: string,
  o: { key?: string; project?: string } = {},
): Promise<void> {
  const created = await call(emu, "POST", "/api/portfolios/", { ...o, json: { portfolio_name: name } });
  if (created.status !== 201) throw new Error(`create ${name}: ${created.status} ${created.text}`);
  const imported = await call(emu, "POST", `/api/portfolios/${name}/assets/import/`, { ...o, form: csvForm(csv) });
  if (imported.status !== 202) throw new Error(`import ${name}: ${imported.status} ${imported.text}`);
  await waitAvailable(emu, name, o);
}

/** Polls a portfolio until its status is `Risk data available`. */
export async function waitAvailable(
  emu: RunningEmulator,
  name: string,
  o: { key?: string; project?: string } = {},
): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const p = await call(emu, "GET", `/api/portfolios/${name}/`, o);
    if (p.body.status === "Risk data available") return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`portfolio ${name} never became available`);
}

/** A CSV of n assets on a deterministic spiral over the world. */
export function spiralCsv(n: number): string {
  const lines = ["entity_id,entity_name,lat,lng,label:group"];
  for (let i = 0; i < n; i++) {
    const lat = Math.round((-60 + ((i * 37) % 120)) * 1000) / 1000;
    const lng = Math.round((-170 + ((i * 53.3) % 340)) * 1000) / 1000;
    lines.push(`E${i},Asset ${i},${lat},${lng},g${i % 3}`);
  }
  return lines.join("\n") + "\n";
}
