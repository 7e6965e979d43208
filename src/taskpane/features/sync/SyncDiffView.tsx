import { Text, mergeClasses } from "@fluentui/react-components";
import type { DiffEntry, SyncDiff } from "./model/sync-diff";
import { usePaneStyles } from "../../ui/styles";
import { TEST_IDS } from "../../ui/test-ids";
import { useI18n } from "../../ui/i18n";
import type { Translator } from "../../../i18n/translator";
import { formatPoint } from "./format-point";

const SHOWN = 20;

/** Who an entry is: its entity_id (else its row or index) and its name. */
function who(entry: DiffEntry, t: Translator["t"]): string {
  const id =
    entry.entityId ||
    (entry.newIndex !== undefined
      ? t("sync.diff.row", { row: entry.newIndex })
      : t("sync.diff.index", { index: entry.oldIndex ?? "" }));
  return entry.name ? t("sync.diff.who", { id, name: entry.name }) : id;
}

function where(entry: DiffEntry, t: Translator["t"]): string {
  return entry.sheetRow !== undefined
    ? t("sync.diff.sheetRow", { row: entry.sheetRow })
    : t("sync.diff.index", { index: entry.oldIndex ?? "" });
}

/** A point, or "?" where there is none. */
function point(p: { lat: number; lng: number } | undefined, i18n: Translator): string {
  return p ? formatPoint(p, i18n) : "?";
}

function formatKm(km: number, i18n: Translator): string {
  return km < 1
    ? i18n.t("sync.diff.metres", { value: i18n.number(Math.round(km * 1000)) })
    : i18n.t("sync.diff.kilometres", { value: i18n.number(km, { maximumFractionDigits: 1 }) });
}

/** One category: its count in the summary line, then its rows (the first SHOWN). */
function Category(props: { id: string; title: string; entries: DiffEntry[]; line: (entry: DiffEntry) => string }) {
  const css = usePaneStyles();
  const { t } = useI18n();
  if (props.entries.length === 0) return null;
  return (
    <details data-testid={TEST_IDS.sync.diffCategory(props.id).id} data-count={props.entries.length}>
      <summary>{t("sync.diff.category", { title: props.title, count: props.entries.length })}</summary>
      <ul className={css.tightList}>
        {props.entries.slice(0, SHOWN).map((entry, i) => (
          <li key={i} data-testid={TEST_IDS.sync.diffCategory(props.id).item} className={css.breakWord}>
            {props.line(entry)}
          </li>
        ))}
        {props.entries.length > SHOWN ? <li>{t("sync.diff.more", { count: props.entries.length - SHOWN })}</li> : null}
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
  const i18n = useI18n();
  const { t } = i18n;
  const { diff } = props;
  const line = (e: DiffEntry) => t("sync.diff.line", { who: who(e, t), where: where(e, t) });
  return (
    <div data-testid={TEST_IDS.sync.diff} data-key={diff.key} className={mergeClasses(css.column, css.above4)}>
      <Text weight="semibold" data-testid={TEST_IDS.sync.diffSummary}>
        {t("sync.diff.summary", {
          added: diff.added.length,
          removed: diff.removed.length,
          moved: diff.moved.length,
          relabelled: diff.relabelled.length,
          unchanged: diff.unchanged,
        })}
      </Text>
      <Text size={200}>
        {diff.key === "entity_id"
          ? t("sync.diff.byId")
          : t("sync.diff.byPosition", { reason: diff.keyReason ?? t("sync.diff.noIds") })}
        {diff.reindexed > 0 ? ` ${t("sync.diff.reindexed", { count: diff.reindexed })}` : ""}
      </Text>
      <Category id="added" title={t("sync.diff.added")} entries={diff.added} line={line} />
      <Category id="removed" title={t("sync.diff.removed")} entries={diff.removed} line={line} />
      <Category
        id="moved"
        title={t("sync.diff.moved")}
        entries={diff.moved}
        line={(e) =>
          t("sync.diff.movedLine", {
            who: who(e, t),
            distance: formatKm(e.distanceKm ?? 0, i18n),
            from: point(e.from, i18n),
            to: point(e.to, i18n),
            where: where(e, t),
          })
        }
      />
      <Category
        id="relabelled"
        title={t("sync.diff.relabelled")}
        entries={diff.relabelled}
        line={(e) =>
          t("sync.diff.relabelledLine", {
            who: who(e, t),
            changes: (e.changes ?? [])
              .map((c) => t("sync.diff.labelChange", { key: c.key, before: c.before, after: c.after }))
              .join(", "),
            where: where(e, t),
          })
        }
      />
    </div>
  );
}
