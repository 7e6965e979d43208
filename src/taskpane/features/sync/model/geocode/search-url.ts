/**
 * The search request for one address, in the geocoder's own format: free text, or split columns
 * as a structured search, restricted to the row's country. Only the address fields (and Nominatim's
 * `email=` from the settings) go into the URL; a key is sent in a header, never in a URL.
 */
import type { GeocoderSettings } from "../../../../../shared/geocoder-connection";
import type { AddressQuery } from "./address-rows";

/** How many places are asked for: two are enough to tell an ambiguous address. */
export const PLACES_ASKED = 3;

/** Pelias structured parameter of each part (https://github.com/pelias/documentation/blob/master/structured-geocoding.md). */
const PELIAS_PARTS = {
  address: "address",
  street: "address",
  postcode: "postalcode",
  city: "locality",
  region: "region",
} as const;

/** Nominatim structured parameter of each part (https://nominatim.org/release-docs/latest/api/Search/#structured-query). */
const NOMINATIM_PARTS = {
  address: "street",
  street: "street",
  postcode: "postalcode",
  city: "city",
  region: "state",
} as const;

function structured(query: AddressQuery, names: Record<string, string>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [part, value] of Object.entries(query.parts ?? {})) {
    const name = names[part]!;
    // A split "Street" beside an "Address" (house number and street) adds nothing the address lacks.
    if (!params.has(name)) params.set(name, value);
  }
  return params;
}

/** The URL of the search for `query` at the geocoder `settings` names. */
export function searchUrl(settings: GeocoderSettings, query: AddressQuery): string {
  const base = settings.url.replace(/\/+$/, "");
  if (settings.kind === "pelias") {
    const params = query.parts ? structured(query, PELIAS_PARTS) : new URLSearchParams({ text: query.text ?? "" });
    if (query.country) params.set(query.parts ? "country" : "boundary.country", query.country);
    params.set("size", String(PLACES_ASKED));
    return `${base}/v1/search${query.parts ? "/structured" : ""}?${params}`;
  }
  const params = query.parts ? structured(query, NOMINATIM_PARTS) : new URLSearchParams({ q: query.text ?? "" });
  if (query.country) params.set("countrycodes", query.country.toLowerCase());
  params.set("format", "jsonv2");
  params.set("addressdetails", "1");
  params.set("limit", String(PLACES_ASKED));
  if (settings.email) params.set("email", settings.email);
  return `${base}/search?${params}`;
}
