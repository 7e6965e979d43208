/**
 * The disclosure tables as formulas: the Methodology sheet of input cells, and the ESRS E1-9
 * (paragraph 66), IFRS S2 29(c) and TCFD sheets whose every figure is a SUMPRODUCT over the data
 * sheet (model/disclosure.ts) and those input cells, so an analyst who changes a value, a
 * threshold, a hazard's acute/chronic type, a window, a scenario or an FX rate sees every figure
 * follow. No dynamic-array function (Excel 2019 has none, LibreOffice cannot check them) and no
 * RISK.* inside them.
 *
 * Per scenario and horizon (one row each): an asset (one row of the data sheet for that scenario
 * and window) is at material physical risk from a hazard when its score is above that hazard's
 * threshold; acute or chronic when one of the hazards above their threshold is of that type; "any"
 * when one is, so an asset is counted once however many hazards it is at risk from. Amounts are
 * value × the FX rate of its currency to the reporting currency; an asset without a value, or
 * whose currency has no rate, is left out of the amounts and counted in the coverage columns,
 * as is an asset without a score for a hazard: never folded in as zero.
 */
import { HAZARDS, SCENARIOS } from "../../../../shared/vocabulary";
import { message, type Message, type MessageId } from "../../../../i18n/messages";
import { columnLetters, qualify } from "../../../../shaping/a1";
import { ITEMS, METHODOLOGY_HEADER, SECTIONS } from "./disclosure";
import { SOURCES_HEADER, SOURCES_SHEET } from "../../../../shaping/paste-provenance";
import type { CellValue, FormulaSheet } from "../../../../shaping/types";

/** Hazards counted acute by default (ESRS E1 AR 11 lists floods, storms, wildfires and heatwaves as acute). */
export const ACUTE_HAZARDS = ["flood_potential", "cyclone", "wildfire", "heatwave"];

/** The windows standing for the medium and long term by default: ESRS medium is up to 5 years, long beyond. */
export const DEFAULT_HORIZONS = { medium: 5, long: 30 } as const;

/** Default of the significance rule when no value threshold is set: the largest N assets at risk. */
export const DEFAULT_TOP_N = 10;

/** One sheet as the workbook writer takes it (src/excel/write-sheets.ts NewSheetSpec, less provenance). */
export type { FormulaSheet };

/** What the formula sheets are built from. */
export interface DisclosureLayout {
  portfolio: string;
  /** The data sheet's name, its table's name (the formulas name its columns) and header. */
  dataSheet: string;
  dataTable: string;
  dataHeader: readonly string[];
  /** Currencies of the data's values, for the FX rows. */
  currencies: readonly string[];
  /** Names already unique in the workbook (the formulas name them). */
  sheetNames: { methodology: string; e19: string; ifrs: string; tcfd: string; country: string };
  tableNames: { methodology: string; e19: string; ifrs: string; tcfd: string; country: string };
  /** ISO 3166-1 alpha-2 code → the location texts of the data that name it (countries.ts countryCode). */
  countries: ReadonlyMap<string, readonly string[]>;
  /**
   * Words for a reader (the Methodology sheet's notes and limitations, the TCFD line's category) in
   * the pane's language (src/excel/sheet-words.ts); the sections, items, headers and every value
   * a formula reads stay as they are.
   */
  words: (said: Message) => string;
}

/** The four sheets. */
export interface DisclosureSheets {
  methodology: FormulaSheet;
  e19: FormulaSheet;
  /** 66(c)'s location view: amounts at material risk by country, reconciling with E1-9. */
  country: FormulaSheet;
  ifrs: FormulaSheet;
  tcfd: FormulaSheet;
}

const MONEY = "#,##0";
const SHARE = "0.0%";
const COUNT = "0";

/** Methodology rows, with the sheet row of each input the formulas read. */
interface MethodologyPlan {
  rows: CellValue[][];
  thresholdRow: Map<string, number>;
  horizonRow: { short: number; medium: number; long: number };
  scenarioRows: number[];
  fxRows: number[];
  totalAssetsRow: number;
  netRevenueRow: number;
}

/** A hazard's unit as an ICU select key: "days a year, 0..366" → "days_a_year_0_366". */
const unitKey = (unit: string) => unit.replace(/[^A-Za-z0-9]+/g, "_");

function methodologyRows(layout: DisclosureLayout): MethodologyPlan {
  const { words } = layout;
  const rows: CellValue[][] = [];
  const add = (section: string, item: string, value: CellValue, type: CellValue, note: Message | "") => {
    rows.push([section, item, value, type, note === "" ? "" : words(note)]);
    return rows.length + 1; // the sheet row: the header is row 1
  };
  const thresholdRow = new Map<string, number>();
  for (const h of HAZARDS)
    thresholdRow.set(
      h.portfolio,
      add(
        SECTIONS.threshold,
        h.portfolio,
        h.thresholds.medium,
        ACUTE_HAZARDS.includes(h.portfolio) ? "acute" : "chronic",
        message("disclosure.sheet.threshold", {
          unitKey: unitKey(h.unit),
          unit: h.unit,
          high: h.thresholds.medium,
          medium: h.thresholds.low,
        }),
      ),
    );
  const short = add(SECTIONS.horizon, ITEMS.short, "none", "", message("disclosure.sheet.short"));
  const horizon = (term: keyof typeof DEFAULT_HORIZONS) =>
    add(SECTIONS.horizon, ITEMS[term], DEFAULT_HORIZONS[term], "", message("disclosure.sheet.horizon", { term }));
  const medium = horizon("medium");
  const long = horizon("long");
  const scenarioRows = SCENARIOS.map((s, i) =>
    add(SECTIONS.scenario, `scenario ${i + 1}`, s, "", message("disclosure.sheet.scenario")),
  );
  const reporting = layout.currencies.includes("USD") || layout.currencies.length === 0 ? "USD" : layout.currencies[0]!;
  const currencyRow = add(SECTIONS.currency, ITEMS.currency, reporting, "", message("disclosure.sheet.currency"));
  const fxCodes = [reporting, ...layout.currencies.filter((c) => c !== reporting)];
  const fxRows = [
    ...fxCodes.map((code) =>
      add(
        SECTIONS.fx,
        code,
        code === reporting ? 1 : "",
        "",
        code === reporting ? message("disclosure.sheet.fx.reporting") : message("disclosure.sheet.fx.rate", { code }),
      ),
    ),
    ...[1, 2].map(() => add(SECTIONS.fx, "", "", "", message("disclosure.sheet.fx.spare"))),
  ];
  const totalAssetsRow = add(SECTIONS.undertaking, ITEMS.totalAssets, "", "", message("disclosure.sheet.totalAssets"));
  const netRevenueRow = add(SECTIONS.undertaking, ITEMS.netRevenue, "", "", message("disclosure.sheet.netRevenue"));
  add(SECTIONS.significance, ITEMS.significantValue, "", "", message("disclosure.sheet.significantValue"));
  add(SECTIONS.significance, ITEMS.topN, DEFAULT_TOP_N, "", message("disclosure.sheet.topN"));
  const source = (header: string) => {
    const col = columnLetters(SOURCES_HEADER.indexOf(header));
    return `=IFERROR(INDEX(${qualify(SOURCES_SHEET, `$${col}:$${col}`)},MATCH(${excelText(layout.dataSheet)},${qualify(SOURCES_SHEET, "$A:$A")},0))&"",${excelText(words(message("disclosure.sheet.notOnRecord")))})`;
  };
  const fromSources = message("disclosure.sheet.fromSources", { sheet: SOURCES_SHEET });
  add(SECTIONS.dataset, "portfolio", layout.portfolio, "", "");
  add(SECTIONS.dataset, "version", source("Dataset version"), "", fromSources);
  add(SECTIONS.dataset, "sha256", source("Dataset sha256"), "", fromSources);
  add(SECTIONS.dataset, "read (UTC)", source("Written (UTC)"), "", message("disclosure.sheet.read"));
  // Empty unless the last refresh left the data sheet as it was: then every figure here is from the
  // time read above, and the sheet says so (the Sources sheet's mark, by formula).
  const notRefreshedNote = message("disclosure.sheet.notRefreshed");
  add(SECTIONS.dataset, "not refreshed (UTC)", source("Not refreshed (UTC)"), "", notRefreshedNote);
  add(SECTIONS.dataset, "why not refreshed", source("Why not refreshed"), "", "");
  for (const id of LIMITATIONS) add(SECTIONS.limitation, "", words(message(id)), "", "");
  const shortCell = qualify(layout.sheetNames.methodology, `$C$${short}`);
  const mediumCell = qualify(layout.sheetNames.methodology, `$C$${medium}`);
  // One sentence each, the window the analyst typed put in by the formula where the sentence has it.
  const withWindow = (id: MessageId) =>
    words(message(id, { window: WINDOW_MARK }))
      .split(WINDOW_MARK)
      .map(excelText)
      .join(`&${shortCell}&`);
  add(
    SECTIONS.limitation,
    "",
    `=IF(ISNUMBER(${shortCell}),IF(${shortCell}=${mediumCell},${withWindow("disclosure.sheet.limitation.shortIsMedium")},${withWindow("disclosure.sheet.limitation.shortPicked")}),${excelText(words(message("disclosure.sheet.limitation.noShort")))})`,
    "",
    "",
  );
  void currencyRow;
  return {
    rows,
    thresholdRow,
    horizonRow: { short, medium, long },
    scenarioRows,
    fxRows,
    totalAssetsRow,
    netRevenueRow,
  };
}

/** Stands for the short-term window in a sentence the formula completes (no catalog text holds it). */
const WINDOW_MARK = "\u0001";

/** The limitations, in plain words (ESRS E1 AR 69 asks for scope, method, assumptions and limitations). */
export const LIMITATIONS: readonly MessageId[] = [
  "disclosure.sheet.limitation.gross",
  "disclosure.sheet.limitation.scores",
  "disclosure.sheet.limitation.excluded",
  "disclosure.sheet.limitation.windows",
  "disclosure.sheet.limitation.portfolio",
];

/**
 * A column of a table as a structured reference qualified by the table's name (`Data_x[value]`):
 * Excel moves it with the table as rows are added, removed or sorted, and a spreadsheet reading
 * the file evaluates it where the table is defined (a bare `[value]` works only inside the table).
 * Excel's rules ("Using structured references with Excel tables"): `[ ] # '` are escaped with `'`,
 * and a name holding a space or other special character is enclosed in a second pair of brackets.
 */
export function tableColumn(table: string, column: string): string {
  const escaped = column.replace(/['[\]#]/g, (c) => `'${c}`);
  return /^[A-Za-z0-9_]+$/.test(column) ? `${table}[${escaped}]` : `${table}[[${escaped}]]`;
}

/** A string as an Excel formula literal. */
function excelText(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/** Builds the Methodology, E1-9, IFRS S2 29(c) and TCFD sheets over the data sheet. */
export function buildDisclosureSheets(layout: DisclosureLayout): DisclosureSheets {
  const plan = methodologyRows(layout);
  const { sheetNames, tableNames } = layout;
  const m = (row: number, col = "C") => qualify(sheetNames.methodology, `$${col}$${row}`);
  const column = (name: string) => {
    if (!layout.dataHeader.includes(name)) throw new Error(`The data sheet has no column "${name}".`);
    return tableColumn(layout.dataTable, name);
  };
  const hazards = HAZARDS.map((h) => h.portfolio).filter((h) => layout.dataHeader.includes(`${h}_risk_score`));
  const scoreOf = (h: string) => column(`${h}_risk_score`);
  const material = (h: string) => `ISNUMBER(${scoreOf(h)})*(${scoreOf(h)}>${m(plan.thresholdRow.get(h)!)})`;
  const hit = (type?: "acute" | "chronic") =>
    `((${hazards.map((h) => (type ? `${material(h)}*(${m(plan.thresholdRow.get(h)!, "D")}="${type}")` : material(h))).join("+")})>0)`;
  const value = column("value");
  const revenue = column("revenue");
  const currency = column("currency");
  // The rate of each row's currency, looked up once per row whatever the number of currencies (a
  // sum of one product per FX row would pass Excel's 8,192 characters at about 30 currencies). A
  // currency without a rate reads 0: missing, zero and negative rates are all "no rate" below.
  const fx = (col: string) =>
    qualify(sheetNames.methodology, `$${col}$${plan.fxRows[0]!}:$${col}$${plan.fxRows[plan.fxRows.length - 1]!}`);
  const rate = `SUMIF(${fx("B")},${currency},${fx("C")})`;
  const valued = `ISNUMBER(${value})*(${rate}>0)`;
  const adapted = column("adapted");
  const withData = `(${hazards.map((h) => `ISNUMBER(${scoreOf(h)})`).join("+")})`;

  // E1-9: one row per scenario × horizon, columns as E1_HEADER says.
  const e19Rows: CellValue[][] = [];
  // The short term reads the window the analyst picks, else #N/A with its reason in the horizon cell.
  const short = m(plan.horizonRow.short);
  const horizons = [
    {
      name: `=IF(ISNUMBER(${short}),IF(${short}=${m(plan.horizonRow.medium)},"short term (the medium term's window)","short term"),"short term: none (no one-year figure; pick a window on the Methodology sheet)")`,
      window: `=IF(ISNUMBER(${short}),${short},NA())`,
    },
    { name: "medium term", window: `=${m(plan.horizonRow.medium)}` },
    { name: "long term", window: `=${m(plan.horizonRow.long)}` },
  ];
  for (const scenarioRow of plan.scenarioRows) {
    for (const horizon of horizons) {
      const k = e19Rows.length + 2;
      const sel = `(${column("scenario")}=$A${k})*(${column("window")}=$C${k})`;
      const amount = (type?: "acute" | "chronic") => `=SUMPRODUCT(${sel}*${hit(type)}*${valued}*${value}*${rate})`;
      const count = (type?: "acute" | "chronic") => `=SUMPRODUCT(${sel}*${hit(type)})`;
      const share = (numerator: string, denominator: string) =>
        `=IF(N(${denominator})>0,${numerator}/${denominator},NA())`;
      e19Rows.push([
        `=${m(scenarioRow)}&""`,
        horizon.name,
        horizon.window,
        amount("acute"),
        amount("chronic"),
        amount(),
        share(`$D${k}`, m(plan.totalAssetsRow)),
        share(`$E${k}`, m(plan.totalAssetsRow)),
        share(`$F${k}`, m(plan.totalAssetsRow)),
        share(`$F${k}`, `$Q${k}`),
        count("acute"),
        count("chronic"),
        count(),
        `=IF($F${k}>0,SUMPRODUCT(${sel}*${hit()}*${valued}*${value}*${rate}*(${adapted}="yes"))/$F${k},NA())`,
        `=SUMPRODUCT(${sel}*${hit()}*ISNUMBER(${revenue})*(${rate}>0)*${revenue}*${rate})`,
        share(`$O${k}`, m(plan.netRevenueRow)),
        `=SUMPRODUCT(${sel}*${valued}*${value}*${rate})`,
        `=SUMPRODUCT(${sel})`,
        `=$R${k}-SUMPRODUCT(${sel}*${valued})`,
        `=SUMPRODUCT(${sel}*${hit()}*(1-${valued}))`,
        `=SUMPRODUCT(${sel}*(${withData}<${hazards.length}))`,
        `=SUMPRODUCT(${sel}*(${withData}=0))`,
        `=SUMPRODUCT(${sel}*${hit()}*(1-ISNUMBER(${revenue})*(${rate}>0)))`,
        // 66(b)'s unknowns, stated beside it (AR 70(a) allows a range): the value at risk whose
        // adaptation is neither yes nor no, and the share if every one of them were adapted.
        `=SUMPRODUCT(${sel}*${hit()}*${valued}*${value}*${rate}*(${adapted}<>"yes")*(${adapted}<>"no"))`,
        `=IF($F${k}>0,$N${k}+$X${k}/$F${k},NA())`,
      ]);
    }
  }
  const e19: FormulaSheet = {
    sheetName: sheetNames.e19,
    tableName: tableNames.e19,
    header: [...E19_HEADER],
    rows: e19Rows,
    formulaColumns: E19_HEADER.map((_, c) => c),
    numberFormats: {
      3: MONEY,
      4: MONEY,
      5: MONEY,
      6: SHARE,
      7: SHARE,
      8: SHARE,
      9: SHARE,
      10: COUNT,
      11: COUNT,
      12: COUNT,
      13: SHARE,
      14: MONEY,
      15: SHARE,
      16: MONEY,
      17: COUNT,
      18: COUNT,
      19: COUNT,
      20: COUNT,
      21: COUNT,
      22: COUNT,
      23: MONEY,
      24: SHARE,
    },
  };

  // IFRS S2 29(c) and TCFD: the same figures, read from the E1-9 cells of the same row.
  const e = (col: string, k: number) => `=${qualify(sheetNames.e19, `$${col}$${k}`)}`;
  const ifrsRows = e19Rows.map((_, i) => {
    const k = i + 2;
    return [
      e("A", k) + '&""',
      e("B", k) + '&""',
      e("C", k),
      e("F", k),
      e("I", k),
      e("J", k),
      e("M", k),
      e("O", k),
      e("P", k),
      e("R", k),
      e("S", k),
      e("W", k),
    ];
  });
  const ifrs: FormulaSheet = {
    sheetName: sheetNames.ifrs,
    tableName: tableNames.ifrs,
    header: [...IFRS_HEADER],
    rows: ifrsRows,
    formulaColumns: IFRS_HEADER.map((_, c) => c),
    numberFormats: { 3: MONEY, 4: SHARE, 5: SHARE, 6: COUNT, 7: MONEY, 8: SHARE, 9: COUNT, 10: COUNT, 11: COUNT },
  };
  const i = (col: string, k: number) => `=${qualify(sheetNames.ifrs, `$${col}$${k}`)}`;
  const tcfdMetric = layout.words(message("disclosure.sheet.tcfdMetric"));
  const tcfd: FormulaSheet = {
    sheetName: sheetNames.tcfd,
    tableName: tableNames.tcfd,
    header: [...TCFD_HEADER],
    rows: ifrsRows.map((_, r) => {
      const k = r + 2;
      return [tcfdMetric, `${i("A", k)}&""`, `${i("B", k)}&""`, i("D", k), i("E", k), i("H", k), i("I", k)];
    }),
    formulaColumns: [1, 2, 3, 4, 5, 6],
    numberFormats: { 3: MONEY, 4: SHARE, 5: MONEY, 6: SHARE },
  };
  const methodology: FormulaSheet = {
    sheetName: sheetNames.methodology,
    tableName: tableNames.methodology,
    header: [...METHODOLOGY_HEADER],
    rows: plan.rows,
    formulaColumns: [2],
    numberFormats: {},
  };
  const country = countrySheet(layout, e19Rows.length, (k, code) => {
    const sel = `(${column("scenario")}=$A${k})*(${column("window")}=$C${k})`;
    const names = (layout.countries.get(code) ?? []).map(excelText).join(",");
    return (type?: "acute" | "chronic") =>
      `=SUMPRODUCT(${sel}*${hit(type)}*${valued}*${value}*${rate}*ISNUMBER(MATCH(${column("location")},{${names}},0)))`;
  });
  return { methodology, e19, ifrs, tcfd, country };
}

/** The by-country sheet's header. */
export const COUNTRY_HEADER = [
  "scenario",
  "time horizon",
  "window (years)",
  "country (ISO 3166-1)",
  "66(c) assets at material physical risk, acute (reporting currency)",
  "66(c) assets at material physical risk, chronic (reporting currency)",
  "66(c) assets at material physical risk, any hazard (reporting currency)",
] as const;

/** The by-country sheet's last row of each scenario and horizon: E1-9's total less the listed countries. */
export const UNLISTED_COUNTRY = "unlisted or unknown country";

/**
 * 66(c)'s location view: per E1-9 row (scenario × horizon), one row per country of the data (its
 * ISO code; the formula matches every location text naming it), then "unlisted or unknown
 * country" = the E1-9 amount less the rows above, so the sheet always reconciles with E1-9,
 * whatever countries a refresh brings. Acute and chronic overlap: never added together.
 */
function countrySheet(
  layout: DisclosureLayout,
  e19Rows: number,
  amountOf: (sheetRow: number, code: string) => (type?: "acute" | "chronic") => string,
): FormulaSheet {
  const codes = [...layout.countries.keys()].sort();
  const e = (col: string, k: number) => qualify(layout.sheetNames.e19, `$${col}$${k}`);
  const rows: CellValue[][] = [];
  for (let i = 0; i < e19Rows; i++) {
    const k = i + 2;
    const first = rows.length + 2;
    const head = [`=${e("A", k)}&""`, `=${e("B", k)}&""`, `=${e("C", k)}`];
    for (const code of codes) {
      const amount = amountOf(rows.length + 2, code);
      rows.push([...head, code, amount("acute"), amount("chronic"), amount()]);
    }
    const n = rows.length + 2;
    const rest = (col: string, e19Col: string) =>
      codes.length > 0 ? `=${e(e19Col, k)}-SUM(${col}${first}:${col}${n - 1})` : `=${e(e19Col, k)}`;
    rows.push([...head, UNLISTED_COUNTRY, rest("E", "D"), rest("F", "E"), rest("G", "F")]);
  }
  return {
    sheetName: layout.sheetNames.country,
    tableName: layout.tableNames.country,
    header: [...COUNTRY_HEADER],
    rows,
    formulaColumns: [0, 1, 2, 4, 5, 6],
    numberFormats: { 4: MONEY, 5: MONEY, 6: MONEY },
  };
}

/** The E1-9 sheet's header: ESRS E1 paragraph 66 references in each figure's name. */
export const E19_HEADER = [
  "scenario",
  "time horizon",
  "window (years)",
  "66(a) assets at material physical risk, acute (reporting currency)",
  "66(a) assets at material physical risk, chronic (reporting currency)",
  "66(a) assets at material physical risk, any hazard (reporting currency)",
  "66(a) acute, % of total assets",
  "66(a) chronic, % of total assets",
  "66(a) any hazard, % of total assets",
  "66(a) any hazard, % of the portfolio's value",
  "66(a) assets at material risk, acute (count)",
  "66(a) assets at material risk, chronic (count)",
  "66(a) assets at material risk, any hazard (count)",
  "66(b) % of the value at risk addressed by adaptation actions",
  "66(d) net revenue at material physical risk (reporting currency)",
  "66(d) % of net revenue",
  "portfolio value (reporting currency)",
  "coverage: assets",
  "coverage: without a value or FX rate (left out of the amounts)",
  "coverage: at material risk without a value or FX rate",
  "coverage: without data for a hazard",
  "coverage: without any data",
  "66(d) coverage: at material risk without revenue",
  "66(b) value at risk whose adaptation is unknown (reporting currency)",
  "66(b) % addressed if every unknown were adapted (the range's upper end)",
] as const;

/** The IFRS S2 29(c) sheet's header. */
export const IFRS_HEADER = [
  "scenario",
  "time horizon",
  "window (years)",
  "29(c) assets vulnerable to physical risks (reporting currency)",
  "29(c) % of total assets",
  "29(c) % of the portfolio's value",
  "29(c) assets vulnerable (count)",
  "29(c) business activities vulnerable: net revenue (reporting currency)",
  "29(c) % of net revenue",
  "coverage: assets",
  "coverage: without a value or FX rate",
  "coverage: at material risk without revenue",
] as const;

/** The TCFD sheet's header. */
export const TCFD_HEADER = [
  "TCFD cross-industry metric category",
  "scenario",
  "time horizon",
  "amount of assets vulnerable to physical risks (reporting currency)",
  "% of total assets",
  "net revenue vulnerable (reporting currency)",
  "% of net revenue",
] as const;

/**
 * The by-country rows again for the countries of the data now, from the rows the sheet holds (its
 * formulas as they are, the analyst's Methodology references included): each scenario and
 * horizon's first country row is the template, its list of location texts swapped for each
 * country's; the last row's E1-9 reference kept and its sum over the new rows. Undefined when a
 * group has no country row to copy (the tables were made without any country): left as it is.
 */
export function countryRowsAgain(
  formulas: readonly (readonly CellValue[])[],
  countries: ReadonlyMap<string, readonly string[]>,
): CellValue[][] | undefined {
  const codes = [...countries.keys()].sort();
  // Each row with its sheet row: a row's formulas read its own scenario and window cells ($A12, $C12).
  const groups: Array<Array<{ row: CellValue[]; at: number }>> = [];
  formulas.forEach((row, i) => {
    if (i === 0 || row[0] !== formulas[i - 1]![0]) groups.push([]);
    groups[groups.length - 1]!.push({ row: [...row], at: i + 2 });
  });
  const moved = (formula: CellValue, from: number, to: number) =>
    String(formula).replace(new RegExp(`\\$([AC])${from}(?!\\d)`, "g"), (_, col: string) => `$${col}${to}`);
  const rows: CellValue[][] = [];
  const list = /\{[^{}]*\}(?=,0\)\)\)$)/;
  for (const group of groups) {
    const template = group.find((r) => r.row[3] !== UNLISTED_COUNTRY);
    const unlisted = group.find((r) => r.row[3] === UNLISTED_COUNTRY)?.row;
    if (!template || !unlisted || !list.test(String(template.row[4]))) return undefined;
    const first = rows.length + 2;
    for (const code of codes) {
      const names = `{${(countries.get(code) ?? []).map(excelText).join(",")}}`;
      const to = rows.length + 2;
      const amounts = template.row.slice(4, 7).map((f) => moved(String(f).replace(list, names), template.at, to));
      rows.push([...template.row.slice(0, 3), code, ...amounts]);
    }
    const n = rows.length + 2;
    const rest = (f: CellValue, col: string) => {
      const total = String(f).replace(/-SUM\([A-Z]+\d+:[A-Z]+\d+\)$/, "");
      return codes.length > 0 ? `${total}-SUM(${col}${first}:${col}${n - 1})` : total;
    };
    rows.push([...unlisted.slice(0, 4), rest(unlisted[4]!, "E"), rest(unlisted[5]!, "F"), rest(unlisted[6]!, "G")]);
  }
  return rows;
}
