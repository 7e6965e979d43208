/**
 * Inputs and expected values several test files share, written once: a nature area's GeoJSON and
 * the fixed columns a timeseries table starts with. Expected values stay literal here (not read
 * from src), so a test still fails when the code changes what the user sees.
 */

/**
 * A FeatureCollection of one polygon feature with this outer ring and these feature properties,
 * as a nature sub-project, a vector layer or a GeoJSON import takes it (or refuses it: a ring of
 * three positions is too short, one whose last position is not its first is open).
 */
export function polygonPlot(ring: number[][], properties: Record<string, unknown> = {}) {
  return {
    type: "FeatureCollection",
    features: [{ type: "Feature", geometry: { type: "Polygon", coordinates: [ring] }, properties }],
  };
}

/** A square plot (0.1° a side at 10° N, 10° E) with these feature properties: see {@link polygonPlot}. */
export function squarePlot(properties: Record<string, unknown>) {
  return polygonPlot(
    [
      [10, 10],
      [10.1, 10],
      [10.1, 10.1],
      [10, 10.1],
      [10, 10],
    ],
    properties,
  );
}

/** The asset and series columns a timeseries table starts with, before its dates or years. */
export const TIMESERIES_HEADER_START = [
  "portfolio_index",
  "entity_id",
  "entity_name",
  "hazard",
  "indicator",
  "scenario",
  "measure",
];
