import { isBlank, readIndex, type ArgumentValue } from "./arguments";
import { ArgumentError, NotAvailableError } from "./formula-errors";
import { message } from "../i18n/messages";

/**
 * Which asset a portfolio function means. Every portfolio function's `index` parameter takes either
 * the asset's `portfolio_index` (a whole number) or its `entity_id` (text), so a sheet sorted after
 * a sync still points at the right assets. The entity_id is resolved from the dataset the function
 * reads anyway (every portfolio dataset carries `entity_id`): no extra request.
 */

/** An asset as a cell names it. */
export type AssetRef =
  | { kind: "index"; index: number }
  /** `wholeNumber` is set when the text also reads as an index ("12"), used only if no entity_id matches. */
  | { kind: "entity"; entityId: string; wholeNumber?: number };

/** Reads the `index` argument: a number is a portfolio_index, text an entity_id. */
export function readAssetRef(value: ArgumentValue): AssetRef {
  if (typeof value === "string" && !isBlank(value)) {
    const entityId = value.trim();
    const number = Number(entityId);
    return {
      kind: "entity",
      entityId,
      wholeNumber: /^\d+$/.test(entityId) && Number.isSafeInteger(number) ? number : undefined,
    };
  }
  if (isBlank(value)) throw new ArgumentError(message("cell.argument.assetRef"));
  return { kind: "index", index: readIndex(value) };
}

/** How a message names the asset a cell asked for. */
export function describeAsset(ref: AssetRef): string {
  return ref.kind === "index" ? `index ${ref.index}` : `entity_id "${ref.entityId.slice(0, 40)}"`;
}

/**
 * A portfolio dataset indexed by `portfolio_index`, with the entity_ids it holds. Built once per
 * load and cached with it, so resolving 10,000 entity_ids costs 10,000 map reads.
 */
export class AssetIndex<V> extends Map<number, V> {
  /** entity_id → the portfolio_index of every asset that carries it (more than one is a duplicate). */
  readonly entities = new Map<string, number[]>();

  /** Records one asset's row; an entity_id seen on another index is kept as a duplicate. */
  put(portfolioIndex: number, entityId: unknown, value: V): void {
    this.set(portfolioIndex, value);
    if (entityId === undefined || entityId === null || entityId === "") return;
    const id = String(entityId);
    const indexes = this.entities.get(id);
    if (!indexes) this.entities.set(id, [portfolioIndex]);
    else if (!indexes.includes(portfolioIndex)) indexes.push(portfolioIndex);
  }

  /**
   * The portfolio_index a cell means. An unknown entity_id, or one that several assets share, is a
   * clear `#N/A`; text that only reads as a number falls back to that index (how it read before
   * entity_ids were accepted).
   */
  resolve(ref: AssetRef, portfolio: string): number {
    if (ref.kind === "index") return ref.index;
    const indexes = this.entities.get(ref.entityId);
    if (indexes?.length === 1) return indexes[0]!;
    if (indexes && indexes.length > 1) {
      const list = indexes.slice(0, 5).join(", ");
      throw new NotAvailableError(
        message("cell.na.duplicateEntity", {
          entity: `"${ref.entityId}"`,
          count: indexes.length,
          portfolio: `"${portfolio}"`,
          indexes: list,
        }),
      );
    }
    if (ref.wholeNumber !== undefined) return ref.wholeNumber;
    throw new NotAvailableError(
      message("cell.na.noAsset", { asset: `entity_id "${ref.entityId.slice(0, 40)}"`, portfolio: `"${portfolio}"` }),
    );
  }
}
