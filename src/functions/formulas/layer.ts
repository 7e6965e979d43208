import { isBlank, readName, readPortfolio, readText } from "../arguments";
import { describeAsset, readAssetRef } from "../asset-index";
import { NotAvailableError } from "../formula-errors";
import { appliedLayer } from "../data-loaders";
import { LAYER } from "../specs";
import { columnFormula, quote } from "./run";
import { message } from "../../i18n/messages";

/**
 * RISK.LAYER: the value of `column` in the applied-layer CSV row of the asset named by
 * portfolio_index or entity_id. Without a column: `value` when the CSV has one, else its first
 * numeric layer column. Each argument may be a range (see columns.ts).
 */
export const layer = columnFormula(
  LAYER,
  ([v, p]) => message("cell.na.unknownLayerOrPortfolio", { layer: quote(v), portfolio: quote(p) }),
  async (engine, [v, p, i, c], signal) => {
    const id = readText(v, "vector", "cell.argument.vector");
    const name = readPortfolio(p);
    const asset = readAssetRef(i);
    const wanted = isBlank(c) ? undefined : readName(c, "column", "value");
    const table = await appliedLayer(engine, id, name, signal);
    const chosen = wanted ?? table.defaultColumn;
    if (chosen === undefined) throw new NotAvailableError(message("cell.na.layerNoNumeric", { layer: quote(id) }));
    if (!table.columns.includes(chosen)) {
      throw new NotAvailableError(
        message("cell.na.noColumn", { column: quote(chosen), columns: table.columns.slice(0, 6).join(", ") }),
      );
    }
    const position = table.rows.resolve(asset, name);
    const row = table.rows.get(position);
    if (!row)
      throw new NotAvailableError(message("cell.na.noAsset", { asset: describeAsset(asset), portfolio: quote(name) }));
    const value = row[chosen];
    if (
      value === null ||
      value === undefined ||
      value === "" ||
      (typeof value === "number" && !Number.isFinite(value))
    ) {
      throw new NotAvailableError(message("cell.na.noColumnValue", { column: chosen, position: String(position) }));
    }
    return value as number | string | boolean;
  },
);
