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
  /** The sheets; a promise when they wait on a read of their own (the provenance's dataset version). */
  specs: StreamSheetSpec[] | Promise<StreamSheetSpec[]>;
  signal?: AbortSignal;
  /**
   * Reads every page, calling `onPage` with each page in order; stops when `signal` fires. Usually
   * `list.all({ signal, readAhead, onPage })`.
   */
  read: (onPage: (items: T[]) => Promise<void>, signal: AbortSignal) => Promise<unknown>;
  /** Turns a page into rows and appends them (in page order, one page at a time). */
  consume: (items: T[], writer: StreamingSheets) => Promise<void>;
  /** Headers (and charts) once everything is read and written. */
  finish: () => { headers: string[][]; charts?: Array<ChartSpec | undefined> };
  /** Thrown instead of a cancellation when the paste stopped itself (e.g. too many rows). */
  stopReason?: () => Error | undefined;
  maxRequestBytes?: number;
}

/**
 * Opens the sheets while the first pages are read, reads and writes concurrently (each page is
 * appended as it arrives; a chunk's sync runs while the next pages are in flight), then finishes:
 * the sheets appear renamed into place. A failure anywhere, or Cancel, stops the reader and
 * deletes the new sheets.
 */
export async function streamPaste<T>(options: StreamPasteOptions<T>): Promise<WrittenSheet[]> {
  const { run, signal } = options;
  const reading = new AbortController();
  const onCancel = () => reading.abort();
  signal?.addEventListener("abort", onCancel, { once: true });
  try {
    return await run(async (context) => {
      // The sheets are opened (a round trip to Excel, after the specs' own read) while the first
      // pages are read: in Excel on the web each is a round trip, and neither needs the other.
      // Pages that arrive first wait for the writer; the read keeps pace with it.
      let writer: StreamingSheets | undefined;
      let writeFailure: unknown;
      const failWriting = (error: unknown) => {
        writeFailure ??= error;
        reading.abort(); // no point reading what cannot be written
      };
      let writing: Promise<void> = Promise.resolve(options.specs)
        .then((specs) => StreamingSheets.open(context, specs, { signal, maxRequestBytes: options.maxRequestBytes }))
        .then((opened) => {
          writer = opened;
        }, failWriting);
      try {
        await options
          .read((items) => {
            writing = writing
              .then(() => (writeFailure === undefined && writer ? options.consume(items, writer) : undefined))
              .catch(failWriting);
            return writing; // the read keeps pace with the writing (api/pagination.ts pagesAheadOfConsumer)
          }, reading.signal)
          .catch((error: unknown) => {
            throw writeFailure ?? error;
          });
        await writing;
        if (writeFailure !== undefined) throw writeFailure;
        signal?.throwIfAborted();
      } catch (error) {
        await writing.catch(() => undefined);
        await writer?.discard(error);
        throw error;
      }
      const { headers, charts } = options.finish();
      return writer!.finish(headers, charts);
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
