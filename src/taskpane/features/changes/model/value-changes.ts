/**
 * What changed between two readings of the same cells: label flips (LOW →
 * MEDIUM → HIGH and back, read from a label cell or from a score by the hazard's thresholds) and
 * scores that moved by more than a chosen amount, with one-line summaries such as
 * "14 assets flipped to HIGH for flood_potential under ssp585".
 */

/** One cell as read: its address, value, and what its formula asks (when known). */
export interface ReadCell {
  address: string;
  /**
   * A cell of a keyed pasted table: its row's key and its column. Readings are compared by it, so a
   * table sorted or refreshed by key in between compares each asset with itself, not a position.
   */
  key?: string;
  value: unknown;
  /** The label the value stands for (the value itself for a label cell; by thresholds for a score). */
  label?: "LOW" | "MEDIUM" | "HIGH";
  hazard?: string;
  scenario?: string;
  formula?: string;
}

/** One reported change. */
export interface CellChange {
  address: string;
  kind: "label" | "score" | "label and score" | "error";
  before: unknown;
  after: unknown;
  labelBefore?: string;
  labelAfter?: string;
  /** after − before, for numbers. */
  delta?: number;
  hazard?: string;
  scenario?: string;
  formula?: string;
}

function isNumber(v: unknown): v is number {
  return typeof v === "number" && Number.isFinite(v);
}

function isError(v: unknown): boolean {
  return typeof v === "string" && /^#[A-Z0-9/!?]+[!?]?$/.test(v) && v !== "#";
}

/**
 * Compares two readings cell by cell (by address). A number that moved by more than `threshold`
 * (absolute) is a score move; a label that differs is a flip; a value that became or stopped
 * being an error is an error change. Cells that did not change are not listed.
 */
export function compareReadings(
  before: readonly ReadCell[],
  after: readonly ReadCell[],
  threshold: number,
): CellChange[] {
  const old = new Map(before.map((cell) => [cell.key ?? cell.address, cell]));
  const changes: CellChange[] = [];
  for (const now of after) {
    const was = old.get(now.key ?? now.address);
    if (!was) continue;
    const base = {
      address: now.address,
      before: was.value,
      after: now.value,
      hazard: now.hazard ?? was.hazard,
      scenario: now.scenario ?? was.scenario,
      formula: now.formula ?? was.formula,
    };
    if (isError(was.value) !== isError(now.value) || (isError(now.value) && was.value !== now.value)) {
      changes.push({ ...base, kind: "error" });
      continue;
    }
    const flipped = was.label !== undefined && now.label !== undefined && was.label !== now.label;
    const delta = isNumber(was.value) && isNumber(now.value) ? now.value - was.value : undefined;
    const moved = delta !== undefined && Math.abs(delta) > threshold;
    if (!flipped && !moved) continue;
    changes.push({
      ...base,
      kind: flipped && moved ? "label and score" : flipped ? "label" : "score",
      labelBefore: was.label,
      labelAfter: now.label,
      delta,
    });
  }
  return changes;
}

/**
 * Sentences for the pane: flips grouped by new label, hazard and scenario (an asset is a sheet
 * row), then the count of score moves and of error changes.
 */
export function summarizeChanges(changes: readonly CellChange[], threshold: number): string[] {
  // One asset per sheet row: a score and its label on the same row flip together and count once.
  const groups = new Map<string, Set<string>>();
  for (const change of changes) {
    if (
      change.labelAfter === undefined ||
      change.labelBefore === change.labelAfter ||
      change.kind === "score" ||
      change.kind === "error"
    )
      continue;
    const key = `flipped to ${change.labelAfter}${change.hazard ? ` for ${change.hazard}` : ""}${change.scenario ? ` under ${change.scenario}` : ""}`;
    const row = change.address.replace(/^.*!/, "").replace(/^\$?[A-Z]+\$?/, "");
    const rows = groups.get(key) ?? new Set<string>();
    rows.add(`${change.address.slice(0, change.address.lastIndexOf("!") + 1)}${row}`);
    groups.set(key, rows);
  }
  const lines = [...groups.entries()]
    .map(([key, rows]) => [key, rows.size] as const)
    .sort((a, b) => b[1] - a[1])
    .map(([key, n]) => `${n} asset${n === 1 ? "" : "s"} ${key}`);
  const moved = changes.filter((c) => c.kind === "score" || c.kind === "label and score").length;
  if (moved > 0) lines.push(`${moved} score${moved === 1 ? "" : "s"} moved by more than ${threshold}`);
  const errors = changes.filter((c) => c.kind === "error").length;
  if (errors > 0) lines.push(`${errors} cell${errors === 1 ? "" : "s"} became or stopped being an error`);
  if (lines.length === 0) lines.push(`Nothing changed beyond ${threshold}`);
  return lines;
}
