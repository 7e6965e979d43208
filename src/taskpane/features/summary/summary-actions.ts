import type { RiskClient } from "../../../api/client";
import { STRESS_SCENARIO } from "../../../shared/vocabulary";
import type { NewSheetSpec } from "../../../excel/write-sheets";
import { flattenExtendedSummary, flattenSummary } from "../../../shaping/flatten-summary";
import type { DownloadedFile, FileFormat } from "../../../api/types";
import { provenanceOf, rowKeysFor } from "../pasted";
import {
  rethrowIfCancelled,
  unlessCancelled,
  formatCount,
  type LongRunning,
  type PastedSheet,
  type PasteOptions,
} from "../../ui/pane-types";
import { pastedSheet, writeNewSheets } from "../../ui/write-new-sheets";

/** Options of {@link pasteSummary}. */
export interface SummaryPasteOptions extends PasteOptions {
  portfolio: string;
  /** Only this scenario (default: all). */
  scenario?: string;
  /** Also paste the extended summary (metrics per hazard) into a second sheet (default true). */
  extended?: boolean;
  /**
   * The one scenario of the extended summary (default: `scenario`, else ssp585). One at a time:
   * all three for 5,000 assets are 15,000 rows × 248 columns, about 650 MB in the workbook.
   */
  extendedScenario?: string;
}

/** The extended summary's scenario when none is chosen. */
export const DEFAULT_EXTENDED_SCENARIO = STRESS_SCENARIO;

/**
 * Reads the default summary (and the extended one) of a portfolio and writes them flattened into
 * new sheets, one row per asset × scenario (× window), with LOW/MEDIUM/HIGH labels coloured by
 * conditional formatting; the extended summary one scenario at a time. Both sheets are written all
 * or nothing.
 */
export async function pasteSummary(options: SummaryPasteOptions): Promise<PastedSheet[]> {
  const { client, run, portfolio, signal, onProgress } = options;
  const extended = options.extended ?? true;
  const query = options.scenario ? { scenario: options.scenario } : {};
  const extendedScenario = options.scenario ?? options.extendedScenario ?? DEFAULT_EXTENDED_SCENARIO;
  // The two lists arrive interleaved: report the sum of what each has read so far.
  const counts = { summary: 0, extended: 0 };
  const progress =
    (list: keyof typeof counts) =>
    ({ itemsRead }: { itemsRead: number }) => {
      counts[list] = itemsRead;
      onProgress?.({ message: `Read ${formatCount(counts.summary + counts.extended)} summary rows…` });
    };
  onProgress?.({ message: "Reading summaries…" });
  const [summary, extendedItems] = await unlessCancelled(
    Promise.all([
      client.datasets.summary(portfolio, query).all({ signal, onProgress: progress("summary") }),
      extended
        ? client.datasets
            .extendedSummary(portfolio, { scenario: extendedScenario })
            .all({ signal, onProgress: progress("extended") })
        : Promise.resolve([]),
    ]),
    signal,
  );
  if (summary.length === 0)
    throw new Error(`${portfolio} has no summary data${options.scenario ? ` for ${options.scenario}` : ""}.`);

  const flat = flattenSummary(summary);
  const provenance = await provenanceOf(client, "summary", portfolio, { scenario: options.scenario }, signal);
  // Each sheet keyed by its kind's row key, so a refresh keeps the analyst's work with its row.
  const specs: NewSheetSpec[] = [
    {
      sheetName: `Summary ${portfolio}`,
      tableName: `Summary_${portfolio}`,
      header: flat.header,
      rows: flat.rows,
      conditionalLabels: flat.labelColumns,
      provenance,
      rowKeys: await rowKeysFor(client, "summary", portfolio, flat, signal),
    },
  ];
  if (extended && extendedItems.length > 0) {
    const ext = flattenExtendedSummary(extendedItems);
    specs.push({
      sheetName: `Extended ${extendedScenario} ${portfolio}`,
      tableName: `Extended_${extendedScenario}_${portfolio}`,
      header: ext.header,
      rows: ext.rows,
      conditionalLabels: ext.labelColumns,
      provenance: {
        ...provenance,
        operation: "extended-summary" as const,
        filters: { ...provenance.filters, scenario: extendedScenario },
      },
      rowKeys: await rowKeysFor(client, "extended-summary", portfolio, ext, signal),
    });
  }
  const written = await writeNewSheets(run, specs, { signal, onProgress });
  return written.map(pastedSheet);
}

/** Downloads the default summary (optionally one scenario) as one file (the service's summary export). */
export async function downloadSummary(
  options: LongRunning & { client: RiskClient; portfolio: string; scenario?: string; format?: FileFormat },
): Promise<DownloadedFile> {
  const { client, portfolio, signal, onProgress } = options;
  onProgress?.({ message: `Downloading the summary of ${portfolio}…` });
  return client.datasets
    .summaryExport(
      portfolio,
      { scenario: options.scenario || undefined, file_format: options.format ?? "csv" },
      { signal, timeoutMs: 300_000 },
    )
    .catch(rethrowIfCancelled(signal));
}
