import { Link, MessageBar, MessageBarBody, MessageBarTitle } from "@fluentui/react-components";
import type { RangeProblem } from "../../../shaping/problems";
import { usePaneStyles } from "../../ui/styles";
import { problemListIds } from "../../ui/test-ids";
import { useI18n } from "../../ui/i18n";

/**
 * Every problem of a range with its cell address; clicking (or Enter on) an address selects that
 * cell in the sheet. Test ids: `${testId}` on the list, `${testId}-item` on each entry (with
 * `data-address`), `${testId}-link` on each address link.
 */
export function ProblemList(props: {
  problems: RangeProblem[];
  testId: string;
  onSelect: (address: string) => void;
  /** Warnings (nothing stopped) or information (not checked) instead of problems to fix first. */
  intent?: "error" | "warning" | "info";
  /** Replaces the default title ("N problems to fix first. Nothing was sent."). */
  title?: string;
}) {
  const { problems } = props;
  const css = usePaneStyles();
  const { t, format } = useI18n();
  return (
    <MessageBar intent={props.intent ?? "error"} layout="multiline" data-testid={props.testId}>
      <MessageBarBody>
        <MessageBarTitle>{props.title ?? t("sync.problems.title", { count: problems.length })}</MessageBarTitle>
        <ul className={css.scrollingList}>
          {problems.map((problem, i) => (
            <li
              key={i}
              data-testid={problemListIds(props.testId).item}
              data-address={problem.address}
              className={css.breakWord}
            >
              {problem.cell ? (
                <>
                  <Link
                    as="button"
                    onClick={() => props.onSelect(problem.address)}
                    data-testid={problemListIds(props.testId).link}
                    aria-label={t("sync.problems.select", { cell: problem.cell })}
                  >
                    {problem.cell}
                  </Link>
                  {": "}
                </>
              ) : null}
              {format(problem.message)}
            </li>
          ))}
        </ul>
      </MessageBarBody>
    </MessageBar>
  );
}
