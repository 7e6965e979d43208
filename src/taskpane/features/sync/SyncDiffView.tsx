import { Text, mergeClasses } from "@fluentui/react-components";
import type { DiffEntry, SyncDiff } from "./model/sync-diff";
import { usePaneStyles } from "../../ui/styles";
import { TEST_IDS } from "../../ui/test-ids";

const SHOWN = 20;

function who(entry: DiffEntry): string {
  const id = entry.entityId || (entry.newIndex !== undefined ? `row ${entry.newIndex}` : `index ${entry.oldIndex}`);
  return entry.name ? `${id} (${entry.name})` : id;
}

function where(entry: DiffEntry): string {
  return entry.sheetRow !== undefined ? `sheet row ${entry.sheetRow}` : `index ${entry.oldIndex}`;
}

/** Coordinates as typed, without binary noise (51.974399999999996 → 51.9744). */
function point(p: { lat: number; lng: number } | undefined): string {
  return p ? `${Number(p.lat.toFixed(6))}, ${Number(p.lng.toFixed(6))}` : "?";
}

function formatKm(km: number): string {
  return km < 1 ? `${Math.round(km * 1000)} m` : `${km.toLocaleString("en-US", { maximumFractionDigits: 1 })} km`;
}

/** One category: its count in the summary line, then its rows (the first SHOWN). */
function Category(props: { id: string; title: string; entries: DiffEntry[]; line: (entry: DiffEntry) => string }) {
  const css = usePaneStyles();
  if (props.entries.length === 0) return null;
  return (
    <details data-testid={TEST_IDS.sync.diffCategory(props.id).id} data-count={props.entries.length}>
      <summary>
        {props.title}: {props.entries.length}
      </summary>
      <ul className={css.tightList}>
        {props.entries.slice(0, SHOWN).map((entry, i) => (
          <li key={i} data-testid={TEST_IDS.sync.diffCategory(props.id).item} className={css.breakWord}>
            {props.line(entry)}
          </li>
        ))}
        {props.entries.length > SHOWN ? <li>… and {props.entries.length - SHOWN} more.</li> : null}
      </ul>
    </details>
  );
}

/**
 * What a sync would change, shown in its confirmation: counts per kind of change, each kind a
 * disclosure listing its rows. Test ids: `sync-diff` (with `data-key`), `sync-diff-summary`, and
 * `sync-diff-<added|removed|moved|relabelled>` (with `data-count`) with their `-item` rows.
 */
export function SyncDiffView(props: { diff: SyncDiff }) {
  const css = usePaneStyles();
  const { diff } = props;
  return (
    <div data-testid={TEST_IDS.sync.diff} data-key={diff.key} className={mergeClasses(css.column, css.above4)}>
      <Text weight="semibold" data-testid={TEST_IDS.sync.diffSummary}>
        {diff.added.length} added · {diff.removed.length} removed · {diff.moved.length} moved · {diff.relabelled.length}{" "}
        relabelled · {diff.unchanged} unchanged
      </Text>
      <Text size={200}>
        {diff.key === "entity_id"
          ? "Matched by entity_id."
          : `Matched by position (${diff.keyReason ?? "no entity_ids"}).`}
        {diff.reindexed > 0
          ? ` ${diff.reindexed} kept assets change position: formulas naming them by index will read another asset; by entity_id they follow.`
          : ""}
      </Text>
      <Category id="added" title="Added" entries={diff.added} line={(e) => `${who(e)}, ${where(e)}`} />
      <Category id="removed" title="Removed" entries={diff.removed} line={(e) => `${who(e)}, ${where(e)}`} />
      <Category
        id="moved"
        title="Moved"
        entries={diff.moved}
        line={(e) => `${who(e)}: ${formatKm(e.distanceKm ?? 0)} (${point(e.from)} → ${point(e.to)}), ${where(e)}`}
      />
      <Category
        id="relabelled"
        title="Relabelled"
        entries={diff.relabelled}
        line={(e) =>
          `${who(e)}: ${(e.changes ?? []).map((c) => `${c.key} “${c.before}” → “${c.after}”`).join(", ")}, ${where(e)}`
        }
      />
    </div>
  );
}
