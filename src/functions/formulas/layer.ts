import { isBlank, readName, readPortfolio, readText } from "../arguments";
import { describeAsset, readAssetRef } from "../asset-index";
import { NotAvailableError } from "../formula-errors";
import { appliedLayer } from "../data-loaders";
import { LAYER } from "../specs";
import { columnFormula, quote } from "./run";

/**
 * RISK.LAYER: the value of `column` in the applied-layer CSV row of the asset named by
 * portfolio_index or entity_id. Without a column: `value` when the CSV has one, else its first
 * numeric layer column. Each argument may be a range (see columns.ts).
 */
export const layer = columnFormula(
  LAYER,
  ([v, p]) => `Unknown layer ${quote(v)} or portfolio ${quote(p)}`,
  async (engine, [v, p, i, c], signal) => {
    const id = readText(v, "vector", "a vector layer id");
    const name = readPortfolio(p);
    const asset = readAssetRef(i);
    const wanted = isBlank(c) ? undefined : readName(c, "column", "value");
    const table = await appliedLayer(engine, id, name, signal);
    const chosen = wanted ?? table.defaultColumn;
    if (chosen === undefined) throw new NotAvailableError(`Layer ${quote(id)} has no numeric column: name one`);
    if (!table.columns.includes(chosen)) {
      throw new NotAvailableError(`No column ${quote(chosen)}: try ${table.columns.slice(0, 6).join(", ")}`);
    }
    const position = table.rows.resolve(asset, name);
    const row = table.rows.get(position);
    if (!row) throw new NotAvailableError(`No asset with ${describeAsset(asset)} in ${quote(name)}`);
    const value = row[chosen];
    if (
      value === null ||
      value === undefined ||
      value === "" ||
      (typeof value === "number" && !Number.isFinite(value))
    ) {
      throw new NotAvailableError(`No ${chosen} value for asset ${position}`);
    }
    return value as number | string | boolean;
  },
);
