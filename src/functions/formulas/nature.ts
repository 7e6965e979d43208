import { readName, readText } from "../arguments";
import { NotAvailableError } from "../formula-errors";
import { natureSubprojects, natureSummary } from "../data-loaders";
import { NATURE } from "../specs";
import { columnFormula, quote } from "./run";
import { message } from "../../i18n/messages";

/**
 * RISK.NATURE: one summary number of a nature sub-project, found by id or (case-insensitive) name
 * across every superproject the key can see. Either argument may be a range (see columns.ts).
 */
export const nature = columnFormula(
  NATURE,
  ([s]) => message("cell.na.unknownSubproject", { subproject: quote(s) }),
  async (engine, [s, m], signal) => {
    const wanted = readText(s, "subproject", "cell.argument.subproject");
    const metric = readName(m, "metric", "wildfire_ssp585_2050_mean");
    const list = await natureSubprojects(engine, signal);
    const lower = wanted.toLowerCase();
    const found = list.find((p) => p.id === wanted) ?? list.find((p) => String(p.name).toLowerCase() === lower);
    if (!found) throw new NotAvailableError(message("cell.na.unknownSubproject", { subproject: quote(wanted) }));
    const values = await natureSummary(engine, found.id, signal);
    const value = values[metric] ?? values[metric.toLowerCase()];
    if (value === undefined)
      throw new NotAvailableError(
        message("cell.na.unknownMetric", { metric: quote(metric), example: "seismic_baseline_mean" }),
      );
    if (value === null || !Number.isFinite(value))
      throw new NotAvailableError(message("cell.na.noSubprojectValue", { metric, subproject: quote(found.name) }));
    return value;
  },
);
