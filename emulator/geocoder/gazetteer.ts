/**
 * The geocoder stand-in's small deterministic gazetteer: a few cities (one name twice, to be
 * ambiguous), streets, postcodes, regions and countries. An address names a known street, or a
 * house number and a known city; its point is the street's or the city centre's, moved by a fixed
 * amount derived from the text, so the same address always gives the same point.
 */

/** What a match is a point of, as both formats' precisions read it. */
export type Kind = "address" | "street" | "postcode" | "city" | "region" | "country";

/** One place the gazetteer knows. */
export interface Place {
  name: string;
  kind: Kind;
  lat: number;
  lng: number;
  /** ISO alpha-2. */
  country: string;
  /** The city or region it lies in, for its label. */
  within?: string;
}

const CITIES: Place[] = [
  { name: "London", kind: "city", lat: 51.5074, lng: -0.1278, country: "GB" },
  { name: "Paris", kind: "city", lat: 48.8566, lng: 2.3522, country: "FR" },
  { name: "Berlin", kind: "city", lat: 52.52, lng: 13.405, country: "DE" },
  { name: "Munich", kind: "city", lat: 48.1351, lng: 11.582, country: "DE" },
  { name: "Zurich", kind: "city", lat: 47.3769, lng: 8.5417, country: "CH" },
  { name: "Singapore", kind: "city", lat: 1.3521, lng: 103.8198, country: "SG" },
  { name: "Mumbai", kind: "city", lat: 19.076, lng: 72.8777, country: "IN" },
  { name: "Springfield", kind: "city", lat: 39.7817, lng: -89.6501, country: "US", within: "Illinois" },
  { name: "Springfield", kind: "city", lat: 42.1015, lng: -72.5898, country: "US", within: "Massachusetts" },
];

const STREETS: Place[] = [
  { name: "Downing Street", kind: "street", lat: 51.5033, lng: -0.1276, country: "GB", within: "London" },
  { name: "Baker Street", kind: "street", lat: 51.5226, lng: -0.1571, country: "GB", within: "London" },
  { name: "Rue de Rivoli", kind: "street", lat: 48.8606, lng: 2.3376, country: "FR", within: "Paris" },
  { name: "Unter den Linden", kind: "street", lat: 52.517, lng: 13.3889, country: "DE", within: "Berlin" },
];

const POSTCODES: Place[] = [
  { name: "10115", kind: "postcode", lat: 52.5323, lng: 13.3846, country: "DE", within: "Berlin" },
  { name: "75001", kind: "postcode", lat: 48.8638, lng: 2.3364, country: "FR", within: "Paris" },
  { name: "SW1A 2AA", kind: "postcode", lat: 51.5035, lng: -0.1276, country: "GB", within: "London" },
];

const REGIONS: Place[] = [
  { name: "Bavaria", kind: "region", lat: 48.7904, lng: 11.4979, country: "DE" },
  { name: "California", kind: "region", lat: 36.7783, lng: -119.4179, country: "US" },
];

const COUNTRIES: Place[] = [
  { name: "Germany", kind: "country", lat: 51.1657, lng: 10.4515, country: "DE" },
  { name: "France", kind: "country", lat: 46.2276, lng: 2.2137, country: "FR" },
];

/** What a search gives: the fields of either search, already split. */
export interface Search {
  text?: string;
  address?: string;
  postcode?: string;
  city?: string;
  region?: string;
  /** ISO alpha-2 codes the search is restricted to. */
  countries?: string[];
}

function fold(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\s,.]+/g, " ")
    .trim();
}

function mentions(text: string, name: string): boolean {
  return ` ${fold(text)} `.includes(` ${fold(name)} `);
}

/** A deterministic small offset (under about 2 km) from the text, so each address has its own point. */
function offset(text: string): { dLat: number; dLng: number } {
  let hash = 2166136261;
  for (const ch of fold(text)) hash = Math.imul(hash ^ ch.charCodeAt(0), 16777619);
  const a = ((hash >>> 0) % 2000) / 100000 - 0.01;
  const b = (((hash >>> 11) >>> 0) % 2000) / 100000 - 0.01;
  return { dLat: a, dLng: b };
}

function moved(place: Place, text: string, name: string): Place {
  const { dLat, dLng } = offset(text);
  return { ...place, name, kind: "address", lat: +(place.lat + dLat).toFixed(6), lng: +(place.lng + dLng).toFixed(6) };
}

const HOUSE_NUMBER = /(^|\s)\d+[a-z]?(\s|,|$)/i;

/** The places a search finds, best first (at most `limit`); empty when none. */
export function lookUp(search: Search, limit: number): Place[] {
  const allowed = (p: Place) => !search.countries || search.countries.includes(p.country);
  const all = [search.text, search.address, search.postcode, search.city, search.region].filter(Boolean).join(", ");
  const street = search.text ?? search.address ?? "";
  const found =
    matchStreet(street, all, allowed) ??
    matchPostcode(search.postcode ?? search.text ?? "", allowed) ??
    matchCity(search.city ?? search.text ?? "", street, all, allowed) ??
    REGIONS.filter((p) => allowed(p) && mentions(search.region ?? search.text ?? "", p.name));
  const list = found.length > 0 ? found : COUNTRIES.filter((p) => allowed(p) && mentions(search.text ?? "", p.name));
  return list.slice(0, limit);
}

function matchStreet(street: string, all: string, allowed: (p: Place) => boolean): Place[] | undefined {
  const match = STREETS.find((p) => allowed(p) && mentions(street, p.name));
  if (!match) return undefined;
  return [HOUSE_NUMBER.test(street) ? moved(match, all, street.trim()) : match];
}

function matchPostcode(text: string, allowed: (p: Place) => boolean): Place[] | undefined {
  const match = POSTCODES.filter((p) => allowed(p) && mentions(text, p.name));
  return match.length > 0 ? match : undefined;
}

function matchCity(cityText: string, street: string, all: string, allowed: (p: Place) => boolean): Place[] | undefined {
  const cities = CITIES.filter((p) => allowed(p) && mentions(cityText || all, p.name));
  if (cities.length === 0) return undefined;
  // A house number and a street of a known city: an address point near its centre.
  const streetPart = street.split(",")[0]!.trim();
  if (HOUSE_NUMBER.test(streetPart) && !mentions(streetPart, cities[0]!.name))
    return [moved(cities[0]!, all, streetPart)];
  return cities;
}
