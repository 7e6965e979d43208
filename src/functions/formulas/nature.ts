import { readName, readText, type CellValue } from "../arguments";
import type { RiskEngine } from "../engine/engine";
import { NotAvailableError } from "../errors";
import { natureSubprojects, natureSummary } from "../sources";
import { evaluate, quote, type Invocation } from "./run";

/**
 * RISK.NATURE: one summary number of a nature sub-project, found by id or (case-insensitive) name
 * across every superproject the key can see.
 */
export function nature(engine: RiskEngine, subproject: CellValue, metricName: CellValue, invocation?: Invocation): Promise<number> {
  return evaluate(invocation, () => `Unknown sub-project ${quote(subproject)}`, async (signal) => {
    const wanted = readText(subproject, "subproject", "a sub-project id or name");
    const metric = readName(metricName, "metric", "wildfire_ssp585_2050_mean");
    const list = await natureSubprojects(engine, signal);
    const lower = wanted.toLowerCase();
    const found = list.find((p) => p.id === wanted) ?? list.find((p) => String(p.name).toLowerCase() === lower);
    if (!found) throw new NotAvailableError(`Unknown sub-project ${quote(wanted)}`);
    const values = await natureSummary(engine, found.id, signal);
    const value = values[metric] ?? values[metric.toLowerCase()];
    if (value === undefined) throw new NotAvailableError(`Unknown metric ${quote(metric)}: e.g. seismic_baseline_mean`);
    if (value === null || !Number.isFinite(value)) throw new NotAvailableError(`No value of ${metric} for ${quote(found.name)}`);
    return value;
  });
}
