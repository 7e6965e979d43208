/**
 * The two answer formats read into FoundPlace: each precision from each format, confidence only
 * from Pelias, [lng, lat] and string coordinates the right way round, and the examples of each
 * geocoder's own published documentation.
 */
import {
  GeocoderAnswerError,
  nominatimPrecision,
  readNominatimAnswer,
  readPeliasAnswer,
} from "../../../../../../src/taskpane/features/sync/model/geocode/answers";

/**
 * The feature of Pelias's documented search answer, pelias/documentation response.md ("List of
 * `features` returned"), https://github.com/pelias/documentation/blob/master/response.md.
 */
const PELIAS_DOCUMENTED_FEATURE = {
  type: "Feature",
  properties: {
    gid: "...",
    layer: "address",
    source: "osm",
    name: "30 West 26th Street",
    housenumber: "30",
    street: "West 26th Street",
    postalcode: "10010",
    country_a: "USA",
    country: "United States",
    region: "New York",
    region_a: "NY",
    county: "New York County",
    localadmin: "Manhattan",
    locality: "New York",
    neighbourhood: "Flatiron District",
    confidence: 0.9624939994613662,
    label: "30 West 26th Street, Manhattan, NY",
  },
  geometry: { type: "Point", coordinates: [-73.990342, 40.744243] },
};

/**
 * Nominatim's documented JSON place, osm-search/Nominatim docs/api/Output.md ("JSON"),
 * https://nominatim.org/release-docs/latest/api/Output/ (jsonv2 is the same with `category` for
 * `class` and a `place_rank`, which this example lacks: the OSM `type` "city" gives the precision).
 */
const NOMINATIM_DOCUMENTED_PLACE = {
  place_id: "100149",
  licence: "Data © OpenStreetMap contributors, ODbL 1.0. https://osm.org/copyright",
  osm_type: "node",
  osm_id: "107775",
  boundingbox: ["51.3473219", "51.6673219", "-0.2876474", "0.0323526"],
  lat: "51.5073219",
  lon: "-0.1276474",
  display_name: "London, Greater London, England, SW1A 2DU, United Kingdom",
  class: "place",
  type: "city",
  importance: 0.9654895765402,
  icon: "https://nominatim.openstreetmap.org/images/mapicons/poi_place_city.p.20.png",
  address: {
    city: "London",
    state_district: "Greater London",
    state: "England",
    "ISO3166-2-lvl4": "GB-ENG",
    postcode: "SW1A 2DU",
    country: "United Kingdom",
    country_code: "gb",
  },
};

/**
 * Nominatim's documented search example "JSON with SVG polygon" (Unter den Linden 1, Berlin),
 * osm-search/Nominatim docs/api/Search.md, https://nominatim.org/release-docs/latest/api/Search/.
 */
const NOMINATIM_DOCUMENTED_BUILDING = {
  address: { city: "Berlin", country_code: "de", house_number: "1", postcode: "10117", road: "Unter den Linden" },
  class: "amenity",
  display_name:
    "Kommandantenhaus, 1, Unter den Linden, Scheunenviertel, Mitte, Berlin, 10117, Deutschland, European Union",
  importance: 0.73606775332943,
  lat: "52.51719785",
  lon: "13.3978352028938",
  type: "public_building",
};

describe("Pelias answers", () => {
  test("the documented example: an address point at [lng, lat] with its confidence and country", () => {
    const places = readPeliasAnswer(
      { type: "FeatureCollection", features: [PELIAS_DOCUMENTED_FEATURE] },
      "pelias.example",
    );
    expect(places).toEqual([
      {
        lat: 40.744243,
        lng: -73.990342,
        label: "30 West 26th Street, Manhattan, NY",
        precision: "address",
        confidence: 0.9624939994613662,
        country: "US",
        source: "pelias.example",
      },
    ]);
  });

  test.each([
    ["venue", "address"],
    ["address", "address"],
    ["street", "street"],
    ["postalcode", "postcode"],
    ["locality", "city"],
    ["neighbourhood", "city"],
    ["county", "region"],
    ["region", "region"],
    ["country", "country"],
  ])("layer %s reads as precision %s", (layer, precision) => {
    const feature = { ...PELIAS_DOCUMENTED_FEATURE, properties: { ...PELIAS_DOCUMENTED_FEATURE.properties, layer } };
    expect(readPeliasAnswer({ features: [feature] }, "p")[0]!.precision).toBe(precision);
  });

  test("a feature without usable coordinates is left out; an answer without features is named", () => {
    const broken = { ...PELIAS_DOCUMENTED_FEATURE, geometry: { type: "Point", coordinates: [200, 95] } };
    expect(readPeliasAnswer({ features: [broken] }, "p")).toEqual([]);
    expect(() => readPeliasAnswer([], "pelias.example")).toThrow(GeocoderAnswerError);
    expect(() => readPeliasAnswer("<html>", "pelias.example")).toThrow(
      /pelias.example did not answer as a Pelias geocoder/,
    );
  });
});

describe("Nominatim answers", () => {
  test("the documented JSON example: a city centre from string lat/lon, never a confidence from importance", () => {
    const [place] = readNominatimAnswer([NOMINATIM_DOCUMENTED_PLACE], "nominatim.example");
    expect(place).toEqual({
      lat: 51.5073219,
      lng: -0.1276474,
      label: "London, Greater London, England, SW1A 2DU, United Kingdom",
      precision: "city",
      country: "GB",
      source: "nominatim.example",
    });
    expect(place).not.toHaveProperty("confidence");
  });

  test("the documented building example: an address point, read from its address details", () => {
    const [place] = readNominatimAnswer([NOMINATIM_DOCUMENTED_BUILDING], "n");
    expect(place).toMatchObject({ lat: 52.51719785, lng: 13.3978352028938, precision: "address", country: "DE" });
  });

  test.each([
    [{ addresstype: "house", place_rank: 30 }, "address"],
    [{ addresstype: "building", place_rank: 30 }, "address"],
    [{ addresstype: "road", place_rank: 26 }, "street"],
    [{ addresstype: "postcode", place_rank: 21 }, "postcode"],
    [{ addresstype: "city", place_rank: 16 }, "city"],
    [{ addresstype: "village", place_rank: 19 }, "city"],
    [{ addresstype: "state", place_rank: 8 }, "region"],
    [{ addresstype: "country", place_rank: 4 }, "country"],
    [{ addresstype: "something_new", place_rank: "30" }, "address"],
    [{ addresstype: "something_new", place_rank: 27 }, "street"],
    [{ place_rank: 12 }, "region"],
  ])("%j reads as precision %s", (place, precision) => {
    expect(nominatimPrecision(place)).toBe(precision);
  });

  test("an answer that is not a list is named", () => {
    expect(() => readNominatimAnswer({ error: "x" }, "nominatim.example")).toThrow(/not a list of places/);
  });
});
