import { describeAsset, type AssetRef } from "../asset-index";
import type { CancelSignal, RiskEngine } from "../engine/engine";
import { NotAvailableError } from "../formula-errors";
import { assetMetric, type AssetMetric } from "../data-loaders";
import { quote } from "./run";
import { message } from "../../i18n/messages";

/**
 * One metric of one asset's extended hazard, as RISK.IMPACT and RISK.METRIC read it: the asset's
 * position and the value, or a #N/A that says which of portfolio, asset or hazard lacks it. The
 * value itself is the caller's to check (each function says what a missing metric means).
 */
export async function requireAssetMetric(
  engine: RiskEngine,
  wanted: { portfolio: string; scenario: string; asset: AssetRef; hazard: string; metric: string },
  signal: CancelSignal,
  /** What the hazard's entry holds, for the message: "damage" or "metrics". */
  holds: "damage" | "metrics",
): Promise<{ position: number; value: AssetMetric["value"] }> {
  const { portfolio, scenario, asset, hazard, metric } = wanted;
  // One metric per cell is kept, not the whole extended summary (see assetMetric).
  const found = await assetMetric(engine, portfolio, scenario, asset, hazard, metric, signal);
  if (!found.assetFound)
    throw new NotAvailableError(
      message("cell.na.noAsset", { asset: describeAsset(asset), portfolio: quote(portfolio) }),
    );
  if (!found.hazardFound)
    throw new NotAvailableError(
      message("cell.na.noHazardEntry", { hazard, holds, position: String(found.position), scenario }),
    );
  return { position: found.position, value: found.value };
}
