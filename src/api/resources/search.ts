import type { CallOptions, Transport } from "../http";
import type { SearchResult } from "../types";

/** The point search: risk scores and labels at a point, for 15- and 30-year horizons. */
export class Search {
  constructor(private readonly transport: Transport) {}

  /** BadRequestError when a coordinate is out of bounds. */
  point(lat: number, lng: number, call?: CallOptions): Promise<SearchResult> {
    return this.transport.get("search.point", "/search", call, { query: { lat, lng } });
  }
}
