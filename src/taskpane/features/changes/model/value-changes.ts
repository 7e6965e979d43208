/**
 * What changed between two readings of the same cells: label flips (LOW →
 * MEDIUM → HIGH and back, read from a label cell or from a score by the hazard's thresholds) and
 * scores that moved by more than a chosen amount, with one-line summaries such as
 * "14 assets flipped to HIGH for flood_potential under ssp585".
 */
import { message, type Message } from "../../../../i18n/messages";

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
  /** The portfolio its formula reads (written, or in the cell an argument names), whose dataset is stamped. */
  portfolio?: string;
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
export function summarizeChanges(changes: readonly CellChange[], threshold: number): Message[] {
  // One asset per sheet row: a score and its label on the same row flip together and count once.
  const groups = new Map<string, { flip: Record<string, string>; rows: Set<string> }>();
  for (const change of changes) {
    if (
      change.labelAfter === undefined ||
      change.labelBefore === change.labelAfter ||
      change.kind === "score" ||
      change.kind === "error"
    )
      continue;
    const flip = { label: change.labelAfter, hazard: change.hazard ?? "none", scenario: change.scenario ?? "none" };
    const key = JSON.stringify(flip);
    const row = change.address.replace(/^.*!/, "").replace(/^\$?[A-Z]+\$?/, "");
    const group = groups.get(key) ?? { flip, rows: new Set<string>() };
    group.rows.add(`${change.address.slice(0, change.address.lastIndexOf("!") + 1)}${row}`);
    groups.set(key, group);
  }
  const lines = [...groups.values()]
    .sort((a, b) => b.rows.size - a.rows.size)
    .map(({ flip, rows }) => message("changes.summary.flipped", { count: rows.size, ...flip }));
  const moved = changes.filter((c) => c.kind === "score" || c.kind === "label and score").length;
  if (moved > 0) lines.push(message("changes.summary.moved", { count: moved, threshold }));
  const errors = changes.filter((c) => c.kind === "error").length;
  if (errors > 0) lines.push(message("changes.summary.errors", { count: errors }));
  if (lines.length === 0) lines.push(message("changes.summary.nothing", { threshold }));
  return lines;
}
