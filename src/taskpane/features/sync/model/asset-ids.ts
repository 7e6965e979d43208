/**
 * Assets that cannot be told apart, and the entity_ids the sync pane offers to write for them.
 *
 * Pasted tables key their rows by asset (src/shaping/row-keys.ts): by entity_id when every asset
 * has its own, else by (entity_name, lat, lng) when those are distinct. When neither holds, the
 * analyst's notes beside a pasted table cannot follow their asset through a refresh. The pane says
 * which rows collide and offers ids, written into the analyst's range only when they accept:
 *  - with an entity_id column: its empty cells get `asset-<sheet row>` (a repeated id is already a
 *    problem of the range, with its cell, which the analyst fixes: the pane never renames their ids);
 *  - without one: a new `entity_id` column right of the range (a range read from the selection;
 *    a named table is asked to get the column itself, as a write beside it would not join it).
 * Ids are unique among the range's ids. Pure: the pane reads and writes the cells.
 */
import { cellA1, parseA1, qualify } from "../../../../shaping/a1";
import { assetIdentity, type AssetCollision } from "../../../../shaping/row-keys";
import type { ColumnMapping } from "../../../../shaping/headers";
import type { AssetRow } from "./validate-assets";
import { message, type Message } from "../../../../i18n/messages";

/** A cell the offer writes: its address, what it holds at the preview, and the id. */
export interface IdCell {
  /** Sheet-qualified address. */
  address: string;
  /** Local address for display ("G7"). */
  cell: string;
  before: string;
  after: string;
}

/** Assets that collide, by the sheet rows they are on. */
export interface RowCollision {
  /** What they share, e.g. `"Depot" at 51.5, -0.12`. */
  shared: string;
  /** 1-based sheet rows. */
  rows: number[];
}

/** What the pane shows when assets collide. */
export interface IdentityFinding {
  collisions: RowCollision[];
  /** Assets without an entity_id. */
  missingIds: number;
  /** The ids to write, previewed; empty when `blocked`. */
  cells: IdCell[];
  /** "new column" (header and every row) or "fill" (the empty cells of the entity_id column). */
  how: "new column" | "fill";
  /** Why no ids can be written (a named table without an entity_id column). */
  blocked?: Message;
}

/**
 * The collisions of a validated range and the ids that would end them, or undefined when every
 * asset can be told apart. `address` is the range read (header row first); `fromTable` when it is
 * a named table.
 */
export function identityFinding(
  assets: readonly AssetRow[],
  columns: readonly ColumnMapping[],
  address: string,
  fromTable: boolean,
): IdentityFinding | undefined {
  const identity = assetIdentity(
    assets.map((a, i) => ({
      portfolio_index: i,
      entity_id: a.entity_id,
      entity_name: a.entity_name,
      lat: a.lat,
      lng: a.lng,
    })),
  );
  if (identity.kind !== "colliding") return undefined;
  const collisions = identity.collisions.map((c: AssetCollision) => ({
    shared: c.shared,
    rows: c.portfolioIndexes.map((i) => assets[i].sheetRow),
  }));
  const origin = parseA1(address);
  const at = (sheetRow: number, col: number) => {
    const cell = cellA1(sheetRow - 1, col);
    return { address: qualify(origin.sheet, cell), cell };
  };
  const idColumn = columns.find((c) => c.target.kind === "field" && c.target.field === "entity_id");
  const taken = new Set(assets.map((a) => a.entity_id.trim()).filter((id) => id !== ""));
  // `asset-<row>`, or `asset-<row>-2`, … when the analyst already uses that id.
  const unique = (base: string) => {
    let id = base;
    for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
    taken.add(id);
    return id;
  };
  if (!idColumn) {
    if (fromTable)
      return {
        collisions,
        missingIds: identity.missingIds,
        cells: [],
        how: "new column",
        blocked: message("sync.run.idColumnInTable"),
      };
    const col = origin.col + origin.cols;
    const cells: IdCell[] = [
      { ...at(origin.row + 1, col), before: "", after: "entity_id" },
      ...assets.map((a) => ({ ...at(a.sheetRow, col), before: "", after: unique(`asset-${a.sheetRow}`) })),
    ];
    return { collisions, missingIds: identity.missingIds, cells, how: "new column" };
  }
  const col = origin.col + idColumn.index;
  const cells: IdCell[] = assets
    .filter((a) => a.entity_id.trim() === "")
    .map((a) => ({ ...at(a.sheetRow, col), before: a.entity_id, after: unique(`asset-${a.sheetRow}`) }));
  return { collisions, missingIds: identity.missingIds, cells, how: "fill" };
}
