/**
 * Asset import validation: every row checked, errors name row (and CSV line) and column,
 * a rejected import leaves the stored portfolio exactly as it was.
 */
import { call, csvForm, portfolioWith, waitAvailable } from "./helpers";
import { useTestEmulator } from "../support/emulator";

const emu = useTestEmulator();
beforeAll(async () => {
  await portfolioWith(
    emu,
    "imp",
    "entity_id,entity_name,lat,lng,label:site\nA1,First,10,20,north\nA2,Second,-5.5,100.25,south\n",
  );
});

const importCsv = (csv: string) => call(emu, "POST", "/api/portfolios/imp/assets/import/", { form: csvForm(csv) });

async function snapshot() {
  return {
    record: (await call(emu, "GET", "/api/portfolios/imp/")).body,
    assets: (await call(emu, "GET", "/api/portfolios/imp/assets?rows=250")).body,
    csv: (await call(emu, "GET", "/api/portfolios/imp/assets/export")).text,
  };
}

test("out-of-bounds coordinates: 400 naming row, line and column", async () => {
  const r = await importCsv("entity_id,lat,lng\nok,1,2\nok2,3,4\nbad,95,20\n");
  expect(r.status).toBe(400);
  expect(r.body.errors).toEqual(["row 3 (line 4), column lat: 95 is out of bounds [-90, 90]"]);
  const lng = await importCsv("lat,lng\n1,-181\n");
  expect(lng.body.errors).toEqual(["row 1 (line 2), column lng: -181 is out of bounds [-180, 180]"]);
});

test("other invalid CSV: 422 naming what is wrong, all rows reported", async () => {
  const r = await importCsv("lat,lng,entity_name\nabc,2,x\n1,,y\n1,2\n");
  expect(r.status).toBe(422);
  expect(r.body.errors).toEqual([
    'row 1 (line 2), column lat: "abc" is not a number',
    "row 2 (line 3), column lng: a value is required",
    "row 3 (line 4): has 2 fields, the header has 3",
  ]);
  const missing = await importCsv("entity_id,lat\nx,1\n");
  expect(missing.status).toBe(422);
  expect(missing.body.errors).toEqual(["header: required column lng is missing"]);
  const unknown = await importCsv("lat,lng,colour\n1,2,red\n");
  expect(unknown.body.errors[0]).toMatch(/^header, column 3: unknown column "colour"/);
  const empty = await importCsv("");
  expect(empty.status).toBe(422);
  expect(empty.body.errors[0]).toMatch(/empty/);
  const headerOnly = await importCsv("lat,lng\n");
  expect(headerOnly.status).toBe(422);
});

test("line numbers follow the file when a quoted field spans lines and blank lines occur", async () => {
  const r = await importCsv('entity_name,lat,lng\n"two\nlines",1,2\n\nx,91,0\n');
  expect(r.body.errors).toEqual(["row 2 (line 5), column lat: 91 is out of bounds [-90, 90]"]);
});

test("more than 5,000 rows is refused", async () => {
  const rows = Array.from({ length: 5001 }, (_, i) => `${i % 80},${i % 170}`);
  const r = await importCsv(`lat,lng\n${rows.join("\n")}\n`);
  expect(r.status).toBe(422);
  expect(r.body.errors[0]).toMatch(/5001 rows; at most 5000/);
});

test("a missing `asset` field is 400", async () => {
  const r = await call(emu, "POST", "/api/portfolios/imp/assets/import/", { form: csvForm("lat,lng\n1,2\n", "file") });
  expect(r.status).toBe(400);
  expect(r.body.errors[0]).toMatch(/^asset/);
});

test("rejected imports leave the portfolio exactly as it was", async () => {
  const before = await snapshot();
  for (const bad of ["lat,lng\n100,0\n", "lat,lng\nx,0\n", "", "lat\n1\n"])
    expect((await importCsv(bad)).status).toBeGreaterThanOrEqual(400);
  expect(await snapshot()).toEqual(before);
});

test("an accepted import replaces the assets, keeps labels, export returns the uploaded bytes", async () => {
  const csv = "entity_id,entity_name,lat,lng,label:kind,label:owner\r\nB1,Only,45.5,-73.6,depot,acme\r\n";
  const r = await importCsv(csv);
  expect(r.status).toBe(202);
  expect((await call(emu, "GET", "/api/portfolios/imp/")).body.status).toBe("Generating risk data");
  await waitAvailable(emu, "imp");
  const assets = (await call(emu, "GET", "/api/portfolios/imp/assets")).body;
  expect(assets).toEqual([
    {
      portfolio_name: "imp",
      portfolio_index: 0,
      entity_id: "B1",
      entity_name: "Only",
      labels: { kind: "depot", owner: "acme" },
      lat: 45.5,
      lng: -73.6,
    },
  ]);
  expect((await call(emu, "GET", "/api/portfolios/imp/assets/export")).text).toBe(csv);
});
