/**
 * The faster path, offered honestly: when a sheet's RISK.SEARCH formulas ask about many distinct
 * points, syncing those points as a new portfolio and reading it with RISK.SUMMARY costs a few
 * pages instead of one request per point, but risk data takes a while to be generated and the
 * summary's numbers are not the search's scores. Pure logic; the pane reads the points and shows
 * the offer.
 */
import { duration } from "../../../../shaping/duration";
import { MAX_ASSETS } from "../../../../shaping/limits";
import { suggestPortfolioName } from "./portfolio-name";

/** More distinct search points than this ("more than a few hundred") and the offer is made. */
export const OFFER_MIN_POINTS = 300;

/** One point a RISK.SEARCH formula asks about. */
export interface SearchPoint {
  lat: number;
  lng: number;
}

/**
 * The distinct points among lat/lng pairs read from a sheet, in order of first appearance: only
 * pairs of numbers within range (what RISK.SEARCH would send), one per (lat, lng) as the engine
 * sends one request per point.
 */
export function distinctSearchPoints(pairs: Iterable<readonly [unknown, unknown]>): SearchPoint[] {
  const seen = new Set<string>();
  const points: SearchPoint[] = [];
  for (const [lat, lng] of pairs) {
    if (typeof lat !== "number" || typeof lng !== "number") continue;
    if (!(Math.abs(lat) <= 90 && Math.abs(lng) <= 180)) continue;
    const key = `${lat}|${lng}`;
    if (seen.has(key)) continue;
    seen.add(key);
    points.push({ lat, lng });
  }
  return points;
}

/** What the estimates rest on: the engine's pace now and its paging settings. */
export interface OfferPace {
  /** Latency of one answer (the engine's recent latency), ms. */
  latencyMs: number;
  /** Searches at once (the engine's adaptive limit now). */
  concurrency: number;
  /** Pages of a dataset in flight at once (the engine's read-ahead). */
  readAhead: number;
  /** Rows a page (250). */
  rows: number;
}

/** The offer, or why none is made. */
export type PortfolioOffer =
  | {
      kind: "offer";
      points: number;
      /** A name no portfolio of the project has. */
      portfolioName: string;
      /** Time of the searches at the present pace. */
      searchMs: number;
      /** Time of the portfolio path the add-in controls: the upload and reading the summary's pages. */
      portfolioMs: number;
      /** Plain words for the pane: what each path costs and what the generation adds. */
      timing: string;
      /** Plain words: the summary's numbers are not the search's scores. */
      caveat: string;
    }
  | { kind: "none"; reason: string };

/** The caveat the pane and the builder show beside the offer. */
export const SUMMARY_IS_NOT_SEARCH =
  "RISK.SUMMARY reads the portfolio's physical summary: its hazards (flood_potential, cyclone, water_stress, " +
  "heatwave, sea_level_rise, wildfire) are scored per scenario over a window of 5, 15 or 30 years, not as " +
  "RISK.SEARCH's 15yr and 30yr scores. The numbers will differ: it is another measure, not a faster copy.";

/**
 * Whether to offer syncing `points` distinct search points as a new portfolio, named after
 * `sheetName` and never over one of `existingPortfolios`, with the time of both paths at `pace`.
 */
export function portfolioOffer(
  points: number,
  sheetName: string,
  existingPortfolios: readonly string[],
  pace: OfferPace,
): PortfolioOffer {
  if (points <= OFFER_MIN_POINTS)
    return { kind: "none", reason: `${points} distinct points: searching them is quick enough` };
  if (points > MAX_ASSETS)
    return {
      kind: "none",
      reason: `${points.toLocaleString("en-US")} distinct points: a portfolio holds at most ${MAX_ASSETS.toLocaleString("en-US")} assets`,
    };
  const searchMs = Math.ceil(points / Math.max(1, pace.concurrency)) * pace.latencyMs;
  // One create and one upload, then the summary's pages (plus the empty one that ends the list),
  // read ahead `readAhead` at a time.
  const pages = Math.floor(points / pace.rows) + 1;
  const portfolioMs = (2 + Math.ceil(pages / Math.max(1, pace.readAhead))) * pace.latencyMs;
  const portfolioName = suggestPortfolioName(`${sheetName}_points`, existingPortfolios);
  return {
    kind: "offer",
    points,
    portfolioName,
    searchMs,
    portfolioMs,
    timing:
      `Searching ${points.toLocaleString("en-US")} points: about ${duration(searchMs)} at the present pace. ` +
      `As portfolio "${portfolioName}": about ${duration(portfolioMs)} to upload and read, after the service ` +
      "has generated its risk data, which takes a while (the service does not say how long).",
    caveat: SUMMARY_IS_NOT_SEARCH,
  };
}
