import type { RiskClient } from "../../../api/client";
import { STRESS_SCENARIO } from "../../../shared/vocabulary";
import type { DownloadedFile, FileFormat } from "../../../api/types";
import { pasteKinds, type KindPaste } from "../pasted";
import { EXTENDED_SUMMARY_KIND, SUMMARY_KIND } from "./summary-kinds";
import { rethrowIfCancelled, type LongRunning, type PastedSheet, type PasteOptions } from "../../ui/pane-types";
import { message } from "../../../i18n/messages";

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
 * new sheets through their paste kinds (features/pasted/paste-kinds.ts, the definitions their
 * refresh runs), one row per asset × scenario (× window), with LOW/MEDIUM/HIGH labels coloured by
 * conditional formatting; the extended summary one scenario at a time. Both sheets are written all
 * or nothing.
 */
export async function pasteSummary(options: SummaryPasteOptions): Promise<PastedSheet[]> {
  const { portfolio, onProgress } = options;
  const extendedScenario = options.scenario ?? options.extendedScenario ?? DEFAULT_EXTENDED_SCENARIO;
  onProgress?.({ message: message("summary.run.reading") });
  const pastes: KindPaste[] = [
    {
      kind: SUMMARY_KIND,
      portfolio,
      filters: { scenario: options.scenario },
      ifEmpty: options.scenario
        ? message("summary.run.noDataFor", { portfolio, scenario: options.scenario })
        : message("summary.run.noData", { portfolio }),
    },
  ];
  if (options.extended ?? true)
    pastes.push({ kind: EXTENDED_SUMMARY_KIND, portfolio, filters: { scenario: extendedScenario }, optional: true });
  return pasteKinds(options, pastes);
}

/** Downloads the default summary (optionally one scenario) as one file (the service's summary export). */
export async function downloadSummary(
  options: LongRunning & { client: RiskClient; portfolio: string; scenario?: string; format?: FileFormat },
): Promise<DownloadedFile> {
  const { client, portfolio, signal, onProgress } = options;
  onProgress?.({ message: message("summary.run.downloading", { portfolio }) });
  return client.datasets
    .summaryExport(
      portfolio,
      { scenario: options.scenario || undefined, file_format: options.format ?? "csv" },
      { signal, timeoutMs: 300_000 },
    )
    .catch(rethrowIfCancelled(signal));
}
