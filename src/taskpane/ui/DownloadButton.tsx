import { Button } from "@fluentui/react-components";
import type { DownloadedFile } from "../../api/types";
import { saveFile } from "./downloads";
import type { Progress } from "./pane-types";
import { useTask } from "./hooks/use-task";
import { TaskStatus } from "./TaskStatus";
import { downloadIds } from "./test-ids";

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
  return (
    <>
      <Button
        disabled={props.disabled || task.running}
        data-testid={props.testId}
        onClick={() => task.start(props.download, (file) => file && saveFile(file))}
      >
        {props.label ?? "Download as CSV"}
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
            Downloaded {file.fileName} ({(file.bytes.length / 1024).toFixed(1)} KB).
          </span>
        )}
      />
    </>
  );
}
