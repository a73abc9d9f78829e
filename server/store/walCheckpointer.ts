// The WAL's checkpoints on a thread of their own (issue 34). better-sqlite3 runs every statement on the
// event loop's thread, and SQLite's automatic checkpoint runs inside the COMMIT that crosses its
// threshold: it copies up to a thousand pages into the database file and syncs both files, while every
// other request waits. A sign-up's verify/finish writes some forty pages (the audit trail's indexes
// among them), so one commit in thirty stopped the server for several milliseconds.
//
// Here a worker thread holds a second connection to the same file and checkpoints it every
// `intervalMs`: PASSIVE (it never blocks the writer) while the log is short, RESTART once it holds
// `restartFrames` pages, so that the log starts again from its beginning even under a steady stream of
// commits (a PASSIVE checkpoint that a commit overtakes leaves the log growing). RESTART makes the next
// write wait until it is done; the main connection waits for that asynchronously (SqliteDatabase's
// retryWhileBusy), never on the event loop. Durability is unchanged: commits still reach the log as
// before (synchronous = NORMAL), and the checkpoint syncs as SQLite's own does.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

export interface CheckpointerOptions {
  /** between two checkpoints */
  intervalMs: number;
  /** the log's length, in pages, from which a checkpoint restarts it */
  restartFrames: number;
}

/** how long stop() waits for the thread to close its connection before ending it */
const STOP_TIMEOUT_MS = 10_000;

export const DEFAULT_CHECKPOINTER: CheckpointerOptions = { intervalMs: 50, restartFrames: 8192 };

/** One checkpoint round's outcome, as the worker reports it when asked (tests). */
export interface CheckpointReport {
  mode: 'PASSIVE' | 'RESTART';
  /** pages in the log when it ran */
  log: number;
  /** pages of it copied into the database file */
  checkpointed: number;
}

// CommonJS text run by the worker (eval: no file to resolve next to a bundled dist/main.js); the driver
// is the path the main thread resolved, so both threads load the same better-sqlite3
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path);
// only this thread sleeps while the writer finishes its transaction
db.pragma('busy_timeout = 5000');
let timer;
let reporting = false;
function round() {
  let report;
  try {
    const [passive] = db.pragma('wal_checkpoint(PASSIVE)');
    report = { mode: 'PASSIVE', log: passive.log, checkpointed: passive.checkpointed };
    if (passive.log >= workerData.restartFrames) {
      const [restart] = db.pragma('wal_checkpoint(RESTART)');
      report = { mode: 'RESTART', log: restart.log, checkpointed: restart.checkpointed };
    }
  } catch (error) {
    // SQLITE_BUSY past the timeout, a full disk: the next round tries again
    report = { error: String(error && error.message || error) };
  }
  if (reporting) parentPort.postMessage(report);
  timer = setTimeout(round, workerData.intervalMs);
}
parentPort.on('message', (message) => {
  if (message === 'report') reporting = true;
  if (message === 'stop') {
    clearTimeout(timer);
    db.close();
    parentPort.close();
  }
});
timer = setTimeout(round, workerData.intervalMs);
`;

export class WalCheckpointer {
  private stopped = false;
  private readonly exited: Promise<void>;

  private constructor(
    private readonly worker: Worker,
    onExit: () => void,
  ) {
    this.exited = new Promise((resolve) => worker.once('exit', () => resolve()));
    // an error in the worker (the driver failed to load) ends it: onExit lets the caller take over
    worker.on('error', () => undefined);
    void this.exited.then(() => {
      if (!this.stopped) onExit();
    });
  }

  /** Starts the thread on the database file at `path`; `onExit` runs if it ends before stop(). */
  static start(path: string, options: CheckpointerOptions, onExit: () => void): WalCheckpointer {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { path, driver, ...options } });
    // a checkpointer alone must not keep the process alive
    worker.unref();
    return new WalCheckpointer(worker, onExit);
  }

  /** Each round's outcome from now on (tests). */
  reports(listener: (report: CheckpointReport | { error: string }) => void): void {
    this.worker.on('message', listener);
    this.worker.postMessage('report');
  }

  /** Closes the thread's connection and waits for the thread to end. */
  stop(): Promise<void> {
    this.stopped = true;
    // the thread is unref'd so that it alone keeps nothing alive; while it is being waited for, it must
    // (else a process with nothing else to do drops the pending wait and exits with code 13)
    this.worker.ref();
    this.worker.postMessage('stop');
    // bounded: a thread stuck in a checkpoint (a busy file past its timeout) is ended
    const timer = setTimeout(() => void this.worker.terminate(), STOP_TIMEOUT_MS);
    return this.exited.finally(() => clearTimeout(timer));
  }
}
