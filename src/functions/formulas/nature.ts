import { readName, readText } from "../arguments";
import type { GridArgument } from "../columns";
import type { RiskEngine } from "../engine/engine";
import { NotAvailableError } from "../formula-errors";
import { natureSubprojects, natureSummary } from "../data-loaders";
import { NATURE, parameterNames } from "../specs";
import { evaluateColumns, quote, type Invocation } from "./run";

const PARAMETERS = parameterNames(NATURE);

/**
 * RISK.NATURE: one summary number of a nature sub-project, found by id or (case-insensitive) name
 * across every superproject the key can see. Either argument may be a range (see columns.ts).
 */
export function nature(
  engine: RiskEngine,
  subproject: GridArgument,
  metricName: GridArgument,
  invocation?: Invocation,
): Promise<unknown[][]> {
  return evaluateColumns(
    invocation,
    PARAMETERS,
    [subproject, metricName],
    ([s]) => `Unknown sub-project ${quote(s)}`,
    async ([s, m], signal) => {
      const wanted = readText(s, "subproject", "a sub-project id or name");
      const metric = readName(m, "metric", "wildfire_ssp585_2050_mean");
      const list = await natureSubprojects(engine, signal);
      const lower = wanted.toLowerCase();
      const found = list.find((p) => p.id === wanted) ?? list.find((p) => String(p.name).toLowerCase() === lower);
      if (!found) throw new NotAvailableError(`Unknown sub-project ${quote(wanted)}`);
      const values = await natureSummary(engine, found.id, signal);
      const value = values[metric] ?? values[metric.toLowerCase()];
      if (value === undefined)
        throw new NotAvailableError(`Unknown metric ${quote(metric)}: e.g. seismic_baseline_mean`);
      if (value === null || !Number.isFinite(value))
        throw new NotAvailableError(`No value of ${metric} for ${quote(found.name)}`);
      return value;
    },
  );
}
