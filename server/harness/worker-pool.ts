// IsolatedPool: worker threads that each run one job at a time from a module of handlers. The
// only hard stop for a hook stuck in a long built-in (which QuickJS's interrupt handler cannot
// reach) is terminating its thread (2–6 ms here, see STACK.md): the sandbox marks "hook started at
// t" in shared memory, a watchdog kills the worker past hookLimitMs, and a fresh worker replaces it.
// The pool is bounded: at most `size` threads, started when jobs wait for them, optionally stopped
// after `idleMs` without work; a job's AbortSignal stops it, terminating its thread if it runs.
import { setMaxListeners } from 'node:events';
import { existsSync } from 'node:fs';
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

/** A job stopped by its AbortSignal (a cancelled run); never recorded as an outcome. */
export class JobAbortedError extends KindedError {
  readonly kind = 'infra';
  constructor(message = 'the job was cancelled') {
    super(message);
    this.name = 'JobAbortedError';
  }
}

export interface IsolatedPoolOptions {
  /** At most this many worker threads (started on demand). */
  size: number;
  /** Absolute path (or file URL) of a module exporting `handlers: Record<string, (input) => Promise<unknown>>`. */
  module: string;
  /** A single hook call running longer than this kills its worker. Default 1000 ms. */
  hookLimitMs?: number;
  /**
   * A worker without a job this long is stopped (a new one starts when work comes). Unset: kept,
   * as a pool whose workers hold state between jobs (try-it sessions, a CLI episode) needs.
   */
  idleMs?: number;
}

export interface RunOptions {
  /** Aborting drops a queued job, or terminates the worker running it; the job rejects with JobAbortedError. */
  signal?: AbortSignal;
}

interface Job {
  id: number;
  handler: string;
  input: unknown;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  signal: AbortSignal | undefined;
}

interface Slot {
  worker: Worker;
  watchdog: SharedArrayBuffer;
  job: Job | undefined;
  ready: boolean;
  dead: boolean;
  idleTimer: NodeJS.Timeout | undefined;
}

const BOOT = new URL('./worker-boot.mjs', import.meta.url);
const ENTRY = pathToFileURL(fileURLToPath(new URL('./worker-entry.ts', import.meta.url))).href;

/** Defined (true) by the CLI bundle's build, scripts/build-cli.mjs; undeclared under tsx and Vitest. */
declare const __HARNESS_BUNDLE__: boolean | undefined;

/**
 * Inside the CLI bundle, the worker entry and the handlers module as the bundled files the build
 * put beside it (`dist/cli/<source path with / as _>.mjs`), so a thread starts without compiling
 * TypeScript. Undefined under tsx, or for a module the build did not bundle (tsx then, as before).
 */
function bundledWorker(moduleUrl: string): { entry: URL; module: string } | undefined {
  if (typeof __HARNESS_BUNDLE__ === 'undefined') return undefined;
  const root = new URL('../../', import.meta.url);
  if (!moduleUrl.startsWith(root.href)) return undefined;
  const name = moduleUrl.slice(root.href.length).replace(/\.ts$/, '').replaceAll('/', '_');
  const dist = new URL('dist/cli/', root);
  const module = new URL(`${name}.mjs`, dist);
  const entry = new URL('server_harness_worker-entry.mjs', dist);
  if (!existsSync(module) || !existsSync(entry)) return undefined;
  return { entry, module: module.href };
}
const WATCH_EVERY_MS = 20;

function toModuleUrl(module: string): string {
  return module.startsWith('file:') ? module : pathToFileURL(module).href;
}

function startWorker(moduleUrl: string, watchdog: SharedArrayBuffer): Worker {
  const bundled = bundledWorker(moduleUrl);
  return new Worker(bundled?.entry ?? BOOT, {
    workerData: bundled
      ? { module: bundled.module, watchdog }
      : { entry: ENTRY, module: moduleUrl, watchdog },
    // A deeper native stack keeps QuickJS's own stack-overflow checks ahead of V8's.
    resourceLimits: { stackSizeMb: 16 },
  });
}

interface Spare {
  worker: Worker;
  watchdog: SharedArrayBuffer;
  ready: boolean;
  dead: boolean;
  onMessage: (msg: { ready?: boolean }) => void;
  onGone: () => void;
}

/** Workers started ahead of their pool (prestartWorker), by handlers module URL. */
const spares = new Map<string, Spare>();

/**
 * Starts a worker for `module` now, before the pool that will use it exists: a thread loads its
 * handlers module in about as long as the CLI opens its database, so a `harness rollout` overlaps
 * the two. The first pool of that module adopts it; an unused one never keeps the process alive
 * (dropSpareWorkers ends it). Returns the worker's thread id.
 */
export function prestartWorker(module: string): number {
  const moduleUrl = toModuleUrl(module);
  const started = spares.get(moduleUrl);
  if (started) return started.worker.threadId;
  const watchdog = new SharedArrayBuffer(WATCHDOG_BYTES);
  const worker = startWorker(moduleUrl, watchdog);
  worker.unref();
  const spare: Spare = {
    worker,
    watchdog,
    ready: false,
    dead: false,
    onMessage: (msg) => {
      if (msg.ready) spare.ready = true;
    },
    onGone: () => {
      spare.dead = true;
      if (spares.get(moduleUrl) === spare) spares.delete(moduleUrl);
    },
  };
  worker.on('message', spare.onMessage);
  worker.on('error', spare.onGone);
  worker.on('exit', spare.onGone);
  spares.set(moduleUrl, spare);
  return worker.threadId;
}

/** Prestarted workers no pool has taken yet. */
export function spareWorkers(): number {
  return spares.size;
}

/** Ends the workers prestartWorker started that no pool took. */
export async function dropSpareWorkers(): Promise<void> {
  const left = [...spares.values()];
  spares.clear();
  await Promise.all(left.map((s) => s.worker.terminate()));
}

function takeSpare(moduleUrl: string): Spare | undefined {
  const spare = spares.get(moduleUrl);
  if (!spare) return undefined;
  spares.delete(moduleUrl);
  spare.worker.off('message', spare.onMessage);
  spare.worker.off('error', spare.onGone);
  spare.worker.off('exit', spare.onGone);
  if (spare.dead) return undefined;
  spare.worker.ref();
  return spare;
}

export class IsolatedPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private readonly hookLimitMs: number;
  private readonly size: number;
  private readonly idleMs: number | undefined;
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
    this.size = options.size;
    this.idleMs = options.idleMs;
    this.moduleUrl = toModuleUrl(options.module);
  }

  /** Worker threads alive or starting now (at most `size`). */
  get workers(): number {
    return this.slots.length;
  }

  /** Workers running a job now. */
  get busy(): number {
    return this.slots.filter((s) => s.job).length;
  }

  private spawn(): Slot {
    const spare = takeSpare(this.moduleUrl);
    const watchdog = spare?.watchdog ?? new SharedArrayBuffer(WATCHDOG_BYTES);
    const worker = spare?.worker ?? startWorker(this.moduleUrl, watchdog);
    const slot: Slot = {
      worker,
      watchdog,
      job: undefined,
      ready: false,
      dead: false,
      idleTimer: undefined,
    };
    const onMessage = (msg: {
      ready?: boolean;
      id?: number;
      ok?: boolean;
      value?: unknown;
      error?: WireError;
    }) => {
      if (msg.ready) {
        if (slot.dead) return;
        slot.ready = true;
        this.idle(slot);
        this.pump();
        return;
      }
      const job = slot.job;
      if (!job || job.id !== msg.id) return;
      slot.job = undefined;
      this.idle(slot);
      if (msg.ok) job.resolve(msg.value);
      else job.reject(fromWireError(msg.error ?? { name: 'Error', message: 'error in worker' }));
      this.pump();
    };
    worker.on('message', onMessage);
    // A spare that became ready before this pool took it: its ready message has been and gone.
    if (spare?.ready) queueMicrotask(() => onMessage({ ready: true }));
    worker.on('error', (err) =>
      this.lost(slot, new WorkerCrashError(`worker crashed: ${err.message}`, { cause: err })),
    );
    worker.on('exit', (code) =>
      this.lost(slot, new WorkerCrashError(`worker exited with code ${code}`)),
    );
    return slot;
  }

  /** A worker is gone: fail its job and forget it; pump() starts another when work waits. */
  private lost(slot: Slot, error: Error): void {
    if (slot.dead) return;
    slot.dead = true;
    clearTimeout(slot.idleTimer);
    const job = slot.job;
    slot.job = undefined;
    const bootFailure = !slot.ready;
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
    if (job) job.reject(error);
    if (this.closed || index < 0) return;
    this.replaced += 1;
    if (bootFailure) {
      // The handlers module itself fails to load: fail queued work instead of respawning forever.
      for (const queued of this.queue.splice(0)) queued.reject(error);
      return;
    }
    this.pump();
  }

  /** Terminates a slot's worker now (watchdog, abort, idle): it is forgotten at once. */
  private stop(slot: Slot): void {
    slot.dead = true;
    clearTimeout(slot.idleTimer);
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
    void slot.worker.terminate();
  }

  /** A worker without a job: stopped after idleMs unless work comes first. */
  private idle(slot: Slot): void {
    clearTimeout(slot.idleTimer);
    slot.idleTimer = undefined;
    if (this.idleMs === undefined || this.closed) return;
    slot.idleTimer = setTimeout(() => {
      if (!slot.job && !slot.dead) this.stop(slot);
    }, this.idleMs);
    slot.idleTimer.unref();
  }

  run<T>(handler: string, input: unknown, options: RunOptions = {}): Promise<T> {
    if (this.closed) return Promise.reject(new WorkerCrashError('the pool is closed'));
    const signal = options.signal;
    if (signal?.aborted) return Promise.reject(new JobAbortedError());
    return new Promise<T>((resolve, reject) => {
      // A run's signal is shared by all its jobs (hundreds may be in flight, so no MaxListeners
      // warning): each job's listener goes when the job settles.
      if (signal) setMaxListeners(0, signal);
      const onAbort = () => this.abort(job);
      const settled = () => signal?.removeEventListener('abort', onAbort);
      const job: Job = {
        id: this.nextId++,
        handler,
        input,
        resolve: (value: unknown) => {
          settled();
          resolve(value as T);
        },
        reject: (error: Error) => {
          settled();
          reject(error);
        },
        signal,
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(job);
      this.pump();
    });
  }

  /** A job's signal fired: drop it from the queue, or terminate the worker running it. */
  private abort(job: Job): void {
    const queued = this.queue.indexOf(job);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      job.reject(new JobAbortedError());
      // A worker still starting for it is not needed any more: its threads go too.
      const booting = this.slots.filter((s) => !s.ready && !s.dead);
      for (const slot of booting.slice(this.queue.length)) this.stop(slot);
      return;
    }
    const slot = this.slots.find((s) => s.job === job);
    if (!slot) return;
    slot.job = undefined;
    this.stop(slot);
    job.reject(new JobAbortedError());
    this.pump();
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) break;
      if (!slot.ready || slot.dead || slot.job) continue;
      const job = this.queue.shift()!;
      clearTimeout(slot.idleTimer);
      slot.idleTimer = undefined;
      slot.job = job;
      slot.worker.postMessage({ id: job.id, handler: job.handler, input: job.input });
    }
    // Start workers for what still waits, up to the bound (those booting will take a job each).
    const booting = this.slots.filter((s) => !s.ready && !s.dead).length;
    for (let need = this.queue.length - booting; need > 0 && !this.closed; need--) {
      if (this.slots.length >= this.size) break;
      this.slots.push(this.spawn());
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
    for (const slot of [...this.slots]) {
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
      this.replaced += 1;
      this.stop(slot);
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
      this.slots.splice(0).map(async (slot) => {
        slot.dead = true;
        clearTimeout(slot.idleTimer);
        slot.job?.reject(new WorkerCrashError('the pool is closed'));
        slot.job = undefined;
        await slot.worker.terminate();
      }),
    );
  }
}
