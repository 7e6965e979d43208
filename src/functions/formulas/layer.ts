import { isBlank, readIndex, readName, readPortfolio, readText, type CellValue } from "../arguments";
import type { RiskEngine } from "../engine/engine";
import { NotAvailableError } from "../errors";
import { appliedLayer } from "../sources";
import { evaluate, quote, type Invocation } from "./run";

/**
 * RISK.LAYER: the value of `column` in the applied-layer CSV row of the asset at `portfolio_index` =
 * index. Without a column: `value` when the CSV has one, else its first numeric layer column.
 */
export function layer(
  engine: RiskEngine,
  vector: CellValue,
  portfolio: CellValue,
  index: CellValue,
  column: CellValue,
  invocation?: Invocation,
): Promise<number | string | boolean> {
  return evaluate(invocation, () => `Unknown layer ${quote(vector)} or portfolio ${quote(portfolio)}`, async (signal) => {
    const id = readText(vector, "vector", "a vector layer id");
    const name = readPortfolio(portfolio);
    const position = readIndex(index);
    const wanted = isBlank(column) ? undefined : readName(column, "column", "value");
    const table = await appliedLayer(engine, id, name, signal);
    const chosen = wanted ?? table.defaultColumn;
    if (chosen === undefined) throw new NotAvailableError(`Layer ${quote(id)} has no numeric column: name one`);
    if (!table.columns.includes(chosen)) {
      throw new NotAvailableError(`No column ${quote(chosen)}: try ${table.columns.slice(0, 6).join(", ")}`);
    }
    const row = table.rows.get(position);
    if (!row) throw new NotAvailableError(`No asset with index ${position} in ${quote(name)}`);
    const value = row[chosen];
    if (value === null || value === undefined || value === "" || (typeof value === "number" && !Number.isFinite(value))) {
      throw new NotAvailableError(`No ${chosen} value for asset ${position}`);
    }
    return value as number | string | boolean;
  });
}
