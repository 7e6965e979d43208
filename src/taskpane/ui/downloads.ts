import type { RiskClient } from "../../api/client";
import type { DownloadedFile, FileFormat } from "../../api/types";
import { dateFilterProblem } from "../features/timeseries/model/date-filter";
import { timeseriesQuery, type TimeseriesFilters } from "../features/timeseries/timeseries-actions";
import { rethrowIfCancelled, type LongRunning } from "./pane-types";

/**
 * Downloads the timeseries the filters select as one file (the service's items export): for
 * tables too big for a sheet. Nothing is written to the workbook.
 */
export async function downloadTimeseries(
  options: LongRunning & { client: RiskClient; portfolio: string; filters: TimeseriesFilters; format?: FileFormat },
): Promise<DownloadedFile> {
  const { client, portfolio, filters, signal, onProgress } = options;
  onProgress?.({ message: `Downloading the timeseries of ${portfolio}…` });
  return client.datasets
    .itemsExport(
      portfolio,
      { ...timeseriesQuery(filters), file_format: options.format ?? "csv" },
      { signal, timeoutMs: 300_000 },
    )
    .catch(rethrowIfCancelled(signal));
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

/**
 * Hands a downloaded file to the browser as a download: a Blob URL and a clicked anchor. The URL
 * holds the bytes only (never the key); it is revoked once the browser has taken the file.
 */
export function saveFile(file: DownloadedFile, doc: Document = document): void {
  const url = URL.createObjectURL(new Blob([file.bytes as BlobPart], { type: file.contentType }));
  const anchor = doc.createElement("a");
  anchor.href = url;
  anchor.download = file.fileName;
  anchor.style.display = "none";
  doc.body.appendChild(anchor);
  try {
    anchor.click();
  } finally {
    anchor.remove();
    // The click starts the download asynchronously: revoking at once can cancel it in some browsers.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }
}

export { dateFilterProblem };
