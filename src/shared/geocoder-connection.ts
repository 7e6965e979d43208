import { ConfigurationError } from "../api/errors";
import { checkServiceUrl } from "../api/config";
import { connectionStorage } from "./connection";

/**
 * The geocoder setting, kept by the connection store beside the service's connection (the same
 * storage outside the workbook: OfficeRuntime.storage, else localStorage, else memory), so a
 * geocoder key is kept like the service's key and never enters a document. None is preset: until
 * the analyst enters one, addresses are never sent anywhere. Nothing here logs.
 */

/** Which answer format the geocoder speaks. */
export type GeocoderKind = "pelias" | "nominatim";

/** A geocoder the analyst chose. */
export interface GeocoderSettings {
  kind: GeocoderKind;
  /** Base URL: Pelias `…/v1/search` lives under it, Nominatim's `…/search` too. https unless loopback. */
  url: string;
  /** Sent as `api_key=` (Pelias hosted services ask for it there); optional. */
  apiKey?: string;
  /** Sent as Nominatim's `email=` parameter (its usage policy asks heavy users to give one). */
  email?: string;
  /** Most requests started a second (the endpoint's published limit). */
  perSecond: number;
  /** Most requests at once. */
  concurrency: number;
}

/** The public OpenStreetMap instance, whose usage policy caps its use (one a second, no bulk). */
export const PUBLIC_NOMINATIM_HOST = "nominatim.openstreetmap.org";

/** Addresses at most sent to the public Nominatim in one go (its policy forbids bulk geocoding). */
export const PUBLIC_NOMINATIM_MAX_ADDRESSES = 100;

const STORAGE_KEY = "climate-risk.geocoder";

/** Whether these settings point at the public nominatim.openstreetmap.org. */
export function isPublicNominatim(settings: Pick<GeocoderSettings, "url">): boolean {
  try {
    return new URL(settings.url).hostname.toLowerCase() === PUBLIC_NOMINATIM_HOST;
  } catch {
    return false;
  }
}

/**
 * Validates geocoder settings (ConfigurationError naming the setting): an http(s) URL, https unless
 * the host is this machine; a positive pace. The public Nominatim is held to its policy: one
 * request at a time, at most one a second, and an email.
 */
export function checkGeocoderSettings(settings: GeocoderSettings): GeocoderSettings {
  const url = checkServiceUrl(settings.url, "Geocoder URL");
  const apiKey = settings.apiKey?.trim() || undefined;
  const email = settings.email?.trim() || undefined;
  const perSecond = Number(settings.perSecond);
  const concurrency = Math.floor(Number(settings.concurrency));
  if (!(perSecond > 0 && perSecond <= 1000))
    throw new ConfigurationError("Geocoder requests a second must be more than 0 (at most 1000)", {
      operation: "configure",
    });
  if (!(concurrency >= 1 && concurrency <= 50))
    throw new ConfigurationError("Geocoder requests at once must be 1 to 50", { operation: "configure" });
  const checked: GeocoderSettings = { kind: settings.kind, url, apiKey, email, perSecond, concurrency };
  if (!isPublicNominatim(checked)) return checked;
  if (settings.kind !== "nominatim")
    throw new ConfigurationError(`${PUBLIC_NOMINATIM_HOST} speaks the Nominatim format: choose Nominatim`, {
      operation: "configure",
    });
  if (!email)
    throw new ConfigurationError(
      `${PUBLIC_NOMINATIM_HOST} asks for a contact email (its usage policy): enter one, or use your organisation's own instance`,
      { operation: "configure" },
    );
  return { ...checked, perSecond: Math.min(perSecond, 1), concurrency: 1 };
}

/**
 * Why `count` addresses may not be sent to these settings' geocoder in one run, or undefined: the
 * public Nominatim takes at most {@link PUBLIC_NOMINATIM_MAX_ADDRESSES} (its policy forbids bulk use).
 */
export function bulkProblem(settings: Pick<GeocoderSettings, "url">, count: number): string | undefined {
  if (!isPublicNominatim(settings) || count <= PUBLIC_NOMINATIM_MAX_ADDRESSES) return undefined;
  return `${PUBLIC_NOMINATIM_HOST} allows no bulk geocoding (its usage policy): at most ${PUBLIC_NOMINATIM_MAX_ADDRESSES} addresses. Use your organisation's own geocoder for ${count}.`;
}

/** The stored geocoder, or undefined when none was chosen (or the stored one is no longer valid). */
export async function loadGeocoder(): Promise<GeocoderSettings | undefined> {
  let text: string | null;
  try {
    text = await connectionStorage().getItem(STORAGE_KEY);
  } catch {
    return undefined;
  }
  if (!text) return undefined;
  try {
    return checkGeocoderSettings(JSON.parse(text) as GeocoderSettings);
  } catch {
    return undefined;
  }
}

/** Validates and stores the geocoder; returns it normalised. */
export async function saveGeocoder(settings: GeocoderSettings): Promise<GeocoderSettings> {
  const checked = checkGeocoderSettings(settings);
  await connectionStorage().setItem(STORAGE_KEY, JSON.stringify(checked));
  return checked;
}

/** Forgets the geocoder: addresses are sent nowhere until another is saved. */
export async function forgetGeocoder(): Promise<void> {
  await connectionStorage().removeItem(STORAGE_KEY);
}
