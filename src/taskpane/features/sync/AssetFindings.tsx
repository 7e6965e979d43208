import { Button, MessageBar, MessageBarBody, MessageBarTitle, Text, makeStyles } from "@fluentui/react-components";
import { useState } from "react";
import { useServices } from "../../ui/services";
import { ErrorNotice } from "../../ui/ErrorNotice";
import { ProblemList } from "./ProblemList";
import type { IdentityFinding } from "./model/asset-ids";
import { coordinateFormMessage } from "./model/validate-assets";
import { CellChangesOffer, MappingTable } from "./CellChangesTable";
import { CountryCheckFindings } from "./CountryCheckFindings";
import {
  convertCoordinates,
  offerTypeDropdown,
  selectProblemCell,
  writeAssetIds,
  type RangeFindings,
} from "./sync-actions";
import { TEST_IDS } from "../../ui/test-ids";
import { useI18n } from "../../ui/i18n";

/** This section's test ids. */
const IDS = TEST_IDS.sync;

const useStyles = makeStyles({
  column: { display: "flex", flexDirection: "column", gap: "6px" },
  actions: { display: "flex", gap: "8px", marginTop: "6px", flexWrap: "wrap" },
});

/**
 * What a check or a sync found besides problems: the preview of every coordinate it can convert
 * (cell, before, after; written only on "Convert"), the warnings (fewer than 2 decimals,
 * unpublished types with the closest one, prices the service cannot read), the header mapping,
 * the offer of a dropdown of published types on the type column, and the assets that cannot be
 * told apart with the entity_ids offered for them (written only on "Write"). Test ids:
 * sync-conversions (rows sync-conversions-row, button sync-convert), sync-warnings, sync-mapping,
 * sync-dropdown, sync-identity (rows sync-identity-row, button sync-write-ids, sync-ids-written).
 */
export function AssetFindings(props: { findings: Partial<RangeFindings>; showMapping?: boolean }) {
  const styles = useStyles();
  const { t, format } = useI18n();
  const { run } = useServices();
  const { conversions = [], warnings = [], columns = [], typeCells, identity } = props.findings;
  const [converted, setConverted] = useState<string | undefined>(undefined);
  const [dropdown, setDropdown] = useState<string | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const select = (address: string) => run && void selectProblemCell(run, address).catch(setError);
  return (
    <div className={styles.column}>
      {conversions.length > 0 && converted === undefined ? (
        <MessageBar intent="info" layout="multiline" data-testid={IDS.conversions}>
          <MessageBarBody>
            <MessageBarTitle>{t("sync.conversions.title", { count: conversions.length })}</MessageBarTitle>
            <CellChangesOffer
              table={{
                label: t("sync.conversions.tableLabel"),
                columns: [t("sync.conversions.before"), t("sync.conversions.after")],
                rows: conversions.map((c) => ({ ...c, title: format(coordinateFormMessage(c.form)) })),
                rowTestId: IDS.conversionsRow,
              }}
              buttonTestId={IDS.convert}
              buttonText={t("sync.conversions.convert", { count: conversions.length })}
              apply={(runner) => convertCoordinates(runner, conversions)}
              done={(n) => setConverted(t("sync.conversions.done", { count: n }))}
              onError={setError}
            />
          </MessageBarBody>
        </MessageBar>
      ) : null}
      {converted ? <Text data-testid={IDS.converted}>{converted}</Text> : null}
      <CountryCheckFindings {...props.findings} />
      {identity ? <IdentityOffer identity={identity} onError={setError} /> : null}
      {warnings.length > 0 ? (
        <ProblemList
          problems={warnings}
          intent="warning"
          title={t("sync.warnings.title", { count: warnings.length })}
          testId={IDS.warnings.id}
          onSelect={select}
        />
      ) : null}
      {typeCells ? (
        <div className={styles.actions}>
          <Button
            size="small"
            disabled={!run || dropdown !== undefined}
            data-testid={IDS.dropdown}
            onClick={() =>
              run &&
              void offerTypeDropdown(run, typeCells).then(
                (outcome) =>
                  setDropdown(outcome.added ? t("sync.dropdown.added", { address: outcome.address }) : outcome.reason),
                setError,
              )
            }
          >
            {t("sync.dropdown.offer", { range: typeCells.replace(/^.*!/, "") })}
          </Button>
          {dropdown ? <Text data-testid={IDS.dropdownDone}>{dropdown}</Text> : null}
        </div>
      ) : null}
      {props.showMapping && columns.length > 0 ? <MappingTable columns={columns} testId={IDS.mapping.id} /> : null}
      {error ? <ErrorNotice error={error} testId={IDS.findingsError} /> : null}
    </div>
  );
}

/**
 * Assets that cannot be told apart (no distinct entity_id, and no distinct name and place): which
 * rows collide, why it matters (pasted tables keep notes beside an asset by its identity), and the
 * ids the pane would write, previewed; nothing changes until "Write".
 */
function IdentityOffer(props: { identity: IdentityFinding; onError: (error: unknown) => void }) {
  const i18n = useI18n();
  const { t } = i18n;
  const [written, setWritten] = useState<string | undefined>(undefined);
  const { collisions, cells, blocked, how } = props.identity;
  const ids = how === "new column" ? Math.max(0, cells.length - 1) : cells.length;
  if (written) return <Text data-testid={IDS.idsWritten}>{written}</Text>;
  return (
    <MessageBar intent="warning" layout="multiline" data-testid={IDS.identity}>
      <MessageBarBody>
        <MessageBarTitle>{t("sync.identity.title")}</MessageBarTitle>
        <div>
          {t("sync.identity.body", {
            collisions: collisions
              .slice(0, 8)
              .map((c) => t("sync.identity.collision", { shared: c.shared, rows: c.rows.join(", ") }))
              .join("; "),
            more: Math.max(0, collisions.length - 8),
          })}
        </div>
        {blocked ? (
          <div data-testid={IDS.identityBlocked}>{i18n.format(blocked)}</div>
        ) : (
          <>
            <div>{how === "new column" ? t("sync.identity.newColumn") : t("sync.identity.fill")}</div>
            <CellChangesOffer
              table={{
                label: t("sync.identity.tableLabel"),
                columns: [t("sync.identity.now"), t("sync.identity.written")],
                rows: cells,
                rowTestId: IDS.identityRow,
              }}
              buttonTestId={IDS.writeIds}
              buttonText={t("sync.identity.write", { count: ids })}
              apply={(runner) => writeAssetIds(runner, props.identity)}
              done={(n) => setWritten(t("sync.identity.done", { count: n }))}
              onError={props.onError}
            />
          </>
        )}
      </MessageBarBody>
    </MessageBar>
  );
}
