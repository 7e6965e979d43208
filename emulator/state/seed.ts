/**
 * The seeded world: keys, projects, the demo portfolio, the demo vector layer and the nature
 * demo sub-project. `seedState()` is what a fresh emulator (or POST /__emulator/reset) starts from.
 */
import Papa from "papaparse";
import { EmulatorState, GeoJsonFeature, KeyRecord, ProjectRecord, StoredAsset } from "./types";
import { extendedMetrics } from "../model/scores";

/** Projects of the /api routes (compositions, portfolios, search). */
export const PROJECTS: readonly ProjectRecord[] = [
  { project_id: "a19b6282de313211", project_name: "demo" },
  { project_id: "7f3c9e10b4d2a856", project_name: "other" },
];

/** API keys and what they may use. */
export const KEYS: readonly KeyRecord[] = [
  { key: "demo-key", projects: ["demo"], superprojects: ["nc-demo"] },
  { key: "other-key", projects: ["other"], superprojects: ["nc-other"] },
];

export const DEMO_PORTFOLIO = "demo-portfolio";
export const DEMO_VECTOR = "demo-losses";
export const DEMO_SUBPROJECT_ID = "5f0c3a52-8a4e-4c41-9b7d-2f1de0c1a001";

/** [name, country, continent, lat, lng] of the demo assets. */
const CITIES: readonly [string, string, string, number, number][] = [
  ["London", "GB", "Europe", 51.5074, -0.1278],
  ["Paris", "FR", "Europe", 48.8566, 2.3522],
  ["Madrid", "ES", "Europe", 40.4168, -3.7038],
  ["Lisbon", "PT", "Europe", 38.7223, -9.1393],
  ["Rome", "IT", "Europe", 41.9028, 12.4964],
  ["Athens", "GR", "Europe", 37.9838, 23.7275],
  ["Berlin", "DE", "Europe", 52.52, 13.405],
  ["Amsterdam", "NL", "Europe", 52.3676, 4.9041],
  ["Stockholm", "SE", "Europe", 59.3293, 18.0686],
  ["Warsaw", "PL", "Europe", 52.2297, 21.0122],
  ["Istanbul", "TR", "Asia", 41.0082, 28.9784],
  ["Cairo", "EG", "Africa", 30.0444, 31.2357],
  ["Lagos", "NG", "Africa", 6.5244, 3.3792],
  ["Nairobi", "KE", "Africa", -1.2921, 36.8219],
  ["Johannesburg", "ZA", "Africa", -26.2041, 28.0473],
  ["Cape Town", "ZA", "Africa", -33.9249, 18.4241],
  ["Casablanca", "MA", "Africa", 33.5731, -7.5898],
  ["Dubai", "AE", "Asia", 25.2048, 55.2708],
  ["Riyadh", "SA", "Asia", 24.7136, 46.6753],
  ["Karachi", "PK", "Asia", 24.8607, 67.0011],
  ["Mumbai", "IN", "Asia", 19.076, 72.8777],
  ["Delhi", "IN", "Asia", 28.7041, 77.1025],
  ["Chennai", "IN", "Asia", 13.0827, 80.2707],
  ["Dhaka", "BD", "Asia", 23.8103, 90.4125],
  ["Bangkok", "TH", "Asia", 13.7563, 100.5018],
  ["Ho Chi Minh City", "VN", "Asia", 10.8231, 106.6297],
  ["Singapore", "SG", "Asia", 1.3521, 103.8198],
  ["Jakarta", "ID", "Asia", -6.2088, 106.8456],
  ["Manila", "PH", "Asia", 14.5995, 120.9842],
  ["Hong Kong", "HK", "Asia", 22.3193, 114.1694],
  ["Shanghai", "CN", "Asia", 31.2304, 121.4737],
  ["Beijing", "CN", "Asia", 39.9042, 116.4074],
  ["Seoul", "KR", "Asia", 37.5665, 126.978],
  ["Tokyo", "JP", "Asia", 35.6762, 139.6503],
  ["Osaka", "JP", "Asia", 34.6937, 135.5023],
  ["Sydney", "AU", "Oceania", -33.8688, 151.2093],
  ["Melbourne", "AU", "Oceania", -37.8136, 144.9631],
  ["Perth", "AU", "Oceania", -31.9505, 115.8605],
  ["Auckland", "NZ", "Oceania", -36.8485, 174.7633],
  ["Los Angeles", "US", "North America", 34.0522, -118.2437],
  ["San Francisco", "US", "North America", 37.7749, -122.4194],
  ["Houston", "US", "North America", 29.7604, -95.3698],
  ["Miami", "US", "North America", 25.7617, -80.1918],
  ["New York", "US", "North America", 40.7128, -74.006],
  ["Chicago", "US", "North America", 41.8781, -87.6298],
  ["Toronto", "CA", "North America", 43.6532, -79.3832],
  ["Mexico City", "MX", "North America", 19.4326, -99.1332],
  ["Bogota", "CO", "South America", 4.711, -74.0721],
  ["Lima", "PE", "South America", -12.0464, -77.0428],
  ["Sao Paulo", "BR", "South America", -23.5505, -46.6333],
  ["Buenos Aires", "AR", "South America", -34.6037, -58.3816],
  ["Santiago", "CL", "South America", -33.4489, -70.6693],
];

const ASSET_TYPES = ["office", "warehouse", "plant", "data_centre", "retail"];

/** The demo assets in CSV order. */
export function demoAssets(): StoredAsset[] {
  return CITIES.map(([name, country, continent, lat, lng], i) => ({
    entity_id: `DEMO-${String(i + 1).padStart(3, "0")}`,
    entity_name: `${name} ${ASSET_TYPES[i % ASSET_TYPES.length].replace("_", " ")}`,
    lat,
    lng,
    labels: { country, continent, type: ASSET_TYPES[i % ASSET_TYPES.length] },
  }));
}

/** The CSV an analyst would have uploaded for a set of assets. */
export function assetsToCsv(assets: StoredAsset[]): string {
  const labelKeys = [...new Set(assets.flatMap((a) => Object.keys(a.labels)))];
  const fields = ["entity_id", "entity_name", "lat", "lng", ...labelKeys.map((k) => `label:${k}`)];
  const data = assets.map((a) => [
    a.entity_id,
    a.entity_name,
    a.lat,
    a.lng,
    ...labelKeys.map((k) => a.labels[k] ?? ""),
  ]);
  return Papa.unparse({ fields, data }, { newline: "\n" }) + "\n";
}

const DATE = "2025-01-15";
const ISO = "2025-01-15T09:00:00Z";

/** Loss (currency units) of an asset for a hazard and period, from the model's structural damage. */
function loss(
  value: number,
  hazard: "wildfire" | "flood_potential" | "cyclone",
  lat: number,
  lng: number,
  period: string,
  seed: number,
): number {
  const m = extendedMetrics(hazard, lat, lng, "ssp245", seed);
  return Math.round(value * Number(m[`structural_damage_${period}`]));
}

/** Features of the demo vector layer: three polygons around assets, then one point per asset. */
function demoLossFeatures(assets: StoredAsset[], seed: number): GeoJsonFeature[] {
  const props = (a: StoredAsset, i: number) => {
    const value = 1_000_000 * (1 + (i % 7));
    // Below the wildfire LOW threshold the baseline loss is zero, which exercises the jq example's nan branch.
    const wf = loss(value, "wildfire", a.lat, a.lng, "baseline", seed);
    return {
      entity_id: a.entity_id,
      asset_value: value,
      loss_wildfire_bsln: a.lat > 50 ? 0 : wf,
      loss_wildfire_2050: loss(value, "wildfire", a.lat, a.lng, "2050", seed),
      loss_flood_bsln: loss(value, "flood_potential", a.lat, a.lng, "baseline", seed),
      loss_flood_2050: loss(value, "flood_potential", a.lat, a.lng, "2050", seed),
      loss_cyclone_bsln: loss(value, "cyclone", a.lat, a.lng, "baseline", seed),
      loss_cyclone_2050: loss(value, "cyclone", a.lat, a.lng, "2050", seed),
    };
  };
  const polygonAround = (a: StoredAsset, i: number, d: number): GeoJsonFeature => ({
    type: "Feature",
    id: `zone-${a.entity_id}`,
    geometry: {
      type: "Polygon",
      coordinates: [
        [
          [a.lng - d, a.lat - d],
          [a.lng + d, a.lat - d],
          [a.lng + d, a.lat + d],
          [a.lng - d, a.lat + d],
          [a.lng - d, a.lat - d],
        ],
      ],
    },
    properties: { ...props(a, i), zone: `${a.entity_name} zone` },
  });
  const polys = [0, 20, 43].map((i) => polygonAround(assets[i], i, 0.5));
  const points: GeoJsonFeature[] = assets.map((a, i) => ({
    type: "Feature",
    id: `pt-${a.entity_id}`,
    geometry: { type: "Point", coordinates: [a.lng, a.lat] },
    properties: props(a, i),
  }));
  return [...polys, ...points];
}

/** The seeded forest-carbon polygon (Borneo interior). */
function demoSubProjectGeojson() {
  return {
    type: "FeatureCollection" as const,
    features: [
      {
        type: "Feature" as const,
        geometry: {
          type: "MultiPolygon",
          coordinates: [
            [
              [
                [114.2, 0.4],
                [114.9, 0.4],
                [114.9, 1.0],
                [114.2, 1.0],
                [114.2, 0.4],
              ],
            ],
          ],
        },
        properties: {
          "Entity Name": "Kapuas Forest Block",
          "label:project_name_sqkm": "Kapuas Forest Block (5,400 sqkm)",
          "label:country": "ID",
          Type: "Forest Carbon",
          "label:continent": "Asia",
          "label:poly_area": 5400,
        },
      },
    ],
  };
}

/** A fresh seeded state. */
export function seedState(seed: number): EmulatorState {
  const assets = demoAssets();
  return {
    version: 1,
    nextId: 3,
    portfolios: [
      {
        portfolio_id: "3d1f9a0c6b2e4f71",
        portfolio_name: DEMO_PORTFOLIO,
        project: "demo",
        created_at: ISO,
        updated_at: ISO,
        ready_at: 0,
        csv: assetsToCsv(assets),
        assets,
      },
    ],
    vectors: [
      {
        id: 1,
        name: DEMO_VECTOR,
        project: "demo",
        createDate: DATE,
        updateDate: DATE,
        status: "available",
        geojson: { type: "FeatureCollection", features: demoLossFeatures(assets, seed) },
      },
    ],
    udfs: [
      {
        id: 2,
        name: "wildfire-loss-change",
        project: "demo",
        createDate: DATE,
        updateDate: DATE,
        equation: {
          inputLayers: [DEMO_VECTOR],
          operation:
            ".features.[].properties | if .loss_wildfire_bsln == 0 then nan else (.loss_wildfire_2050 - .loss_wildfire_bsln) / .loss_wildfire_bsln end | [., 0.0] | max | [., 2.0] | min",
        },
      },
    ],
    subprojects: [
      {
        id: DEMO_SUBPROJECT_ID,
        project: "nc-demo",
        name: "Kapuas Forest Block",
        type: "Forest Carbon",
        created_at: ISO,
        ready_at: 0,
        geojson: demoSubProjectGeojson(),
      },
    ],
  };
}
