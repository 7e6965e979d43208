/**
 * Portfolios over real HTTP: names of 3 to 30 characters, `{message}` answers of
 * import and delete, dated item filters with monthly narrowing, the three download routes (whose
 * numbers agree with the lists), and sub-project names unique within a superproject.
 */
import Papa from "papaparse";
import { unzipSync, strFromU8 } from "fflate";
import type { PhysicalItemRecord, SummaryItem } from "../../src/api/types";
import { call, csvForm, portfolioWith, spiralCsv } from "./helpers";
import { DEMO_HEADERS, startTestEmulator, useTestEmulator } from "../support/emulator";
import { squarePlot, TIMESERIES_HEADER_START } from "../support/fixtures";

const emu = useTestEmulator();
beforeAll(async () => {
  await portfolioWith(emu, "dl-sites", spiralCsv(7));
});

const P = "/api/portfolios/dl-sites/datasets/physical";

/** Every page of a list, as the published client reads it (rows of 100). */
async function all<T>(path: string, query: Record<string, string>): Promise<T[]> {
  const out: T[] = [];
  for (let page = 1; ; page++) {
    const r = await call<T[]>(
      emu,
      "GET",
      `${path}?${new URLSearchParams({ ...query, page: String(page), rows: "100" })}`,
    );
    expect(r.status).toBe(200);
    out.push(...r.body);
    if (r.body.length < 100) return out;
  }
}

async function download(path: string, query: Record<string, string> = {}) {
  const res = await fetch(`${emu.url}${path}?${new URLSearchParams(query)}`, {
    headers: DEMO_HEADERS,
  });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** The parts of an OpenAPI operation parameter the document test reads. */
interface OpenApiParameter {
  name: string;
  schema: { enum?: string[] };
  "x-inferred"?: boolean;
}

describe("portfolio names", () => {
  test.each([
    ["ab", /portfolio_name: "ab" has 2 characters; names have 3 to 30/],
    ["x".repeat(31), /portfolio_name: "x{31}" has 31 characters; names have 3 to 30/],
    ["has space", /portfolio_name: .*letters, digits, _ and -/],
    ["dot.ted", /portfolio_name: /],
  ])("%s is refused with 400 naming portfolio_name, and nothing is created", async (name, message) => {
    const before = await call(emu, "GET", "/api/portfolios/");
    const r = await call(emu, "POST", "/api/portfolios/", { json: { portfolio_name: name } });
    expect(r.status).toBe(400);
    expect(r.body.errors[0]).toMatch(message);
    expect((await call(emu, "GET", "/api/portfolios/")).body).toEqual(before.body);
  });

  test("3 and 30 characters of letters, digits, _ and - are accepted", async () => {
    for (const name of ["a-1", "A_".repeat(15)]) {
      const r = await call(emu, "POST", "/api/portfolios/", { json: { portfolio_name: name } });
      expect(r.status).toBe(201);
      expect(r.body.portfolio_name).toBe(name);
    }
  });
});

describe("{message} answers", () => {
  test("import answers 202 with a message; delete answers 200 with a message and the portfolio is gone", async () => {
    expect((await call(emu, "POST", "/api/portfolios/", { json: { portfolio_name: "msg-one" } })).status).toBe(201);
    const imported = await call(emu, "POST", "/api/portfolios/msg-one/assets/import/", { form: csvForm(spiralCsv(3)) });
    expect(imported.status).toBe(202);
    expect(imported.body.message).toMatch(/3 assets imported into msg-one/);
    const deleted = await call(emu, "DELETE", "/api/portfolios/msg-one/");
    expect(deleted.status).toBe(200);
    expect(deleted.headers.get("content-type")).toMatch(/application\/json/);
    expect(deleted.body.message).toMatch(/msg-one deleted/);
    expect((await call(emu, "GET", "/api/portfolios/msg-one/")).status).toBe(404);
    const again = await call(emu, "DELETE", "/api/portfolios/msg-one/");
    expect(again.status).toBe(404);
    expect(again.body.errors[0]).toMatch(/msg-one/);
  });
});

describe("start_date and end_date", () => {
  const observed = { hazard: "wildfire", indicator: "obs_score", scenario: "ssp585", measure: "mid", entity_id: "E1" };
  const projected = {
    hazard: "wildfire",
    indicator: "unified_prob",
    scenario: "ssp585",
    measure: "mid",
    entity_id: "E1",
  };

  test("dates narrow observed monthly series to the months in range, and projections by year", async () => {
    const monthly = await all<PhysicalItemRecord>(`${P}/items`, {
      ...observed,
      start_date: "2010-03-15",
      end_date: "2011-02-01",
    });
    expect(Object.keys(monthly[0].risk_exposure)).toEqual([
      "2010-03",
      "2010-04",
      "2010-05",
      "2010-06",
      "2010-07",
      "2010-08",
      "2010-09",
      "2010-10",
      "2010-11",
      "2010-12",
      "2011-01",
      "2011-02",
    ]);
    const whole = await all<PhysicalItemRecord>(`${P}/items`, observed);
    for (const [k, v] of Object.entries(monthly[0].risk_exposure)) expect(v).toBe(whole[0].risk_exposure[k]);

    const yearly = await all<PhysicalItemRecord>(`${P}/items`, {
      ...projected,
      start_date: "2030-06-30",
      end_date: "2032-01-01",
    });
    expect(Object.keys(yearly[0].risk_exposure)).toEqual(["2030", "2031", "2032"]);
  });

  test("a year alone is still accepted and covers its whole year", async () => {
    const monthly = await all<PhysicalItemRecord>(`${P}/items`, { ...observed, start_date: "2012", end_date: "2012" });
    expect(Object.keys(monthly[0].risk_exposure)).toHaveLength(12);
    expect(Object.keys(monthly[0].risk_exposure)[0]).toBe("2012-01");
  });

  test.each([
    ["start_date", "2020-13-01", /start_date: "2020-13-01" is not a date that exists/],
    ["end_date", "2021-02-29", /end_date: "2021-02-29" is not a date that exists/],
    ["start_date", "2020-05", /start_date: "2020-05" is not a date \(YYYY-MM-DD\) or a year \(YYYY\)/],
    ["end_date", "May 2020", /end_date: "May 2020" is not a date/],
  ])("%s=%s is refused with 400 naming the parameter", async (name, value, message) => {
    const r = await call(emu, "GET", `${P}/items?${new URLSearchParams({ [name]: value })}`);
    expect(r.status).toBe(400);
    expect(r.body.errors[0]).toMatch(message);
  });

  test("a start after the end is refused, to the day", async () => {
    const r = await call(emu, "GET", `${P}/items?start_date=2020-05-02&end_date=2020-05-01`);
    expect(r.status).toBe(400);
    expect(r.body.errors[0]).toMatch(/start_date: 2020-05-02 is after end_date 2020-05-01/);
    expect((await call(emu, "GET", `${P}/items?start_date=2020-05-01&end_date=2020-05-01`)).status).toBe(200);
  });
});

describe("downloads", () => {
  test(
    "items export: CSV by default, " + "an attachment whose numbers are the list's, filters and dates applied",
    async () => {
      const query = { hazard: "heatwave", scenario: "ssp245", start_date: "2019-11-01", end_date: "2030" };
      const listed = await all<PhysicalItemRecord>(`${P}/items`, query);
      const file = await download(`${P}/items/export`, query);
      expect(file.status).toBe(200);
      expect(file.headers.get("content-type")).toMatch(/^text\/csv/);
      expect(file.headers.get("content-disposition")).toBe('attachment; filename="dl-sites-items.csv"');
      const parsed = Papa.parse<string[]>(text(file.bytes).trim());
      const [header, ...rows] = parsed.data;
      expect(header.slice(0, 7)).toEqual(TIMESERIES_HEADER_START);
      const dates = header.slice(7);
      expect(dates).toContain("2019-11");
      expect(dates).toContain("2030");
      expect(dates).not.toContain("2019-10");
      expect(dates).not.toContain("2031");
      expect(rows).toHaveLength(listed.length);
      rows.forEach((row, i) => {
        const item = listed[i];
        expect(row.slice(0, 7)).toEqual([
          String(item.portfolio_index),
          item.entity_id,
          item.entity_name,
          item.hazard,
          item.indicator,
          item.scenario,
          item.measure,
        ]);
        dates.forEach((d, j) =>
          expect(row[7 + j]).toBe(item.risk_exposure[d] === undefined ? "" : String(item.risk_exposure[d])),
        );
      });
    },
  );

  test("items export as JSON is the list's items; page and rows narrow it to one page", async () => {
    const query = { hazard: "cyclone", measure: "ub" };
    const listed = await all<PhysicalItemRecord>(`${P}/items`, query);
    const file = await download(`${P}/items/export`, { ...query, file_format: "json" });
    expect(file.headers.get("content-type")).toMatch(/^application\/json/);
    expect(file.headers.get("content-disposition")).toMatch(/filename="dl-sites-items\.json"/);
    expect(JSON.parse(text(file.bytes))).toEqual(listed);
    const page2 = await download(`${P}/items/export`, { ...query, file_format: "json", page: "2", rows: "5" });
    expect(JSON.parse(text(page2.bytes))).toEqual(listed.slice(5, 10));
  });

  test("summary export: the summary's rows, one column pair per hazard; JSON is the list", async () => {
    const listed = await all<SummaryItem>(`${P}/summary`, { scenario: "ssp585" });
    const file = await download(`${P}/summary/export`, { scenario: "ssp585" });
    expect(file.status).toBe(200);
    expect(file.headers.get("content-disposition")).toBe('attachment; filename="dl-sites-summary.csv"');
    const [header, ...rows] = Papa.parse<string[]>(text(file.bytes).trim()).data;
    expect(header.slice(0, 6)).toEqual([
      "portfolio_index",
      "entity_id",
      "entity_name",
      "scenario",
      "window",
      "window_start_year",
    ]);
    expect(rows).toHaveLength(listed.length);
    rows.forEach((row, i) => {
      for (const s of listed[i].risk_summaries) {
        const at = header.indexOf(`${s.hazard}_risk_class`);
        expect(row[at]).toBe(s.risk_class);
        expect(Number(row[at + 1])).toBe(s.risk_score);
      }
    });
    const json = await download(`${P}/summary/export`, { scenario: "ssp585", window: "30", file_format: "json" });
    expect(JSON.parse(text(json.bytes))).toEqual(listed.filter((x) => x.window === 30));
  });

  test("export/json holds the ZIP's tables with the same numbers", async () => {
    const zip = await download(`${P}/export`);
    const files = unzipSync(zip.bytes);
    const json = await download(`${P}/export/json`);
    expect(json.status).toBe(200);
    expect(json.headers.get("content-disposition")).toBe('attachment; filename="dl-sites-physical.json"');
    const doc = JSON.parse(text(json.bytes));
    expect(doc.portfolio_name).toBe("dl-sites");
    const csvNames = Object.keys(files)
      .filter((f) => f.endsWith(".csv"))
      .map((f) => f.replace(/\.csv$/, ""))
      .sort();
    expect(Object.keys(doc.tables).sort()).toEqual(csvNames);
    for (const name of csvNames) {
      const parsed = Papa.parse<Record<string, unknown>>(strFromU8(files[`${name}.csv`]).trim(), {
        header: true,
        dynamicTyping: true,
      });
      const table = doc.tables[name];
      expect(table.fields).toEqual(parsed.meta.fields);
      expect(table.data.length).toBe(parsed.data.length);
      parsed.data.forEach((row, i) =>
        table.fields.forEach((f: string, j: number) => expect(table.data[i][j]).toEqual(row[f] ?? "")),
      );
    }
  });

  test("bad input is refused with {errors} naming the parameter; unknown portfolio 404; generating 409", async () => {
    const format = await call(emu, "GET", `${P}/items/export?file_format=xlsx`);
    expect(format.status).toBe(400);
    expect(format.body.errors[0]).toMatch(/file_format: "xlsx" is not one of csv, json/);
    const extended = await call(emu, "GET", `${P}/summary/export?extended=true`);
    expect(extended.status).toBe(400);
    expect(extended.body.errors[0]).toMatch(/^extended:/);
    const date = await call(emu, "GET", `${P}/items/export?end_date=2020-02-30`);
    expect(date.status).toBe(400);
    expect(date.body.errors[0]).toMatch(/^end_date:/);
    for (const route of ["items/export", "summary/export", "export/json"]) {
      const r = await call(emu, "GET", `/api/portfolios/nowhere/datasets/physical/${route}`);
      expect(r.status).toBe(404);
      expect(r.body.errors[0]).toMatch(/nowhere/);
    }
    const slow = await startTestEmulator({ processingDelayMs: 60_000 });
    try {
      await call(slow, "POST", "/api/portfolios/", { json: { portfolio_name: "cooking" } });
      await call(slow, "POST", "/api/portfolios/cooking/assets/import/", { form: csvForm(spiralCsv(2)) });
      const r = await call(slow, "GET", "/api/portfolios/cooking/datasets/physical/items/export");
      expect(r.status).toBe(409);
      expect(r.headers.get("retry-after")).toBeTruthy();
    } finally {
      await slow.close();
    }
  });

  test("the OpenAPI document lists the downloads and marks file_format inferred", async () => {
    const doc = (await call(emu, "GET", "/swagger.json", { key: null })).body;
    for (const path of ["items/export", "summary/export", "export/json"])
      expect(doc.paths[`/api/portfolios/{portfolio_name}/datasets/physical/${path}`]?.get).toBeDefined();
    const params = doc.paths["/api/portfolios/{portfolio_name}/datasets/physical/items/export"].get.parameters;
    const fileFormat = params.find((p: OpenApiParameter) => p.name === "file_format");
    expect(fileFormat["x-inferred"]).toBe(true);
    expect(fileFormat.schema.enum).toEqual(["csv", "json"]);
    expect(doc.paths["/api/portfolios/{portfolio_name}/"].delete.responses["200"]).toBeDefined();
  });
});

describe("nature sub-project names", () => {
  const area = (name: string) => squarePlot({ "Entity Name": name });

  test(
    "projectName names the sub-project in the header's superproject; " +
      "a second of that name is 409 and nothing is added",
    async () => {
      const first = await call(emu, "POST", "/nature/projects", {
        project: "nc-demo",
        json: { projectName: "North block", geojson: area("Entity A"), type: "NCS" },
      });
      expect(first.status).toBe(201);
      expect(first.body).toMatchObject({ project: "nc-demo", name: "North block" });
      const before = (await call(emu, "GET", "/nature/projects", { project: "nc-demo" })).body;
      const dup = await call(emu, "POST", "/nature/projects", {
        project: "nc-demo",
        json: { projectName: "North block", geojson: area("Entity B"), type: "NCS" },
      });
      expect(dup.status).toBe(409);
      expect(dup.body.errors[0]).toMatch(
        /projectName: a sub-project named "North block" already exists in superproject nc-demo/,
      );
      expect((await call(emu, "GET", "/nature/projects", { project: "nc-demo" })).body).toEqual(before);
      const other = await call(emu, "POST", "/nature/projects", {
        project: "nc-demo",
        json: { projectName: "South block", geojson: area("Entity A"), type: "NCS" },
      });
      expect(other.status).toBe(201);
    },
  );
});
