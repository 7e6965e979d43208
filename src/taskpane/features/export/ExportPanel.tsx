import { Button, Link, Text } from "@fluentui/react-components";
import { useEffect, useMemo, useState } from "react";
import { downloadExport, listExportFiles, unpackExport, type DownloadedExport } from "./export-actions";
import type { PastedSheet } from "../../ui/pane-types";
import { useServices } from "../../ui/services";
import { useTask } from "../../ui/hooks/use-task";
import { ErrorNotice } from "../../ui/ErrorNotice";
import { PortfolioSelect } from "../../ui/PortfolioSelect";
import { TaskStatus } from "../../ui/TaskStatus";
import { Stack } from "../../ui/layout";
import { TEST_IDS } from "../../ui/test-ids";
import { useI18n } from "../../ui/i18n";

/** Download the physical export ZIP; offer to save it and to unpack its CSVs into sheets. */
export function ExportPanel() {
  const { client, run } = useServices();
  const { t, number } = useI18n();
  const [portfolio, setPortfolio] = useState("");
  const download = useTask<DownloadedExport>();
  const unpack = useTask<PastedSheet[]>();
  const file = download.state.status === "done" ? download.state.result : undefined;

  // A Blob URL for "Save": made once per download and revoked when replaced.
  const url = useMemo(
    () => (file ? URL.createObjectURL(new Blob([file.bytes as BlobPart], { type: "application/zip" })) : undefined),
    [file],
  );
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  const contents = useMemo(() => {
    if (!file) return { files: [], error: undefined as unknown };
    try {
      return { files: listExportFiles(file), error: undefined as unknown };
    } catch (error) {
      return { files: [], error };
    }
  }, [file]);

  return (
    <Stack>
      <PortfolioSelect value={portfolio} onChange={setPortfolio} testId={TEST_IDS.export.portfolio.id} />
      <Button
        appearance="primary"
        disabled={!client || !portfolio || download.running}
        data-testid={TEST_IDS.export.download.id}
        onClick={() => {
          unpack.reset();
          if (client) download.start((signal, onProgress) => downloadExport(client, portfolio, { signal, onProgress }));
        }}
      >
        {t("export.download")}
      </Button>
      {download.state.status === "done" ? null : (
        <TaskStatus task={download} testId={TEST_IDS.export.download.id} success={() => null} />
      )}
      {file && url ? (
        <Stack data-testid={TEST_IDS.export.ready}>
          <Text size={200}>
            {t("export.ready", {
              file: file.fileName,
              size: number(file.bytes.length / 1024, { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
              count: contents.files.length,
              files: contents.files.map((f) => f.fileName).join(", "),
            })}
          </Text>
          <Link href={url} download={file.fileName} data-testid={TEST_IDS.export.save}>
            {t("export.save", { file: file.fileName })}
          </Link>
          {contents.error ? <ErrorNotice error={contents.error} testId={TEST_IDS.export.contentsError} /> : null}
          <Button
            disabled={!run || unpack.running || contents.files.length === 0}
            data-testid={TEST_IDS.export.unpack.id}
            onClick={() =>
              run &&
              unpack.start((signal, onProgress) =>
                unpackExport({ run, download: file, client: client ?? undefined, signal, onProgress }),
              )
            }
          >
            {t("export.unpack", { count: contents.files.length })}
          </Button>
          <TaskStatus
            task={unpack}
            testId={TEST_IDS.export.unpack.id}
            success={(sheets) =>
              t("export.unpacked", { count: sheets.length, sheets: sheets.map((s) => s.sheetName).join(", ") })
            }
          />
        </Stack>
      ) : null}
    </Stack>
  );
}
