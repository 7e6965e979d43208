import {
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  makeStyles,
} from "@fluentui/react-components";
import { useI18n } from "../../ui/i18n";

const useStyles = makeStyles({
  table: { marginTop: "4px" },
  scroll: { maxHeight: "220px", overflowY: "auto" },
  before: { wordBreak: "break-all" },
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
