import {
  Button,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  makeStyles,
} from "@fluentui/react-components";
import { useState } from "react";
import { csvColumnName, type ColumnMapping } from "../../../shaping/headers";
import { useServices } from "../../ui/services";
import { ErrorNotice } from "../../ui/ErrorNotice";
import { ProblemList } from "./ProblemList";
import type { IdentityFinding } from "./model/asset-ids";
import { CellChangesTable } from "./CellChangesTable";
import { CountryCheckFindings } from "./CountryCheckFindings";
import {
  convertCoordinates,
  offerTypeDropdown,
  selectProblemCell,
  writeAssetIds,
  type RangeFindings,
} from "./sync-actions";
import { TEST_IDS, tableIds } from "../../ui/test-ids";

/** This section's test ids. */
const IDS = TEST_IDS.sync;

const useStyles = makeStyles({
  column: { display: "flex", flexDirection: "column", gap: "6px" },
  actions: { display: "flex", gap: "8px", marginTop: "6px", flexWrap: "wrap" },
  table: { marginTop: "4px" },
});

/** How a header is read, for the mapping table: "Site" → entity_name (synonym). */
function mappingRow(column: ColumnMapping): { header: string; sentAs: string; how: string } {
  const sentAs = csvColumnName(column.target) ?? "(not sent: blank header)";
  const how = column.via === "synonym" ? "synonym" : column.via === "new label" ? "new label" : "as written";
  return { header: column.header, sentAs, how };
}

/** The mapping of every header to what the service receives. Test id: `${testId}` with one row per column. */
export function MappingTable(props: { columns: readonly ColumnMapping[]; testId: string }) {
  const styles = useStyles();
  return (
    <Table size="extra-small" aria-label="How each header is sent" className={styles.table} data-testid={props.testId}>
      <TableHeader>
        <TableRow>
          <TableHeaderCell>Header</TableHeaderCell>
          <TableHeaderCell>Sent as</TableHeaderCell>
          <TableHeaderCell>Read</TableHeaderCell>
        </TableRow>
      </TableHeader>
      <TableBody>
        {props.columns.map((column) => {
          const row = mappingRow(column);
          return (
            <TableRow key={column.index} data-testid={tableIds(props.testId).row}>
              <TableCell>{row.header}</TableCell>
              <TableCell>{row.sentAs}</TableCell>
              <TableCell>{row.how}</TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}

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
            <MessageBarTitle>
              {conversions.length} coordinate{conversions.length === 1 ? "" : "s"} can be converted to decimal degrees.
              Nothing changes until you convert.
            </MessageBarTitle>
            <CellChangesTable
              label="Coordinates to convert"
              columns={["Before", "After"]}
              rows={conversions.map((c) => ({ ...c, title: c.form }))}
              rowTestId={IDS.conversionsRow}
            />
            <div className={styles.actions}>
              <Button
                appearance="primary"
                size="small"
                disabled={!run}
                data-testid={IDS.convert}
                onClick={() =>
                  run &&
                  void convertCoordinates(run, conversions).then(
                    (n) => setConverted(`Converted ${n} cell${n === 1 ? "" : "s"}. Sync again to send the assets.`),
                    setError,
                  )
                }
              >
                Convert {conversions.length} cell{conversions.length === 1 ? "" : "s"}
              </Button>
            </div>
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
          title={`${warnings.length} warning${warnings.length === 1 ? "" : "s"}: the service accepts these, but check them.`}
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
                  setDropdown(
                    outcome.added
                      ? `${outcome.address} now offers the published types in a dropdown (other text stays allowed).`
                      : outcome.reason,
                  ),
                setError,
              )
            }
          >
            Add a dropdown of the published types to {typeCells.replace(/^.*!/, "")}
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
  const styles = useStyles();
  const { run } = useServices();
  const [written, setWritten] = useState<string | undefined>(undefined);
  const { collisions, cells, blocked, how } = props.identity;
  const ids = how === "new column" ? Math.max(0, cells.length - 1) : cells.length;
  if (written) return <Text data-testid={IDS.idsWritten}>{written}</Text>;
  return (
    <MessageBar intent="warning" layout="multiline" data-testid={IDS.identity}>
      <MessageBarBody>
        <MessageBarTitle>Some assets cannot be told apart</MessageBarTitle>
        <div>
          They have no entity_id of their own and share a name and place, so a pasted table cannot keep your notes
          beside them by asset through a refresh:{" "}
          {collisions
            .slice(0, 8)
            .map((c) => `${c.shared} (rows ${c.rows.join(", ")})`)
            .join("; ")}
          {collisions.length > 8 ? `; and ${collisions.length - 8} more` : ""}.
        </div>
        {blocked ? (
          <div data-testid={IDS.identityBlocked}>{blocked}</div>
        ) : (
          <>
            <div>
              {how === "new column"
                ? "The pane can write an entity_id column right of your range, one id per asset, before the next sync:"
                : "The pane can fill the entity_id column's empty and repeated cells, before the next sync:"}
            </div>
            <CellChangesTable
              label="Ids to write"
              columns={["Now", "Written"]}
              rows={cells}
              rowTestId={IDS.identityRow}
            />
            <div className={styles.actions}>
              <Button
                appearance="primary"
                size="small"
                disabled={!run}
                data-testid={IDS.writeIds}
                onClick={() =>
                  run &&
                  void writeAssetIds(run, props.identity).then(
                    (n) => setWritten(`Wrote ${n} entity_id${n === 1 ? "" : "s"}. Sync again to send them.`),
                    props.onError,
                  )
                }
              >
                Write {ids} id{ids === 1 ? "" : "s"}
              </Button>
            </div>
          </>
        )}
      </MessageBarBody>
    </MessageBar>
  );
}
