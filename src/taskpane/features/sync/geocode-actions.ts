/**
 * The geocoding step of the sync flow, for the pane: read the rows that have an address and no
 * coordinates, ask the geocoder (geocode-run.ts) after the analyst agreed, preview, and write only
 * on accept, through the one workbook writer (which checks each cell still holds what the preview
 * saw and writes text with the text format, the guard every cell gets). Nothing here talks to the
 * risk service except to read the portfolio's dataset metadata (each hazard's grid size).
 */
import type { RiskClient } from "../../../api/client";
import { NotFoundError } from "../../../api/errors";
import { applyCellChanges } from "../../../excel/asset-cells";
import { selectCell } from "../../../excel/select-cell";
import type { GeocoderSettings } from "../../../shared/geocoder-connection";
import { message } from "../../../i18n/messages";
import type { ExcelRunner } from "../../ui/pane-types";
import { addressRows, type AddressRows } from "./model/geocode/address-rows";
import { hazardCellsKm, previewRows, type PreviewRow } from "./model/geocode/preview";
import { writePlan, type WritePlan } from "./model/geocode/write-plan";
import { GeocoderFailure, geocodeRows, type GeocodeRun, type RowOutcome } from "./geocode-run";
import { readAssetSource, type AssetSource } from "./sync-actions";
import type { CellGrid } from "../../../shaping/types";

/** The range read, and the rows of it a geocoder would be asked about. */
export interface AddressSheet extends AddressRows {
  address: string;
  values: CellGrid;
}

/** Reads the source and finds its rows with an address and no coordinates (the sheet is only read). */
export async function readAddressSheet(run: ExcelRunner, source: AssetSource): Promise<AddressSheet> {
  const snapshot = await readAssetSource(run, source);
  return { address: snapshot.address, values: snapshot.values, ...addressRows(snapshot.values, snapshot.address) };
}

/** Each hazard's finest grid cell (km), and the portfolio whose dataset metadata says so. */
export interface HazardCells {
  cellsKm: Map<string, number>;
  portfolio: string;
}

/**
 * Each hazard's finest grid cell from the portfolio's dataset metadata; when the portfolio does
 * not exist yet, from the first portfolio the key reads (the preview names it); undefined when
 * there is none.
 */
export async function hazardCells(
  client: RiskClient | null,
  portfolio: string,
  signal?: AbortSignal,
): Promise<HazardCells | undefined> {
  if (!client) return undefined;
  const read = async (name: string) => ({
    cellsKm: hazardCellsKm((await client.datasets.metadata(name, { signal })).indicators),
    portfolio: name,
  });
  try {
    if (portfolio.trim() !== "") return await read(portfolio.trim());
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
  }
  const first = (await client.portfolios.list({ signal }))[0];
  return first ? read(first.portfolio_name) : undefined;
}

/** What the preview shows after a run. */
export interface GeocodePreview {
  rows: PreviewRow[];
  run: GeocodeRun;
  /** Who found the places (the geocoder's host, or the offline lookup): written beside each row. */
  source: string;
  /** The data's attribution the preview shows (OpenStreetMap's for Nominatim, GeoNames' offline). */
  attribution?: string;
  /** Hazard grid sizes compared with, or undefined when no portfolio has metadata yet. */
  cells?: HazardCells;
}

/** Runs the geocoder over the sheet's rows (at the settings' pace) and builds the preview. */
export async function geocodeSheet(options: {
  settings: GeocoderSettings;
  sheet: AddressSheet;
  cells?: HazardCells;
  signal?: AbortSignal;
  onRow?: (outcome: RowOutcome, done: number, latencyMs?: number) => void;
}): Promise<GeocodePreview> {
  const run = await geocodeRows({
    settings: options.settings,
    rows: options.sheet.rows,
    signal: options.signal,
    onRow: options.onRow,
  });
  return {
    rows: previewRows(run.outcomes, options.cells?.cellsKm ?? new Map()),
    run,
    cells: options.cells,
    source: new URL(options.settings.url).host,
    ...(options.settings.kind === "nominatim" ? { attribution: "© OpenStreetMap contributors" } : {}),
  };
}

/**
 * With no geocoder: each row's City (and Country) placed at its city's centre from the offline
 * GeoNames list (loaded only now, in a chunk of its own; nothing leaves the machine). Every point is
 * a city centroid; a name that repeats in the country is ambiguous. Rows without a City are listed
 * as not placed.
 */
export async function placeOffline(sheet: AddressSheet, cells?: HazardCells): Promise<GeocodePreview> {
  const { findCitiesOffline, OFFLINE_CITIES_ATTRIBUTION, OFFLINE_CITIES_SOURCE } =
    await import("./model/geocode/offline-cities");
  const outcomes: RowOutcome[] = [];
  for (const row of sheet.rows) {
    const city = row.query.parts?.city;
    if (!city) {
      outcomes.push({
        row,
        failure: new GeocoderFailure("refused", message("sync.geocode.error.noCity")),
      });
      continue;
    }
    outcomes.push({ row, places: await findCitiesOffline({ city, country: row.query.country }) });
  }
  return {
    rows: previewRows(outcomes, cells?.cellsKm ?? new Map()),
    run: { outcomes },
    cells,
    source: OFFLINE_CITIES_SOURCE,
    attribution: OFFLINE_CITIES_ATTRIBUTION,
  };
}

/** Today as YYYY-MM-DD (the date written beside each geocoded row). */
export function today(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/**
 * Writes the accepted rows' coordinates and their geocoder, precision, confidence and date into
 * the sheet (only empty cells; cells changed since the preview stop it, nothing written), then
 * selects the grown range so "Sync to portfolio" reads the new columns too.
 */
export async function writeGeocoded(
  run: ExcelRunner,
  sheet: AddressSheet,
  rows: readonly PreviewRow[],
  host: string,
): Promise<WritePlan> {
  const plan = writePlan(sheet.values, sheet.address, rows, host, today());
  await run(async (context) => {
    await applyCellChanges(context, plan.cells);
    await selectCell(context, plan.range);
  });
  return plan;
}
