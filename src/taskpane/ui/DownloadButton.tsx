import { Button } from "@fluentui/react-components";
import type { DownloadedFile } from "../../api/types";
import { saveFile } from "./downloads";
import type { Progress } from "./pane-types";
import { useTask } from "./hooks/use-task";
import { TaskStatus } from "./TaskStatus";
import { downloadIds } from "./test-ids";
import { useI18n } from "./i18n";

/**
 * A "Download as CSV" button beside a paste: fetches the file the service makes (for tables too
 * big for a sheet) and hands it to the browser as a download (Blob URL; the key stays in headers).
 * Test ids: `${testId}` (the button) and the TaskStatus ids under `${testId}`.
 */
export function DownloadButton(props: {
  testId: string;
  label?: string;
  disabled?: boolean;
  download: (signal: AbortSignal, onProgress: (progress: Progress) => void) => Promise<DownloadedFile>;
}) {
  const task = useTask<DownloadedFile>();
  const { t, number } = useI18n();
  return (
    <>
      <Button
        disabled={props.disabled || task.running}
        data-testid={props.testId}
        onClick={() => task.start(props.download, (file) => file && saveFile(file))}
      >
        {props.label ?? t("ui.download.label")}
      </Button>
      <TaskStatus
        task={task}
        testId={props.testId}
        success={(file) => (
          <span
            data-testid={downloadIds(props.testId).file}
            data-file-name={file.fileName}
            data-bytes={file.bytes.length}
          >
            {t("ui.download.done", {
              fileName: file.fileName,
              kilobytes: number(file.bytes.length / 1024, { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
            })}
          </span>
        )}
      />
    </>
  );
}
