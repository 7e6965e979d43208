/**
 * The workbook a newcomer sees when the harness opens: a "Demo" sheet with a few cities and
 * RISK.SEARCH formulas (numbers appear at once from the emulator), one column formula over the
 * latitude and longitude ranges that spills a score per city, RISK.SUMMARY cells over the
 * emulator's seeded `demo-portfolio`, and an "Assets" sheet holding a small assets table to try
 * the task pane's sync with. Skipped with `harness.html?demo=0` (the browser tests start empty).
 */
import type { FakeExcel } from "../testing/fake-excel";
import type { WorkbookController } from "./workbook-controller";

/** The seeded demo portfolio of the emulator (emulator/state/seed.ts). */
export const DEMO_PORTFOLIO = "demo-portfolio";

const CITIES: ReadonlyArray<[string, number, number]> = [
  ["London", 51.5074, -0.1278],
  ["Mumbai", 19.076, 72.8777],
  ["Miami", 25.7617, -80.1918],
  ["Jakarta", -6.2088, 106.8456],
  ["Sydney", -33.8688, 151.2093],
];

const ASSETS: ReadonlyArray<[string, string, number, number, string]> = [
  ["A-001", "Rotterdam port", 51.9244, 4.4777, "NL"],
  ["A-002", "Hamburg depot", 53.5511, 9.9937, "DE"],
  ["A-003", "Lyon plant", 45.764, 4.8357, "FR"],
  ["A-004", "Valencia warehouse", 39.4699, -0.3763, "ES"],
  ["A-005", "Naples office", 40.8518, 14.2681, "IT"],
  ["A-006", "Gdansk yard", 54.352, 18.6466, "PL"],
];

/** Fill the fake with the demo sheets; the Demo sheet ends up active with A1 selected. */
export async function loadDemoWorkbook(fake: FakeExcel, workbook: WorkbookController): Promise<void> {
  await fake.run(async (context) => {
    const first = context.workbook.worksheets.getActiveWorksheet();
    first.name = "Demo";
    context.workbook.worksheets.add("Assets");
  });

  workbook.setCells("Demo!A1", [
    ["Point search (RISK.SEARCH): type a latitude and longitude, or a formula of your own"],
    [
      "City",
      "Latitude",
      "Longitude",
      "Floods 15yr score",
      "Wildfire 30yr score",
      "Heatwaves 30yr label",
      "Floods 30yr (one column formula)",
    ],
    ...CITIES.map(([city, lat, lng], i) => {
      const row = i + 3;
      return [
        city,
        lat,
        lng,
        `=RISK.SEARCH(B${row},C${row},"floods","15yr")`,
        `=RISK.SEARCH(B${row},C${row},"wildfire","30yr")`,
        `=RISK.SEARCH(B${row},C${row},"heatwaves","30yr",,"label")`,
        // One formula for the whole column: it spills into the rows below.
        ...(i === 0 ? [`=RISK.SEARCH(B3:B${CITIES.length + 2},C3:C${CITIES.length + 2},"floods","30yr")`] : []),
      ];
    }),
  ]);
  const summaryTop = CITIES.length + 5;
  workbook.setCells(`Demo!A${summaryTop}`, [
    [`Portfolio summary (RISK.SUMMARY) of "${DEMO_PORTFOLIO}", asset 0, ssp245, 30-year window`],
    ["Hazard", "Score", "Class"],
    ...["flood_potential", "wildfire", "heatwave", "water_stress"].map((hazard, i) => {
      const row = summaryTop + 2 + i;
      return [
        hazard,
        `=RISK.SUMMARY("${DEMO_PORTFOLIO}",0,A${row})`,
        `=RISK.SUMMARY("${DEMO_PORTFOLIO}",0,A${row},,,"class")`,
      ];
    }),
  ]);

  await fake.run(async (context) => {
    const sheet = context.workbook.worksheets.getItem("Assets");
    const header = ["entity_id", "entity_name", "lat", "lng", "label:country"];
    const last = String.fromCharCode(64 + header.length);
    sheet.getRange(`A1:${last}${ASSETS.length + 1}`).values = [header, ...ASSETS.map((row) => [...row])];
    const table = sheet.tables.add(`A1:${last}${ASSETS.length + 1}`, true);
    table.name = "DemoAssets";
  });
  workbook.select("Demo!A1");
}
