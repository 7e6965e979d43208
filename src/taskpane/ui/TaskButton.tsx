import { Button } from "@fluentui/react-components";
import type { ReactNode } from "react";
import type { RiskClient } from "../../api/client";
import type { Task } from "./hooks/use-task";
import type { ExcelRunner, ProgressListener } from "./pane-types";
import { useServices } from "./services";

/**
 * The button that starts a panel's task with the pane's client and workbook: disabled while either
 * is missing, while `ready` is false (the form is incomplete) and while the task runs.
 */
export function TaskButton<T>(props: {
  task: Task<T>;
  testId: string;
  /** The form holds what the task needs (default true). */
  ready?: boolean;
  /** The panel's main action (Fluent's primary appearance). */
  primary?: boolean;
  work: (
    services: { client: RiskClient; run: ExcelRunner },
    signal: AbortSignal,
    onProgress: ProgressListener,
  ) => Promise<T>;
  children: ReactNode;
}) {
  const { client, run } = useServices();
  const { task, work } = props;
  return (
    <Button
      appearance={props.primary ? "primary" : undefined}
      disabled={!client || !run || props.ready === false || task.running}
      data-testid={props.testId}
      onClick={() => client && run && task.start((signal, onProgress) => work({ client, run }, signal, onProgress))}
    >
      {props.children}
    </Button>
  );
}
