import { PROVENANCE_STORE_SHEET, SOURCES_SHEET } from "../../../src/shaping/paste-provenance";
import { WRITTEN_STORE_PREFIX } from "../../../src/excel/written-store";
import { NotFoundError } from "../../../src/api/errors";
import { pasteAppliedLayer } from "../../../src/taskpane/features/layer/applied-layer-actions";
import { downloadExport, listExportFiles, unpackExport } from "../../../src/taskpane/features/export/export-actions";
import { pasteSummary } from "../../../src/taskpane/features/summary/summary-actions";
import {
  describeIndicator,
  estimateTimeseriesRows,
  estimateTimeseriesTables,
  loadTimeseriesCatalog,
  pasteTimeseries,
} from "../../../src/taskpane/features/timeseries/timeseries-actions";
import { CancelledError } from "../../../src/taskpane/ui/pane-types";
import { DEFAULT_PAYLOAD_LIMIT_BYTES } from "../../../testing/fake-excel";
import { columnLetters as col } from "../../../src/shaping/a1";
import { countRequests, newWorkbook, usePaneTestService } from "../support";
import { emulatorStats } from "../../support/emulator";
import { TIMESERIES_HEADER_START } from "../../support/fixtures";
import { englishTranslator } from "../../../src/i18n/translator";
import { wordsOf } from "../../../src/taskpane/ui/i18n";

/**
 * Pulling service data into new sheets, end to end: emulator over HTTP, fake workbook. Every
 * paste adds exactly its sheet(s); a failed or cancelled one adds none.
 */

const PORTFOLIO = "demo-portfolio";

const service = usePaneTestService();

describe("timeseries → new sheet", () => {
  test("the form describes the chosen indicator from the published metadata: unit, range, grid in degrees", async () => {
    const catalog = await loadTimeseriesCatalog(service.client, PORTFOLIO);
    const heat = catalog.indicators.find((i) => i.hazard === "heatwave" && i.indicator === "freq")!;
    expect(typeof heat.spatial_resolution).toBe("number");
    expect(describeIndicator(heat)).toBe(`days a year · 0 to 366 · ${heat.spatial_resolution}° grid`);
    const metadata = await service.client.datasets.metadata(PORTFOLIO);
    const portfolio = await service.client.portfolios.get(PORTFOLIO);
    expect(metadata).toMatchObject({
      portfolio_name: PORTFOLIO,
      created_at: portfolio.created_at,
      updated_at: portfolio.updated_at,
    });
  });

  test("every item becomes one row, numbers stay numbers, in a table with an optional chart", async () => {
    const { fake, run } = newWorkbook();
    const filters = { hazard: "heatwave", indicator: "freq", scenario: "ssp585", measure: "mid", startYear: 2020 };
    const catalog = await loadTimeseriesCatalog(service.client, PORTFOLIO);
    const expected = await service.client.datasets
      .items(PORTFOLIO, { hazard: "heatwave", indicator: "freq", scenario: "ssp585", measure: "mid", start_date: 2020 })
      .all();
    expect(estimateTimeseriesRows(catalog, filters)).toBe(expected.length);

    const fractions: number[] = [];
    const result = await pasteTimeseries({
      client: service.client,
      run,
      portfolio: PORTFOLIO,
      filters,
      catalog,
      chartAssets: [0, 1],
      rows: 10,
      onProgress: (p) => p.fraction !== undefined && fractions.push(p.fraction),
    });
    expect(result.rowCount).toBe(expected.length);
    expect(result.chart).toBe(true);
    // The paste adds its sheet, plus the provenance store (very hidden) and the visible Sources sheet.
    expect(fake.sheetNames()).toEqual([
      "Sheet1",
      result.sheetName,
      `${WRITTEN_STORE_PREFIX}1`,
      PROVENANCE_STORE_SHEET,
      SOURCES_SHEET,
    ]);
    expect(fake.activeSheetName()).toBe(result.sheetName);
    expect(fractions.length).toBeGreaterThan(3);

    const years = [...expected[0].risk_exposure.keys].sort();
    const header = fake.read(result.sheetName, `A1:${col(6 + years.length)}1`)[0];
    expect(header.slice(0, 7)).toEqual(TIMESERIES_HEADER_START);
    expect(header.slice(7)).toEqual(years.map(Number).every(Number.isFinite) ? header.slice(7) : years);
    const rows = fake.read(result.sheetName, `A2:${col(6 + years.length)}${expected.length + 1}`);
    rows.forEach((row, i) => {
      const item = expected[i];
      expect(row.slice(1, 7)).toEqual([item.entity_id, item.entity_name, "heatwave", "freq", "ssp585", "mid"]);
      years.forEach((year, j) => {
        expect(typeof row[7 + j]).toBe("number");
        expect(row[7 + j]).toBeCloseTo(item.risk_exposure.get(year) as number, 12);
      });
    });
    expect(fake.snapshot().tables.map((t) => t.name)).toHaveLength(1);
    expect(fake.snapshot().sheets.find((s) => s.name === result.sheetName)?.charts).toBe(1);
  });

  test("Cancel while reading leaves no new sheet", async () => {
    const { fake, run } = newWorkbook();
    const controller = new AbortController();
    const attempt = pasteTimeseries({
      client: service.client,
      run,
      portfolio: PORTFOLIO,
      filters: { hazard: "water_stress" },
      rows: 5,
      readAhead: 1,
      signal: controller.signal,
      onProgress: (p) => {
        if (wordsOf(englishTranslator, p.message).startsWith("Read 10 ")) controller.abort();
      },
    });
    await expect(attempt).rejects.toBeInstanceOf(CancelledError);
    expect(fake.sheetNames()).toEqual(["Sheet1"]);
  });

  test("Cancel once rows are written (while later pages are still read) removes the hidden half-written sheets", async () => {
    const { fake, run } = newWorkbook();
    fake.setRequestLimit(DEFAULT_PAYLOAD_LIMIT_BYTES);
    const controller = new AbortController();
    let hiddenWhileStreaming: string[] = [];
    const attempt = pasteTimeseries({
      client: service.client,
      run,
      portfolio: PORTFOLIO,
      filters: { hazard: "wildfire", scenario: "ssp245" },
      rows: 20,
      // Small requests: a chunk is synced long before the last page is read.
      maxRequestBytes: 60_000,
      signal: controller.signal,
      onProgress: (p) => {
        const wrote = /wrote ([\d,]+) rows/.exec(wordsOf(englishTranslator, p.message));
        if (wrote && wrote[1] !== "0" && !controller.signal.aborted) {
          hiddenWhileStreaming = fake
            .snapshot()
            .sheets.filter((s) => s.visibility === "Hidden")
            .map((s) => s.name);
          controller.abort();
        }
      },
    });
    await expect(attempt).rejects.toBeInstanceOf(CancelledError);
    expect(hiddenWhileStreaming.length).toBeGreaterThan(0);
    expect(fake.sheetNames()).toEqual(["Sheet1"]);
  });

  test("projected and observed series go to separate sheets, each fully filled, and the estimate says each size", async () => {
    const { fake, run } = newWorkbook();
    const filters = { hazard: "heatwave", scenario: "ssp585", measure: "mid" };
    const catalog = await loadTimeseriesCatalog(service.client, PORTFOLIO);
    const estimate = estimateTimeseriesTables(catalog, filters);
    const result = await pasteTimeseries({
      client: service.client,
      run,
      portfolio: PORTFOLIO,
      filters,
      catalog,
      chartAssets: [0],
      rows: 7,
    });
    expect(result.sheets.map((s) => s.kind)).toEqual(["projected", "observed"]);
    for (const sheet of result.sheets) {
      expect({ rows: sheet.rowCount, columns: sheet.columnCount }).toEqual(estimate[sheet.kind]);
      const grid = fake.read(sheet.sheetName, `A1:${col(sheet.columnCount - 1)}${sheet.rowCount + 1}`);
      const keys = grid[0].slice(7).map(String);
      expect(keys.every((k) => (sheet.kind === "observed" ? /^\d{4}-\d{2}$/ : /^\d{4}$/).test(k))).toBe(true);
      expect(grid.slice(1).every((row) => row.every((v) => v !== ""))).toBe(true); // no blank cell anywhere
    }
    // The line chart picker still works: the chosen asset's series are drawn on each sheet.
    for (const sheet of result.sheets)
      expect(fake.snapshot().sheets.find((s) => s.name === sheet.sheetName)?.charts).toBe(1);
  });

  test("a failing sync in the middle of the write leaves no sheet and reports the failure", async () => {
    const { fake, run } = newWorkbook();
    // Fail once the rows are in: when the block is made into a table.
    fake.setFaultInjector((info) => (info.operations.includes("tables.add") ? {} : undefined));
    await expect(
      pasteTimeseries({
        client: service.client,
        run,
        portfolio: PORTFOLIO,
        filters: { hazard: "cyclone", scenario: "ssp585", measure: "mid" },
      }),
    ).rejects.toThrow();
    fake.setFaultInjector(undefined);
    expect(fake.sheetNames()).toEqual(["Sheet1"]);
  });

  test("the first pages are read while Excel is still opening the sheets, and the paste then completes", async () => {
    const { fake, run } = newWorkbook();
    const itemsRequests = async () => countRequests(await emulatorStats(service.emulator), "physical/items");
    const before = await itemsRequests();
    // Excel on the web, busy: the sync that opens the paste's sheets is not answered.
    const opening = fake.holdNextSync();
    const paste = pasteTimeseries({
      client: service.client,
      run,
      portfolio: PORTFOLIO,
      filters: { hazard: "wildfire", scenario: "ssp245" },
      rows: 5,
      readAhead: 2,
    });
    await opening.held;
    let readMeanwhile = 0;
    for (let waited = 0; readMeanwhile < 2 && waited < 5_000; waited += 10) {
      await new Promise((r) => setTimeout(r, 10));
      readMeanwhile = (await itemsRequests()) - before;
    }
    expect(readMeanwhile).toBeGreaterThanOrEqual(2);
    expect(fake.sheetNames()).toEqual(["Sheet1"]);
    opening.release();
    const pasted = await paste;
    expect(pasted.rowCount).toBeGreaterThan(5);
    expect(fake.sheetNames()).toContain(pasted.sheetName);
  });

  test("when Excel cannot open the sheets, reading stops and no sheet is left", async () => {
    const { fake, run } = newWorkbook();
    const itemsRequests = async () => countRequests(await emulatorStats(service.emulator), "physical/items");
    const before = await itemsRequests();
    fake.failSync(1);
    await expect(
      pasteTimeseries({
        client: service.client,
        run,
        portfolio: PORTFOLIO,
        filters: { hazard: "wildfire", scenario: "ssp245" },
        rows: 2,
        readAhead: 2,
      }),
    ).rejects.toThrow();
    const read = (await itemsRequests()) - before;
    await new Promise((r) => setTimeout(r, 50));
    expect((await itemsRequests()) - before).toBe(read); // nothing read after the failure
    expect(read).toBeLessThan(10); // the portfolio's series take more pages than that at 2 rows a page
    expect(fake.sheetNames()).toEqual(["Sheet1"]);
  });

  test("an unknown portfolio fails and leaves no sheet", async () => {
    const { fake, run } = newWorkbook();
    await expect(
      pasteTimeseries({ client: service.client, run, portfolio: "no_such_portfolio", filters: { hazard: "cyclone" } }),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect(fake.sheetNames()).toEqual(["Sheet1"]);
  });
});

describe("applied layer → new sheet", () => {
  test("the apply CSV becomes a table, one row per asset, numbers as numbers", async () => {
    const { fake, run } = newWorkbook();
    const vectors = await service.client.compositions.listVectors();
    const vector = vectors.find((v) => v.name === "demo-losses")!;
    const raw = await service.client.compositions.applyVector(vector.id, PORTFOLIO);
    const assets = await service.client.portfolios.assets(PORTFOLIO).all();

    const result = await pasteAppliedLayer({
      client: service.client,
      run,
      vectorId: vector.id,
      vectorName: vector.name,
      portfolio: PORTFOLIO,
    });
    expect(result.rowCount).toBe(assets.length);
    expect(fake.sheetNames()).toContain(result.sheetName);
    const csvHeader = raw.csv.split(/\r?\n/)[0].split(",");
    const header = fake.read(result.sheetName, `A1:${col(result.columnCount - 1)}1`)[0];
    expect(header).toEqual(csvHeader.map((h) => h.replace(/^"|"$/g, "")));
    const body = fake.read(result.sheetName, `A2:${col(result.columnCount - 1)}${result.rowCount + 1}`);
    expect(body.some((row) => row.some((cell) => typeof cell === "number"))).toBe(true);
  });

  test("an unknown vector fails with 404 and leaves no sheet", async () => {
    const { fake, run } = newWorkbook();
    await expect(
      pasteAppliedLayer({ client: service.client, run, vectorId: "999999", portfolio: PORTFOLIO }),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect(fake.sheetNames()).toEqual(["Sheet1"]);
  });
});

describe("summary → new sheets", () => {
  test("default and extended summaries, flattened, with LOW/MEDIUM/HIGH conditional colours", async () => {
    const { fake, run } = newWorkbook();
    const summary = await service.client.datasets.summary(PORTFOLIO, { scenario: "ssp585" }).all();
    const written = await pasteSummary({ client: service.client, run, portfolio: PORTFOLIO, scenario: "ssp585" });
    expect(written).toHaveLength(2);
    expect(written[0].rowCount).toBe(summary.length);
    const assets = await service.client.portfolios.assets(PORTFOLIO).all();
    expect(written[1].rowCount).toBe(assets.length);
    const snapshot = fake.snapshot();
    for (const sheet of written)
      expect(snapshot.sheets.find((s) => s.name === sheet.sheetName)!.conditionalFormats).toBeGreaterThan(0);
    const labels = fake.read(written[0].sheetName, `A1:${col(written[0].columnCount - 1)}${written[0].rowCount + 1}`);
    const classColumn = labels[0].findIndex((h) => String(h).endsWith("_risk_class"));
    expect(classColumn).toBeGreaterThanOrEqual(0);
    for (const row of labels.slice(1)) expect(["LOW", "MEDIUM", "HIGH"]).toContain(row[classColumn]);
  });
});

describe("export ZIP → sheets", () => {
  test("the download is a ZIP whose CSV files unpack into one new sheet each, all at once", async () => {
    const { fake, run } = newWorkbook();
    const download = await downloadExport(service.client, PORTFOLIO);
    expect(download.fileName).toBe("demo-portfolio-physical-export.zip");
    expect(Array.from(download.bytes.slice(0, 2))).toEqual([0x50, 0x4b]);
    const files = listExportFiles(download);
    expect(files.length).toBeGreaterThan(0);

    const written = await unpackExport({ run, download });
    expect(written.map((w) => w.rowCount)).toEqual(files.map((f) => f.rows));
    expect(fake.sheetNames()).toEqual(["Sheet1", ...written.map((w) => w.sheetName)]);
    for (const name of fake.sheetNames()) expect(name.length).toBeLessThanOrEqual(31);
  });

  test("a failure at the last step of unpacking leaves none of the sheets", async () => {
    const { fake, run } = newWorkbook();
    const download = await downloadExport(service.client, PORTFOLIO);
    // Fail the very last request: every sheet is written, only showing them remains.
    fake.setFaultInjector((info) => (info.operations.includes("activate") ? {} : undefined));
    await expect(unpackExport({ run, download })).rejects.toThrow();
    fake.setFaultInjector(undefined);
    expect(fake.sheetNames()).toEqual(["Sheet1"]);
  });
});
