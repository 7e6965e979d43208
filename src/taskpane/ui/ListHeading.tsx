import { Button, Spinner, Text } from "@fluentui/react-components";
import { ErrorNotice } from "./ErrorNotice";
import { Row } from "./layout";
import { listHeadingIds } from "./test-ids";
import { useI18n } from "./i18n";

/**
 * The heading of a list the pane loads from the service, with its Reload button, and under it the
 * loading spinner or the error of the last load. Test ids `<testId>-reload`, `<errorTestId>`.
 */
export function ListHeading(props: {
  title: string;
  list: { reload: () => void; loading: boolean; error: unknown };
  testId: string;
  errorTestId: string;
}) {
  const { list } = props;
  const { t } = useI18n();
  return (
    <>
      <Row spread center>
        <Text weight="semibold">{props.title}</Text>
        <Button size="small" onClick={list.reload} data-testid={listHeadingIds(props.testId).reload}>
          {t("ui.list.reload")}
        </Button>
      </Row>
      {list.loading ? <Spinner size="tiny" label={t("ui.list.loading")} /> : null}
      {list.error ? <ErrorNotice error={list.error} testId={props.errorTestId} /> : null}
    </>
  );
}
