/**
 * Point search. `local` scores are the ssp245 horizon scores an asset at the point would
 * get in a portfolio; `background` is the same averaged over the surrounding area.
 */
import { badRequest } from "../http/errors";
import { queryString, RequestContext } from "../http/request-context";
import { searchExposure } from "../model/scores";
import { decimalNumber } from "../assets/asset-csv";

function coordinate(ctx: RequestContext, name: "lat" | "lng"): number {
  const s = queryString(ctx, name);
  if (s === undefined) throw badRequest(`${name}: is required (a number)`);
  const v = decimalNumber(s.trim());
  if (v === undefined) throw badRequest(`${name}: "${s}" is not a decimal number`);
  const limit = name === "lat" ? 90 : 180;
  if (v < -limit || v > limit) throw badRequest(`${name}: coordinate out of bounds [-${limit}, ${limit}]`);
  return v;
}

/** GET /api/search?lat&lng */
export async function search(ctx: RequestContext) {
  const lat = coordinate(ctx, "lat");
  const lng = coordinate(ctx, "lng");
  return {
    type: "FeatureCollection",
    features: [
      {
        type: "Feature",
        geometry: { type: "Point", coordinates: [lng, lat] },
        properties: { physical_risk_exposure: searchExposure(lat, lng, ctx.emu.options.seed) },
      },
    ],
  };
}
