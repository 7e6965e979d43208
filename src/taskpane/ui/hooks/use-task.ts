import { useCallback, useEffect, useRef, useState } from "react";
import type { Progress } from "../pane-types";

/** The visible state of one long operation. */
export type TaskState<T> =
  | { status: "idle" }
  | { status: "running"; progress: Progress | undefined }
  | { status: "done"; result: T }
  | { status: "failed"; error: unknown };

/** A long operation a panel runs: its state, a start function and a cancel function. */
export interface Task<T> {
  state: TaskState<T>;
  running: boolean;
  /**
   * Starts `work` (cancelling one still running). Returns nothing and never throws, so it can be an
   * event handler: the outcome is in `state`. `then` runs once `work` settles, with its result or
   * undefined when it failed, e.g. to reload a list after a change.
   */
  start: (
    work: (signal: AbortSignal, onProgress: (progress: Progress) => void) => Promise<T>,
    then?: (result: T | undefined) => void,
  ) => void;
  /** Fires the running operation's AbortSignal. */
  cancel: () => void;
  /** Back to idle (e.g. after the user closed a message). */
  reset: () => void;
}

/**
 * Runs one operation at a time with progress, cancellation and an error state, so every panel
 * shows loading, success and failure the same way. Cancels on unmount.
 */
export function useTask<T>(): Task<T> {
  const [state, setState] = useState<TaskState<T>>({ status: "idle" });
  const controller = useRef<AbortController | null>(null);

  useEffect(() => () => controller.current?.abort(), []);

  const start = useCallback<Task<T>["start"]>((work, then) => {
    controller.current?.abort();
    const mine = new AbortController();
    controller.current = mine;
    setState({ status: "running", progress: undefined });
    const settle = async (): Promise<T | undefined> => {
      try {
        const result = await work(mine.signal, (progress) => {
          if (controller.current === mine) setState({ status: "running", progress });
        });
        if (controller.current === mine) setState({ status: "done", result });
        return result;
      } catch (error) {
        if (controller.current === mine) setState({ status: "failed", error });
        return undefined;
      } finally {
        if (controller.current === mine) controller.current = null;
      }
    };
    // settle() cannot reject; a failing `then` is shown like a failing task rather than lost.
    void settle()
      .then(then)
      .catch((error: unknown) => setState({ status: "failed", error }));
  }, []);

  const cancel = useCallback(() => controller.current?.abort(), []);
  const reset = useCallback(() => setState({ status: "idle" }), []);
  return { state, running: state.status === "running", start, cancel, reset };
}
