/**
 * A streaming paste: pages are read (with read-ahead) while earlier pages are written, through the
 * one streaming writer (src/excel/stream-sheets.ts): whole or absent. Used by the first paste of a
 * kind that streams (first-paste.ts `streamKind`: the timeseries).
 */
import { AbortedError } from "../../../api/errors";
import { StreamingSheets, type StreamSheetSpec } from "../../../excel/stream-sheets";
import type { ChartSpec } from "../../../excel/table-formats";
import type { WrittenSheet } from "../../../excel/write-sheets";
import { CancelledError, type ExcelRunner } from "../../ui/pane-types";

/** What a streaming paste is made of. */
export interface StreamPasteOptions<T> {
  run: ExcelRunner;
  specs: StreamSheetSpec[];
  signal?: AbortSignal;
  /**
   * Reads every page, calling `onPage` with each page in order; stops when `signal` fires. Usually
   * `list.all({ signal, readAhead, onPage })`.
   */
  read: (onPage: (items: T[]) => void, signal: AbortSignal) => Promise<unknown>;
  /** Turns a page into rows and appends them (in page order, one page at a time). */
  consume: (items: T[], writer: StreamingSheets) => Promise<void>;
  /** Headers (and charts) once everything is read and written. */
  finish: () => { headers: string[][]; charts?: Array<ChartSpec | undefined> };
  /** Thrown instead of a cancellation when the paste stopped itself (e.g. too many rows). */
  stopReason?: () => Error | undefined;
  maxRequestBytes?: number;
}

/**
 * Opens the sheets, reads and writes concurrently (each page is appended as it arrives; a chunk's
 * sync runs while the next pages are in flight), then finishes: the sheets appear renamed into
 * place. A failure anywhere, or Cancel, stops the reader and deletes the new sheets.
 */
export async function streamPaste<T>(options: StreamPasteOptions<T>): Promise<WrittenSheet[]> {
  const { run, specs, signal } = options;
  const reading = new AbortController();
  const onCancel = () => reading.abort();
  signal?.addEventListener("abort", onCancel, { once: true });
  try {
    return await run(async (context) => {
      const writer = await StreamingSheets.open(context, specs, { signal, maxRequestBytes: options.maxRequestBytes });
      let writing: Promise<void> = Promise.resolve();
      let writeFailure: unknown;
      try {
        await options
          .read((items) => {
            writing = writing
              .then(() => (writeFailure === undefined ? options.consume(items, writer) : undefined))
              .catch((error: unknown) => {
                writeFailure ??= error;
                reading.abort(); // no point reading what cannot be written
              });
          }, reading.signal)
          .catch((error: unknown) => {
            throw writeFailure ?? error;
          });
        await writing;
        if (writeFailure !== undefined) throw writeFailure;
        signal?.throwIfAborted();
      } catch (error) {
        await writing.catch(() => undefined);
        await writer.discard(error);
        throw error;
      }
      const { headers, charts } = options.finish();
      return writer.finish(headers, charts);
    });
  } catch (error) {
    const stopped = options.stopReason?.();
    if (stopped) throw stopped;
    if (signal?.aborted || error instanceof AbortedError) throw new CancelledError();
    throw error;
  } finally {
    signal?.removeEventListener("abort", onCancel);
  }
}
