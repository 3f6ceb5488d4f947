// IsolatedPool: worker threads that each run one job at a time from a module of handlers. The
// only hard stop for a hook stuck in a long built-in (which QuickJS's interrupt handler cannot
// reach) is terminating its thread (2–6 ms here, see STACK.md): the sandbox marks "hook started at
// t" in shared memory, a watchdog kills the worker past hookLimitMs, and a fresh worker replaces it.
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import {
  fromWireError,
  HarnessCodeError,
  InvalidInputError,
  KindedError,
  type WireError,
} from '../errors.ts';
import { readWatchdog, WATCHDOG_BYTES } from './sandbox/index.ts';

/**
 * A worker died under a job (watchdog kill, crash, out of heap). What runs in these threads is the
 * harness stack with its hooks, so it counts as a harness error — never as a task failure.
 */
export class WorkerCrashError extends KindedError {
  readonly kind = 'harness';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'WorkerCrashError';
  }
}

export interface IsolatedPoolOptions {
  size: number;
  /** Absolute path (or file URL) of a module exporting `handlers: Record<string, (input) => Promise<unknown>>`. */
  module: string;
  /** A single hook call running longer than this kills its worker. Default 1000 ms. */
  hookLimitMs?: number;
}

interface Job {
  id: number;
  handler: string;
  input: unknown;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  watchdog: SharedArrayBuffer;
  job: Job | undefined;
  ready: boolean;
  dead: boolean;
}

const BOOT = new URL('./worker-boot.mjs', import.meta.url);
const ENTRY = pathToFileURL(fileURLToPath(new URL('./worker-entry.ts', import.meta.url))).href;
const WATCH_EVERY_MS = 20;

export class IsolatedPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private readonly hookLimitMs: number;
  private readonly moduleUrl: string;
  private nextId = 1;
  private closed = false;
  private timer: NodeJS.Timeout | undefined;
  /** Workers replaced so far (watchdog kills and crashes), for tests and metrics. */
  replaced = 0;

  constructor(options: IsolatedPoolOptions) {
    if (!Number.isInteger(options.size) || options.size < 1) {
      throw new InvalidInputError(`pool size must be a positive integer, got ${options.size}`);
    }
    this.hookLimitMs = options.hookLimitMs ?? 1000;
    this.moduleUrl = options.module.startsWith('file:')
      ? options.module
      : pathToFileURL(options.module).href;
    for (let i = 0; i < options.size; i++) this.slots.push(this.spawn());
  }

  private spawn(): Slot {
    const watchdog = new SharedArrayBuffer(WATCHDOG_BYTES);
    const worker = new Worker(BOOT, {
      workerData: { entry: ENTRY, module: this.moduleUrl, watchdog },
      // A deeper native stack keeps QuickJS's own stack-overflow checks ahead of V8's.
      resourceLimits: { stackSizeMb: 16 },
    });
    const slot: Slot = { worker, watchdog, job: undefined, ready: false, dead: false };
    worker.on(
      'message',
      (msg: { ready?: boolean; id?: number; ok?: boolean; value?: unknown; error?: WireError }) => {
        if (msg.ready) {
          slot.ready = true;
          this.pump();
          return;
        }
        const job = slot.job;
        if (!job || job.id !== msg.id) return;
        slot.job = undefined;
        if (msg.ok) job.resolve(msg.value);
        else job.reject(fromWireError(msg.error ?? { name: 'Error', message: 'error in worker' }));
        this.pump();
      },
    );
    worker.on('error', (err) =>
      this.lost(slot, new WorkerCrashError(`worker crashed: ${err.message}`, { cause: err })),
    );
    worker.on('exit', (code) =>
      this.lost(slot, new WorkerCrashError(`worker exited with code ${code}`)),
    );
    return slot;
  }

  /** A worker is gone: fail its job, replace it (unless the pool is closing). */
  private lost(slot: Slot, error: Error): void {
    if (slot.dead) return;
    slot.dead = true;
    const job = slot.job;
    slot.job = undefined;
    const bootFailure = !slot.ready;
    const index = this.slots.indexOf(slot);
    if (job) job.reject(error);
    if (this.closed || index < 0) return;
    this.replaced += 1;
    if (bootFailure) {
      // The handlers module itself fails to load: fail queued work instead of respawning forever.
      for (const queued of this.queue.splice(0)) queued.reject(error);
      this.slots.splice(index, 1);
      if (this.slots.length === 0) this.slots.push(this.spawn());
      return;
    }
    this.slots[index] = this.spawn();
    this.pump();
  }

  run<T>(handler: string, input: unknown): Promise<T> {
    if (this.closed) return Promise.reject(new WorkerCrashError('the pool is closed'));
    return new Promise<T>((resolve, reject) => {
      this.queue.push({
        id: this.nextId++,
        handler,
        input,
        resolve: resolve as (value: unknown) => void,
        reject,
      });
      this.pump();
    });
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) break;
      if (!slot.ready || slot.dead || slot.job) continue;
      const job = this.queue.shift()!;
      slot.job = job;
      slot.worker.postMessage({ id: job.id, handler: job.handler, input: job.input });
    }
    const busy = this.slots.some((s) => s.job);
    if (busy && !this.timer) {
      this.timer = setInterval(() => this.watch(), WATCH_EVERY_MS);
      this.timer.unref();
    } else if (!busy && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private watch(): void {
    const now = Date.now();
    for (const slot of this.slots) {
      if (!slot.job || slot.dead) continue;
      const running = readWatchdog(slot.watchdog);
      if (!running || now - running.startedAt <= this.hookLimitMs) continue;
      const job = slot.job;
      slot.job = undefined;
      job.reject(
        new HarnessCodeError(
          `hook ${running.hook} exceeded its time limit of ${this.hookLimitMs} ms and was stopped (its worker was terminated); hooks must return quickly — avoid long loops over large strings or arrays`,
          running.hook,
        ),
      );
      slot.dead = true;
      this.replaced += 1;
      void slot.worker.terminate();
      const index = this.slots.indexOf(slot);
      if (index >= 0 && !this.closed) this.slots[index] = this.spawn();
    }
    this.pump();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    for (const job of this.queue.splice(0)) job.reject(new WorkerCrashError('the pool is closed'));
    await Promise.all(
      this.slots.map(async (slot) => {
        slot.dead = true;
        slot.job?.reject(new WorkerCrashError('the pool is closed'));
        slot.job = undefined;
        await slot.worker.terminate();
      }),
    );
  }
}
