import {
  Button,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  makeStyles,
} from "@fluentui/react-components";
import { useI18n } from "../../ui/i18n";
import { useServices } from "../../ui/services";
import type { ExcelRunner } from "../../ui/pane-types";
import { tableIds } from "../../ui/test-ids";
import { csvColumnName, type ColumnMapping } from "../../../shaping/headers";
import type { Translator } from "../../../i18n/translator";

const useStyles = makeStyles({
  table: { marginTop: "4px" },
  scroll: { maxHeight: "220px", overflowY: "auto" },
  before: { wordBreak: "break-all" },
  actions: { display: "flex", gap: "8px", marginTop: "6px", flexWrap: "wrap" },
});

/**
 * The cells a change would write, before and after, in a short scrolling table: what the pane
 * shows before it asks to convert coordinates or to write asset ids.
 */
export function CellChangesTable(props: {
  label: string;
  columns: [string, string];
  rows: ReadonlyArray<{ address: string; cell: string; before: string; after: string | number; title?: string }>;
  rowTestId: string;
}) {
  const styles = useStyles();
  const { t } = useI18n();
  return (
    <div className={styles.scroll}>
      <Table size="extra-small" aria-label={props.label} className={styles.table}>
        <TableHeader>
          <TableRow>
            <TableHeaderCell>{t("sync.changes.cell")}</TableHeaderCell>
            <TableHeaderCell>{props.columns[0]}</TableHeaderCell>
            <TableHeaderCell>{props.columns[1]}</TableHeaderCell>
          </TableRow>
        </TableHeader>
        <TableBody>
          {props.rows.map((c) => (
            <TableRow key={c.address} data-testid={props.rowTestId} data-address={c.address}>
              <TableCell>{c.cell}</TableCell>
              <TableCell className={styles.before} title={c.title}>
                {c.before}
              </TableCell>
              <TableCell>{c.after}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}

/** How a header is read, for the mapping table: "Site" → entity_name (synonym). */
function mappingRow(column: ColumnMapping, t: Translator["t"]): { header: string; sentAs: string; how: string } {
  const sentAs = csvColumnName(column.target) ?? t("sync.mapping.notSent");
  const how = t("sync.mapping.how", {
    via: column.via === "synonym" ? "synonym" : column.via === "new label" ? "label" : "written",
  });
  return { header: column.header, sentAs, how };
}

/** The mapping of every header to what the service receives. Test id: `${testId}` with one row per column. */
export function MappingTable(props: { columns: readonly ColumnMapping[]; testId: string }) {
  const styles = useStyles();
  const { t } = useI18n();
  return (
    <Table
      size="extra-small"
      aria-label={t("sync.mapping.tableLabel")}
      className={styles.table}
      data-testid={props.testId}
    >
      <TableHeader>
        <TableRow>
          <TableHeaderCell>{t("sync.mapping.header")}</TableHeaderCell>
          <TableHeaderCell>{t("sync.mapping.sentAs")}</TableHeaderCell>
          <TableHeaderCell>{t("sync.mapping.read")}</TableHeaderCell>
        </TableRow>
      </TableHeader>
      <TableBody>
        {props.columns.map((column) => {
          const row = mappingRow(column, t);
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
 * An offer to change cells, previewed: the cells before and after, and the button that writes them.
 * Nothing changes until it is pressed; `apply` answers how many cells it wrote, `done` says so.
 */
export function CellChangesOffer(props: {
  table: Parameters<typeof CellChangesTable>[0];
  buttonTestId: string;
  buttonText: string;
  apply: (run: ExcelRunner) => Promise<number>;
  done: (count: number) => void;
  onError: (error: unknown) => void;
}) {
  const styles = useStyles();
  const { run } = useServices();
  return (
    <>
      <CellChangesTable {...props.table} />
      <div className={styles.actions}>
        <Button
          appearance="primary"
          size="small"
          disabled={!run}
          data-testid={props.buttonTestId}
          onClick={() => run && void props.apply(run).then(props.done, props.onError)}
        >
          {props.buttonText}
        </Button>
      </div>
    </>
  );
}
