/** The offer to sync many search points as a portfolio: when it is made, its name, times and caveat. */
import { duration } from "../../../../../src/shaping/duration";
import {
  distinctSearchPoints,
  OFFER_MIN_POINTS,
  portfolioOffer,
  SUMMARY_IS_NOT_SEARCH,
} from "../../../../../src/taskpane/features/sync/model/search-offer";
import { english } from "../../../../support/english";

const PACE = { latencyMs: 300, concurrency: 6, readAhead: 4, rows: 250 };

test("distinct points: numbers in range only, one per (lat, lng), in order of first appearance", () => {
  const points = distinctSearchPoints([
    [51.5, -0.12],
    [51.5, -0.12],
    [48.85, 2.35],
    ["51.5", -0.12], // text: RISK.SEARCH would refuse it, nothing is sent
    [95, 0], // out of range
    [null, null], // a blank row
    [48.85, 2.35],
  ]);
  expect(points).toEqual([
    { lat: 51.5, lng: -0.12 },
    { lat: 48.85, lng: 2.35 },
  ]);
});

test("no offer for a few hundred points or fewer, nor for more than a portfolio holds", () => {
  expect(portfolioOffer(OFFER_MIN_POINTS, "Sites", [], PACE)).toMatchObject({ kind: "none" });
  const tooMany = portfolioOffer(5_001, "Sites", [], PACE);
  expect(tooMany.kind).toBe("none");
  expect(tooMany.kind === "none" && english(tooMany.reason)).toBe(
    "5,001 distinct points: a portfolio holds at most 5,000 assets.",
  );
});

test("5,000 points at 300 ms and 6 at once: the searches take minutes, the portfolio's pages seconds", () => {
  const offer = portfolioOffer(5_000, "Sites", [], PACE);
  if (offer.kind !== "offer") throw new Error(english(offer.reason));
  expect(offer.searchMs).toBe(Math.ceil(5_000 / 6) * 300); // 250 s
  // create + upload, then 21 pages (20 full and the empty one) 4 at a time: 6 rounds.
  expect(offer.portfolioMs).toBe((2 + 6) * 300);
  expect(english(offer.timing)).toBe(
    'Searching 5,000 points: about 4 min 10 s at the present pace. As portfolio "Sites_points": about 2 s to ' +
      "upload and read, after the service has generated its risk data, which takes a while (the service does " +
      "not say how long).",
  );
  expect(offer.caveat).toBe(SUMMARY_IS_NOT_SEARCH);
  expect(english(offer.caveat)).toMatch(/numbers will differ/);
});

test("the suggested portfolio is never one that exists", () => {
  const offer = portfolioOffer(400, "Sites", ["sites_points", "Sites_points_2"], PACE);
  expect(offer).toMatchObject({ kind: "offer", portfolioName: "Sites_points_3" });
});

test("durations read as seconds, then minutes and seconds", () => {
  expect(duration(400)).toBe("1 s");
  expect(duration(45_000)).toBe("45 s");
  expect(duration(120_000)).toBe("2 min");
  expect(duration(250_000)).toBe("4 min 10 s");
});
