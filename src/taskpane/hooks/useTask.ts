import { useCallback, useEffect, useRef, useState } from "react";
import type { Progress } from "../actions/types";

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
  /** Starts `work` (cancelling one still running); resolves with its result or undefined on failure. */
  start: (
    work: (signal: AbortSignal, onProgress: (progress: Progress) => void) => Promise<T>,
  ) => Promise<T | undefined>;
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

  const start = useCallback<Task<T>["start"]>(async (work) => {
    controller.current?.abort();
    const mine = new AbortController();
    controller.current = mine;
    setState({ status: "running", progress: undefined });
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
  }, []);

  const cancel = useCallback(() => controller.current?.abort(), []);
  const reset = useCallback(() => setState({ status: "idle" }), []);
  return { state, running: state.status === "running", start, cancel, reset };
}
