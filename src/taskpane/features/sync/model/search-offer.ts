/**
 * The faster path, offered honestly: when a sheet's RISK.SEARCH formulas ask about many distinct
 * points, syncing those points as a new portfolio and reading it with RISK.SUMMARY costs a few
 * pages instead of one request per point, but risk data takes a while to be generated and the
 * summary's numbers are not the search's scores. Pure logic; the pane reads the points and shows
 * the offer.
 */
import { message, type Message } from "../../../../i18n/messages";
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
      timing: Message;
      /** Plain words: the summary's numbers are not the search's scores. */
      caveat: Message;
    }
  | { kind: "none"; reason: Message };

/** The caveat the pane and the builder show beside the offer. */
export const SUMMARY_IS_NOT_SEARCH: Message = message("sync.searchOffer.notSearch");

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
  if (points <= OFFER_MIN_POINTS) return { kind: "none", reason: message("sync.searchOffer.few", { count: points }) };
  if (points > MAX_ASSETS)
    return { kind: "none", reason: message("sync.searchOffer.tooMany", { count: points, limit: MAX_ASSETS }) };
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
    // "45 s", "4 min 10 s": the units read the same in the three languages (as the usage line's estimate).
    timing: message("sync.searchOffer.timing", {
      count: points,
      search: duration(searchMs),
      portfolio: portfolioName,
      upload: duration(portfolioMs),
    }),
    caveat: SUMMARY_IS_NOT_SEARCH,
  };
}
