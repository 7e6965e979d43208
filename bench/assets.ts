/**
 * A plausible 5,000-asset portfolio: sites scattered around real cities (within about 30 km),
 * deterministic so every run benchmarks the same data.
 */

/** [city, country, lat, lng] of the centres the sites cluster around. */
const CENTRES: ReadonlyArray<readonly [string, string, number, number]> = [
  ["London", "GB", 51.5074, -0.1278],
  ["Paris", "FR", 48.8566, 2.3522],
  ["Madrid", "ES", 40.4168, -3.7038],
  ["Rome", "IT", 41.9028, 12.4964],
  ["Berlin", "DE", 52.52, 13.405],
  ["Warsaw", "PL", 52.2297, 21.0122],
  ["Istanbul", "TR", 41.0082, 28.9784],
  ["Cairo", "EG", 30.0444, 31.2357],
  ["Lagos", "NG", 6.5244, 3.3792],
  ["Nairobi", "KE", -1.2921, 36.8219],
  ["Johannesburg", "ZA", -26.2041, 28.0473],
  ["Dubai", "AE", 25.2048, 55.2708],
  ["Karachi", "PK", 24.8607, 67.0011],
  ["Mumbai", "IN", 19.076, 72.8777],
  ["Chennai", "IN", 13.0827, 80.2707],
  ["Dhaka", "BD", 23.8103, 90.4125],
  ["Bangkok", "TH", 13.7563, 100.5018],
  ["Jakarta", "ID", -6.2088, 106.8456],
  ["Manila", "PH", 14.5995, 120.9842],
  ["Shanghai", "CN", 31.2304, 121.4737],
  ["Tokyo", "JP", 35.6762, 139.6503],
  ["Seoul", "KR", 37.5665, 126.978],
  ["Sydney", "AU", -33.8688, 151.2093],
  ["Auckland", "NZ", -36.8485, 174.7633],
  ["Los Angeles", "US", 34.0522, -118.2437],
  ["Houston", "US", 29.7604, -95.3698],
  ["Miami", "US", 25.7617, -80.1918],
  ["New York", "US", 40.7128, -74.006],
  ["Toronto", "CA", 43.6532, -79.3832],
  ["Mexico City", "MX", 19.4326, -99.1332],
  ["Bogota", "CO", 4.711, -74.0721],
  ["Lima", "PE", -12.0464, -77.0428],
  ["Sao Paulo", "BR", -23.5505, -46.6333],
  ["Buenos Aires", "AR", -34.6037, -58.3816],
  ["Santiago", "CL", -33.4489, -70.6693],
  ["Reykjavik", "IS", 64.1466, -21.9426],
];

const SITE_TYPES = ["warehouse", "office", "plant", "store", "data_centre"] as const;

/** One generated asset. */
export interface BenchAsset {
  entity_id: string;
  entity_name: string;
  lat: number;
  lng: number;
  country: string;
  type: string;
}

/** A small deterministic PRNG (mulberry32), so the portfolio is the same on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` sites around the centres, coordinates rounded to 5 decimals (about 1 m). */
export function plausibleAssets(count: number, seed = 7): BenchAsset[] {
  const next = random(seed);
  return Array.from({ length: count }, (_, i) => {
    const [city, country, lat, lng] = CENTRES[i % CENTRES.length];
    const type = SITE_TYPES[Math.floor(next() * SITE_TYPES.length)];
    return {
      entity_id: `S${String(i + 1).padStart(5, "0")}`,
      entity_name: `${city} ${type.replace("_", " ")} ${Math.floor(i / CENTRES.length) + 1}`,
      lat: round5(lat + (next() - 0.5) * 0.6),
      lng: round5(lng + (next() - 0.5) * 0.6),
      country,
      type,
    };
  });
}

/** `count` distinct points for RISK.SEARCH, spread like the sites. */
export function plausiblePoints(count: number, seed = 11): { lat: number; lng: number }[] {
  const seen = new Set<string>();
  const points: { lat: number; lng: number }[] = [];
  for (const { lat, lng } of plausibleAssets(count * 2, seed)) {
    const key = `${lat},${lng}`;
    if (seen.has(key)) continue; // the engine keys on the point: duplicates would lower the request count
    seen.add(key);
    points.push({ lat, lng });
    if (points.length === count) break;
  }
  return points;
}

/**
 * The import CSV in the service's layout: entity_id,entity_name,lat,lng,label:<key>
 * (docs/service.md#portfolios-and-assets).
 */
export function assetsCsv(assets: readonly BenchAsset[]): string {
  const lines = ["entity_id,entity_name,lat,lng,label:country,label:type"];
  for (const a of assets) lines.push(`${a.entity_id},${a.entity_name},${a.lat},${a.lng},${a.country},${a.type}`);
  return lines.join("\n");
}

/** The same assets as a sheet range an analyst would select: header row, then one row per site. */
export function assetsSheetValues(assets: readonly BenchAsset[]): (string | number)[][] {
  return [
    ["Site ID", "Site name", "Latitude", "Longitude", "Country", "Type"],
    ...assets.map((a) => [a.entity_id, a.entity_name, a.lat, a.lng, a.country, a.type]),
  ];
}

function round5(value: number): number {
  return Math.round(value * 1e5) / 1e5;
}
