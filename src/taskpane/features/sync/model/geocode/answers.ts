/**
 * Readers of the two geocoder answer formats the add-in speaks, into FoundPlace (one type for
 * every way of finding coordinates). Pelias (`/v1/search`, `/v1/search/structured`): a GeoJSON
 * FeatureCollection whose points are [lng, lat], with `layer`, `confidence`, `match_type` and
 * `accuracy` in each feature's properties. Nominatim (`/search?format=jsonv2`): an array of places
 * with `lat`/`lon` as strings, `addresstype`, `place_rank` and `importance`. Nominatim's
 * `importance` is a place's prominence, not a confidence in the match: it is never read as one.
 */
import { message, type Message } from "../../../../../i18n/messages";
import { MessageError } from "../../../../../i18n/message-error";
import { countryCode } from "../../../../../shaping/countries";
import type { FoundPlace, Precision } from "./found-place";

/** An answer that is not the format the geocoder's setting says (a wrong URL, a proxy's page). */
export class GeocoderAnswerError extends MessageError {
  constructor(said: Message) {
    super(said);
    this.name = "GeocoderAnswerError";
  }
}

/** Pelias layers, finest first, to precision (https://github.com/pelias/documentation/blob/master/search.md#filter-by-data-type). */
const PELIAS_LAYERS: Record<string, Precision> = {
  venue: "address",
  address: "address",
  street: "street",
  postalcode: "postcode",
  neighbourhood: "city",
  borough: "city",
  locality: "city",
  localadmin: "city",
  county: "region",
  macrocounty: "region",
  region: "region",
  macroregion: "region",
  dependency: "country",
  country: "country",
  coarse: "region",
};

/** The precision of a Pelias feature: its layer (an unknown one reads as a region, never finer). */
export function peliasPrecision(layer: unknown): Precision {
  return (typeof layer === "string" && PELIAS_LAYERS[layer]) || "region";
}

/** Nominatim `addresstype` values to precision (https://nominatim.org/release-docs/latest/api/Output/#addresstype). */
const NOMINATIM_TYPES: Record<string, Precision> = {
  house: "address",
  building: "address",
  house_number: "address",
  amenity: "address",
  shop: "address",
  office: "address",
  road: "street",
  street: "street",
  postcode: "postcode",
  neighbourhood: "city",
  quarter: "city",
  suburb: "city",
  city_district: "city",
  hamlet: "city",
  village: "city",
  town: "city",
  city: "city",
  municipality: "city",
  county: "region",
  state_district: "region",
  state: "region",
  province: "region",
  region: "region",
  country: "country",
};

/**
 * The precision of a Nominatim place: its `addresstype` (jsonv2), else its OSM `type` when that is
 * one of the known ones, else its `place_rank` (https://nominatim.org/release-docs/latest/customize/Ranking/:
 * 4 country, 5-12 state and county, 13-25 city to neighbourhood, 26-27 street, 28-30 house and
 * building), else its address details (a house number: the address's point).
 */
export function nominatimPrecision(place: {
  addresstype?: unknown;
  type?: unknown;
  place_rank?: unknown;
  address?: unknown;
}): Precision {
  const known = (value: unknown) => (typeof value === "string" ? NOMINATIM_TYPES[value] : undefined);
  const byType = known(place.addresstype) ?? known(place.type);
  if (byType) return byType;
  const rank = finite(place.place_rank);
  if (rank !== undefined) {
    if (rank >= 28) return "address";
    if (rank >= 26) return "street";
    if (rank >= 13) return "city";
    return rank >= 5 ? "region" : "country";
  }
  const address = record(place.address) ?? {};
  if (address.house_number !== undefined) return "address";
  if (address.road !== undefined) return "street";
  return "region";
}

function finite(value: unknown): number | undefined {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof n === "number" && Number.isFinite(n) ? n : undefined;
}

function inRange(lat: number, lng: number): boolean {
  return Math.abs(lat) <= 90 && Math.abs(lng) <= 180;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** The places of a Pelias search answer, best first; GeocoderAnswerError when it is not one. */
export function readPeliasAnswer(body: unknown, source: string): FoundPlace[] {
  const features = record(body)?.features;
  if (!Array.isArray(features)) throw new GeocoderAnswerError(message("sync.geocode.error.notPelias", { source }));
  const places: FoundPlace[] = [];
  for (const feature of features) {
    const coordinates = record(record(feature)?.geometry)?.coordinates;
    const properties = record(record(feature)?.properties) ?? {};
    const lng = finite(Array.isArray(coordinates) ? coordinates[0] : undefined);
    const lat = finite(Array.isArray(coordinates) ? coordinates[1] : undefined);
    if (lat === undefined || lng === undefined || !inRange(lat, lng)) continue;
    const confidence = finite(properties.confidence);
    const country = countryCode(properties.country_code) ?? countryCode(properties.country_a);
    places.push({
      lat,
      lng,
      label: String(properties.label ?? properties.name ?? ""),
      precision: peliasPrecision(properties.layer),
      ...(confidence !== undefined && confidence >= 0 && confidence <= 1 ? { confidence } : {}),
      ...(country ? { country } : {}),
      source,
    });
  }
  return places;
}

/** The places of a Nominatim `format=jsonv2` answer, best first; GeocoderAnswerError when it is not one. */
export function readNominatimAnswer(body: unknown, source: string): FoundPlace[] {
  if (!Array.isArray(body)) throw new GeocoderAnswerError(message("sync.geocode.error.notNominatim", { source }));
  const places: FoundPlace[] = [];
  for (const item of body) {
    const place = record(item) ?? {};
    const lat = finite(place.lat);
    const lng = finite(place.lon);
    if (lat === undefined || lng === undefined || !inRange(lat, lng)) continue;
    const country = countryCode(record(place.address)?.country_code);
    places.push({
      lat,
      lng,
      label: String(place.display_name ?? place.name ?? ""),
      precision: nominatimPrecision(place),
      ...(country ? { country } : {}),
      source,
    });
  }
  return places;
}
