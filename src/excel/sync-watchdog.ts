/**
 * A watch on every `context.sync()` the add-in sends: Excel on the web has been seen to leave one
 * pending for good, with no error and no timeout, while its server is busy (typically just after a
 * large workbook with many custom functions opens; office-js issues #6150, #4805, #6678). Without a
 * watch, the pane's progress bar spins forever.
 *
 * A sync that has not answered after `stallMs` is reported as a stall (the pane says Excel is not
 * answering and offers Wait or Cancel). The default, 5 seconds, is the time Office itself allows
 * before it calls an add-in unresponsive ("Application blocking - a prolonged unresponsiveness
 * threshold of five seconds", "Resource limits and performance optimization for Office Add-ins",
 * https://learn.microsoft.com/office/dev/add-ins/concepts/resource-limits-and-performance-optimization):
 * a sync that takes longer is one Office would not accept of the add-in. A slow but honest sync costs
 * only a notice: nothing is stopped until the analyst chooses Cancel.
 *
 * What Cancel can guarantee, the rule being that a paste is whole or absent. The add-in cannot take
 * a request back from Excel: a pending sync may still be applied. So Cancel
 *  - settles the batch's caller at once with {@link ExcelNotAnsweringError} (the pane is free again);
 *  - lets the batch send nothing more while the sync is pending;
 *  - when the pending sync answers at last, hands the batch an ExcelNotAnsweringError in place of
 *    its answer, whatever Excel did with it, so the batch takes its own failure path: the writers
 *    already undo their work on a failed sync, including one Excel applied in full or in part
 *    (src/excel/write-sheets.ts deletes its new sheets, keyed-replace.ts puts cells and rows back
 *    or, past its last step, completes it). The batch's later syncs, its undoing, go through.
 *  - If the sync never answers, the batch never resumes and nothing more is sent: what its earlier
 *    syncs applied stays, which for a new sheet is a sheet still hidden (the writers show a sheet
 *    only in their last sync). Excel not answering, nothing can be undone in it; docs/reliability.md
 *    says what the analyst sees.
 */
import type { ExcelRunner } from "./runner";

/** Five seconds: Office's own threshold of an unresponsive add-in (see the file comment). */
export const DEFAULT_STALL_MS = 5_000;

/** A batch stopped because Excel did not answer one of its syncs and the analyst chose Cancel. */
export class ExcelNotAnsweringError extends Error {
  constructor(
    message = "Stopped: Excel did not answer. If it answers later, the task is undone (or, if it had finished, kept whole); nothing is left half-done.",
  ) {
    super(message);
    this.name = "ExcelNotAnsweringError";
  }
}

/** What the pane shows while at least one sync is overdue. */
export interface Stall {
  /** Overdue syncs now (each batch waits on one sync at a time; batches may overlap). */
  syncs: number;
  /** performance.now() when the oldest overdue sync was sent. */
  since: number;
}

/** The watch's state: a stall or none, and cancelled batches still waiting for Excel. */
export interface WatchState {
  stall: Stall | undefined;
  /** Batches the analyst cancelled that still wait for Excel's answer before undoing their work. */
  cancelledWaiting: number;
}

interface WatchedSync {
  sentAt: number;
  overdue: boolean;
  timer: ReturnType<typeof setTimeout> | undefined;
  batch: WatchedBatch;
}

interface WatchedBatch {
  cancelled: boolean;
  /** Settles the caller with the error (once). */
  abandon: (error: ExcelNotAnsweringError) => void;
  /** The sync it waits on, if any. */
  pending: WatchedSync | undefined;
}

/**
 * Watches the syncs of every batch run through {@link SyncWatchdog.runner}; one per page (the pane
 * and the ribbon's commands share it), so one notice covers them all.
 */
export class SyncWatchdog {
  private readonly syncs = new Set<WatchedSync>();
  private readonly batches = new Set<WatchedBatch>();
  private readonly listeners = new Set<() => void>();
  private readonly idleWaiters = new Set<() => void>();
  private cancelledWaiting = 0;
  private state: WatchState = { stall: undefined, cancelledWaiting: 0 };

  /** @param stallMs how long a sync may go unanswered before the pane asks (configurable; default 5 s). */
  constructor(public stallMs: number = DEFAULT_STALL_MS) {}

  /** The current state (a stable object between changes, for useSyncExternalStore). */
  get current(): WatchState {
    return this.state;
  }

  /** Be told when the state changes; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves once no watched batch is running (cancelled ones included: their undoing is done). */
  whenIdle(): Promise<void> {
    if (this.batches.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.add(resolve));
  }

  /** Wait: the overdue syncs get another `stallMs` before the pane asks again. */
  wait(): void {
    for (const sync of this.syncs) if (sync.overdue) this.arm(sync);
    this.publish();
  }

  /** Cancel every batch waiting on an overdue sync (see the file comment for what that guarantees). */
  cancel(): void {
    for (const sync of [...this.syncs]) {
      if (!sync.overdue || sync.batch.cancelled) continue;
      sync.batch.cancelled = true;
      this.cancelledWaiting++;
      this.forget(sync);
      sync.batch.abandon(new ExcelNotAnsweringError());
    }
    this.publish();
  }

  /** `run` with every sync of every batch watched. */
  runner(run: ExcelRunner): ExcelRunner {
    return <T>(batch: (context: Excel.RequestContext) => Promise<T>) =>
      new Promise<T>((resolve, reject) => {
        let settled = false;
        const watched: WatchedBatch = {
          cancelled: false,
          pending: undefined,
          abandon: (error) => {
            if (settled) return;
            settled = true;
            reject(error);
          },
        };
        this.batches.add(watched);
        run((context) => {
          this.watchSyncs(context, watched);
          return batch(context);
        })
          .then(
            (value) => {
              if (!settled) resolve(value);
            },
            (error: unknown) => {
              if (!settled) reject(error);
            },
          )
          .finally(() => {
            settled = true;
            this.batches.delete(watched);
            if (watched.cancelled) {
              this.cancelledWaiting--;
              this.publish();
            }
            if (this.batches.size === 0) {
              for (const done of this.idleWaiters) done();
              this.idleWaiters.clear();
            }
          });
      });
  }

  /** Routes the context's syncs through the watch (the proxies all reach the same context object). */
  private watchSyncs(context: Excel.RequestContext, batch: WatchedBatch): void {
    const send = context.sync.bind(context);
    context.sync = (<T>(passThroughValue?: T): Promise<T> => {
      // Cancelled and still waiting on Excel: nothing more is sent until it answers.
      if (batch.cancelled && batch.pending) return Promise.reject(new ExcelNotAnsweringError());
      const sent = send(passThroughValue);
      if (batch.cancelled) return sent; // the undoing of a cancelled batch: not watched again
      const sync: WatchedSync = { sentAt: performance.now(), overdue: false, timer: undefined, batch };
      batch.pending = sync;
      this.syncs.add(sync);
      this.arm(sync);
      const answered = (): boolean => {
        const wasCancelled = batch.cancelled && batch.pending === sync;
        batch.pending = undefined;
        this.forget(sync);
        this.publish();
        return wasCancelled;
      };
      return sent.then(
        (value) => {
          if (answered()) throw new ExcelNotAnsweringError();
          return value;
        },
        (error: unknown) => {
          if (answered()) throw new ExcelNotAnsweringError();
          throw error;
        },
      );
    }) as typeof context.sync;
  }

  private arm(sync: WatchedSync): void {
    if (sync.timer !== undefined) clearTimeout(sync.timer);
    sync.overdue = false;
    sync.timer = setTimeout(() => {
      sync.timer = undefined;
      sync.overdue = true;
      this.publish();
    }, this.stallMs);
  }

  private forget(sync: WatchedSync): void {
    if (sync.timer !== undefined) clearTimeout(sync.timer);
    sync.timer = undefined;
    sync.overdue = false;
    this.syncs.delete(sync);
  }

  private publish(): void {
    const overdue = [...this.syncs].filter((s) => s.overdue);
    const stall: Stall | undefined =
      overdue.length === 0 ? undefined : { syncs: overdue.length, since: Math.min(...overdue.map((s) => s.sentAt)) };
    const before = this.state;
    if (
      before.cancelledWaiting === this.cancelledWaiting &&
      before.stall?.syncs === stall?.syncs &&
      before.stall?.since === stall?.since
    )
      return;
    this.state = { stall, cancelledWaiting: this.cancelledWaiting };
    for (const listener of this.listeners) listener();
  }
}
