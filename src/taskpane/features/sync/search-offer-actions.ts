import type { RiskClient } from "../../../api/client";
import { readReferencedValues, readValuesAt } from "../../../excel/cells-by-address";
import { findRiskCells } from "../../../excel/risk-cells";
import { functionsProgress } from "../../../functions/engine/default-engine";
import { DEFAULT_ENGINE_SETTINGS } from "../../../functions/engine/engine";
import { quoteSheetName } from "../../../shaping/a1";
import { riskCall } from "../../../shaping/risk-formula";
import type { CellValue } from "../../../shaping/types";
import type { ForgetChange } from "../../ui/data-change";
import type { ExcelRunner, LongRunning } from "../../ui/pane-types";
import { distinctSearchPoints, portfolioOffer, type PortfolioOffer, type SearchPoint } from "./model/search-offer";
import { syncAssets, type SyncResult } from "./sync-actions";

/**
 * The offer to read a sheet's many search points as a portfolio: find the points its RISK.SEARCH
 * formulas ask about (literal numbers, cells, or the ranges of a column formula), make the offer
 * with the engine's present pace, and, when the analyst accepts, sync the points to the new
 * portfolio. The sheet is only read.
 */

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
/** The latency assumed before the functions have had any answer (about a production search's). */
const ASSUMED_LATENCY_MS = 300;

/** One argument of a RISK.SEARCH formula as written: a number, or a reference to read. */
type Written = { number: number } | { reference: string } | { other: true };

function written(text: string | undefined, sheetName: string): Written {
  const arg = (text ?? "").trim();
  if (NUMBER.test(arg)) return { number: Number(arg) };
  if (/^(?:(?:'(?:[^']|'')+'|[A-Za-z_][\w.]*)!)?\$?[A-Za-z]{1,3}\$?\d+(?::\$?[A-Za-z]{1,3}\$?\d+)?$/.test(arg))
    return { reference: arg.includes("!") ? arg : `${quoteSheetName(sheetName)}!${arg}` };
  return { other: true };
}

/** The distinct points the active sheet's RISK.SEARCH formulas ask about, and the sheet's name. */
export async function searchPointsOnSheet(run: ExcelRunner): Promise<{ sheetName: string; points: SearchPoint[] }> {
  return run(async (context) => {
    const searches = (await findRiskCells(context, "sheet", false)).flatMap((cell) => {
      const call = riskCall(cell.formula);
      return call?.fn === "SEARCH" ? [{ cell, args: call.args }] : [];
    });
    const sheetName = searches[0]?.cell.sheetName ?? "";
    const formulas = searches.map(({ cell, args }) => ({
      lat: written(args[0], cell.sheetName),
      lng: written(args[1], cell.sheetName),
    }));
    // Ranges (a column formula's) are read whole; single cells all at once, in one request.
    const references = formulas.flatMap((f) => [f.lat, f.lng]).flatMap((w) => ("reference" in w ? [w.reference] : []));
    const ranges = [...new Set(references.filter((r) => r.includes(":")))];
    const singles = [...new Set(references.filter((r) => !r.includes(":")))];
    const rangeValues = new Map<string, CellValue[]>();
    for (const range of ranges) rangeValues.set(range, ((await readValuesAt(context, range)) ?? []).flat());
    const singleValues =
      singles.length > 0 ? await readReferencedValues(context, singles) : new Map<string, CellValue>();
    const valuesOf = (w: Written): CellValue[] =>
      "number" in w
        ? [w.number]
        : "reference" in w
          ? (rangeValues.get(w.reference) ?? [singleValues.get(w.reference) ?? ""])
          : [];
    const pairs: [CellValue, CellValue][] = [];
    for (const f of formulas) {
      const lats = valuesOf(f.lat);
      const lngs = valuesOf(f.lng);
      const n = Math.max(lats.length, lngs.length);
      // A single value pairs with every row, as Excel broadcasts it; ranges pair element by element.
      for (let i = 0; i < n; i++)
        pairs.push([lats.length === 1 ? lats[0]! : lats[i]!, lngs.length === 1 ? lngs[0]! : lngs[i]!]);
    }
    return { sheetName, points: distinctSearchPoints(pairs) };
  });
}

/** What the pane shows: the sheet, its distinct points, and the offer (or why there is none). */
export interface SheetOffer {
  sheetName: string;
  points: SearchPoint[];
  offer: PortfolioOffer;
}

/** Reads the sheet's points and makes the offer, at the functions' present pace, never over an existing portfolio. */
export async function offerForSheet(run: ExcelRunner, client: RiskClient, signal?: AbortSignal): Promise<SheetOffer> {
  const { sheetName, points } = await searchPointsOnSheet(run);
  const progress = functionsProgress();
  const existing = points.length > 300 ? (await client.portfolios.list({ signal })).map((p) => p.portfolio_name) : [];
  const offer = portfolioOffer(points.length, sheetName || "Sheet", existing, {
    latencyMs: progress.latencyMs ?? ASSUMED_LATENCY_MS,
    concurrency: progress.concurrency,
    readAhead: DEFAULT_ENGINE_SETTINGS.readAhead,
    rows: DEFAULT_ENGINE_SETTINGS.rows,
  });
  return { sheetName, points, offer };
}

/** Options of {@link syncSearchPoints}. */
export interface SyncPointsOptions extends LongRunning {
  client: RiskClient;
  portfolio: string;
  points: readonly SearchPoint[];
  forget?: ForgetChange;
  pollIntervalMs?: number;
}

/**
 * Syncs the points as the new portfolio (entity ids P1, P2, … in the order found, so asset index
 * i is the (i+1)-th point), then waits for its risk data. A portfolio that appeared meanwhile under
 * that name is never replaced: the sync stops as declined.
 */
export function syncSearchPoints(options: SyncPointsOptions): Promise<SyncResult> {
  const values: CellValue[][] = [
    ["entity_id", "lat", "lng"],
    ...options.points.map((p, i) => [`P${i + 1}`, p.lat, p.lng]),
  ];
  return syncAssets(
    { values, address: `Points!A1:C${values.length}` },
    {
      client: options.client,
      portfolio: options.portfolio,
      confirmReplace: async () => false,
      forget: options.forget,
      pollIntervalMs: options.pollIntervalMs,
      signal: options.signal,
      onProgress: options.onProgress,
    },
  );
}
