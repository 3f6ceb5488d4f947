// The embedded queue: episodes of local runs are fed to one executor (by default the isolated worker
// pool, bounded by maxWorkers for all runs together, beside the event loop for model-bound episodes,
// bounded by the executor's capacity) with a concurrency limit per run, claimed and
// recorded through the batching recorder. Cancelling a run aborts its episodes in flight (their
// threads are terminated) and records none of them.
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/index.ts';
import { reportBackoffs } from './backoff-report.ts';
import {
  type EpisodeExecutor,
  executorErrorResult,
  type PolicyOptionsResolver,
  type RolloutEngine,
} from './engine.ts';
import type { RunEvents } from './events.ts';
import { EpisodeRecorder } from './recorder.ts';
import { episodeInput, loadRunSettings, type RunSettings } from './run-settings.ts';

/** Results waiting for the database before no new episode starts. */
const MAX_UNRECORDED = 256;

/**
 * Episodes a run keeps claimed beyond those running. A claim comes back after about
 * CLAIM_LATENCY_MS (5 ms of linger, then a write that can take 10–20 ms behind a batch of results),
 * so a run whose episodes are that short needs several claimed per slot or its threads wait for the
 * database: on household (2 pool threads, ~3 ms episodes) 12 ahead gave 17% more episodes/s than 4
 * (the median of 5 alternated pairs of 500-episode runs), with fewer, larger writes. But a claimed
 * episode is `running` (its row, its episode_started event) before a slot takes it, so a run claims
 * ahead only once it knows its episodes are short (under SHORT_EPISODE_MS, where waiting for a
 * claim would idle a slot for more than 6% of the time); a run of longer episodes (a model's) shows
 * as running exactly the episodes its slots hold.
 */
const CLAIM_LATENCY_MS = 30;
const MAX_CLAIMED_AHEAD = 12;
const SHORT_EPISODE_MS = 500;

/**
 * How many episodes a run keeps claimed beyond its `concurrency` running ones, given how long its
 * episodes take (undefined: none has ended yet).
 */
export function claimedAhead(concurrency: number, episodeMs: number | undefined): number {
  if (episodeMs === undefined || episodeMs >= SHORT_EPISODE_MS) return 0;
  const needed = Math.ceil((concurrency * CLAIM_LATENCY_MS) / Math.max(episodeMs, 0.1));
  // A run with many slots keeps at least one claimed per slot (and 2 more), as before the cap.
  return Math.min(needed, Math.max(MAX_CLAIMED_AHEAD, concurrency + 2));
}

interface Item {
  id: string;
  runId: string;
}

type RunState = RunSettings & {
  inFlight: number;
  open: number;
  queue: Item[];
  head: number;
  /** Episodes of this run in the executor now (at most its concurrency). */
  running: number;
  /** The run's episodes' time in the executor, a moving average (ms); undefined before the first. */
  episodeMs: number | undefined;
  /** Claimed episodes waiting for one of the run's slots. */
  waiting: (() => void)[];
  /** Aborted when the run is cancelled or the queue closes. */
  abort: AbortController;
};

export interface LocalQueueDeps {
  db: Db;
  events: RunEvents;
  engine: RolloutEngine;
  policyOptions: PolicyOptionsResolver;
  /** Episodes at once per run when the run does not say. */
  concurrency: number;
  /** Episodes at once in this process, all runs together: the executor's bound. */
  maxWorkers: number;
}

export class LocalQueue {
  readonly recorder: EpisodeRecorder;
  /** Unstarted episodes per run (runs in arrival order, each a FIFO read from `head`). */
  private readonly runs = new Map<string, RunState>();
  private unrecorded = 0;
  private executor: EpisodeExecutor | undefined;
  private idle: (() => void)[] = [];

  private readonly defaultConcurrency: number;
  private readonly stopReporting: () => void;

  constructor(private readonly deps: LocalQueueDeps) {
    this.defaultConcurrency = deps.concurrency;
    // Rate-limit back-offs of this queue's runs reach their run page (model-bound episodes share
    // this process's gates; episodes in pool threads have their own and are not reported).
    this.stopReporting = reportBackoffs(deps.events, (runId) => this.runs.has(runId));
    this.recorder = new EpisodeRecorder(`local-${randomUUID().slice(0, 8)}`, {
      db: deps.db,
      events: deps.events,
      lingerMs: 5,
      resultLingerMs: 10,
    });
  }

  /** Queues every unfinished episode of a local run. */
  async enqueueRun(runId: string): Promise<void> {
    const episodes = await this.deps.db.episode.findMany({
      where: { runId, status: { not: 'done' } },
      orderBy: { ordinal: 'asc' },
      select: { id: true },
    });
    const settings: RunState = this.runs.get(runId) ?? {
      ...(await loadRunSettings(this.deps.db, this.deps.policyOptions, runId)),
      inFlight: 0,
      open: 0,
      queue: [],
      head: 0,
      running: 0,
      episodeMs: undefined,
      waiting: [],
      abort: new AbortController(),
    };
    this.runs.set(runId, settings);
    const known = new Set(settings.queue.slice(settings.head).map((p) => p.id));
    for (const e of episodes) if (!known.has(e.id)) settings.queue.push({ id: e.id, runId });
    // One executor for every run: its threads are bounded by maxWorkers, whatever runs ask.
    this.executor ??= this.deps.engine.executor(this.deps.maxWorkers);
    this.pump();
    if (settings.open === 0 && this.pending(settings) === 0) this.runs.delete(runId);
  }

  private concurrencyOf(run: RunSettings): number {
    const bound =
      this.executor?.capacity?.({ spec: run.spec, policyId: run.policy }) ?? this.deps.maxWorkers;
    return Math.min(run.concurrency ?? this.defaultConcurrency, bound);
  }

  /** One of the run's slots in the executor; false when the run was cancelled meanwhile. */
  private async slot(run: RunState): Promise<boolean> {
    while (run.running >= this.concurrencyOf(run) && !run.abort.signal.aborted) {
      await new Promise<void>((resolve) => run.waiting.push(resolve));
    }
    if (run.abort.signal.aborted) return false;
    run.running += 1;
    return true;
  }

  private release(run: RunState): void {
    run.running -= 1;
    run.waiting.shift()?.();
  }

  /**
   * Stops a cancelled run here: nothing more is claimed, episodes in flight are aborted (the pool
   * terminates their threads) and none of them is recorded. Resolves once they have stopped.
   */
  async cancelRun(runId: string): Promise<void> {
    const run = this.runs.get(runId);
    if (!run) return;
    run.queue = [];
    run.head = 0;
    run.abort.abort();
    for (const wake of run.waiting.splice(0)) wake();
    await this.whenRunStopped(run);
  }

  private whenRunStopped(run: RunState): Promise<void> {
    return new Promise((resolve) => {
      const check = () => (run.open === 0 ? resolve() : setTimeout(check, 10));
      check();
    });
  }

  private pending(run: RunState): number {
    return run.queue.length - run.head;
  }

  private pump(): void {
    for (const run of this.runs.values()) {
      // Keep episodes claimed ahead so that a worker never waits on the database, but bound the
      // results waiting to be written.
      const concurrency = this.concurrencyOf(run);
      const limit = concurrency + claimedAhead(concurrency, run.episodeMs);
      while (this.pending(run) > 0 && run.inFlight < limit && this.unrecorded < MAX_UNRECORDED) {
        const item = run.queue[run.head] as Item;
        run.head += 1;
        if (run.head > 1024 && run.head * 2 > run.queue.length) {
          run.queue = run.queue.slice(run.head);
          run.head = 0;
        }
        run.inFlight += 1;
        run.open += 1;
        void this.process(item, run, () => {
          run.inFlight -= 1;
          this.pump();
        }).finally(() => {
          run.open -= 1;
          if (run.open === 0 && this.pending(run) === 0) this.runs.delete(run.id);
          this.pump();
          if (this.runs.size === 0) {
            const waiters = this.idle;
            this.idle = [];
            for (const w of waiters) w();
          }
        });
      }
    }
  }

  /** Claims, runs and records one episode; `executed` frees its slot before the write. */
  private async process(item: Item, run: RunState, executed: () => void): Promise<void> {
    let freed = false;
    const free = () => {
      if (!freed) {
        freed = true;
        executed();
      }
    };
    try {
      const claimed = await this.recorder.claim(item);
      if (!claimed || !(await this.slot(run))) return;
      const input = episodeInput(run, claimed);
      const started = performance.now();
      const executor = this.executor;
      if (!executor) throw new Error('no executor');
      const signal = run.abort.signal;
      let result: Awaited<ReturnType<EpisodeExecutor['run']>>;
      try {
        result = await executor
          .run(input, { signal })
          .catch((error: unknown) =>
            executorErrorResult(input, error, performance.now() - started),
          );
      } finally {
        this.release(run);
      }
      const ms = performance.now() - started;
      run.episodeMs = run.episodeMs === undefined ? ms : 0.7 * run.episodeMs + 0.3 * ms;
      // Cancelled (or shutting down): the episode did not end, it was stopped; record nothing.
      if (signal.aborted) return;
      this.unrecorded += 1;
      free();
      try {
        await this.recorder.record({
          id: claimed.id,
          runId: claimed.runId,
          attempt: claimed.attempt,
          result,
        });
      } finally {
        this.unrecorded -= 1;
      }
    } catch (error) {
      // A database failure: the episode stays unfinished and is picked up by resumeUnfinishedRuns().
      console.error(
        `rollouts: episode ${item.id} could not be recorded: ${(error as Error).message}`,
      );
    } finally {
      free();
    }
  }

  /** Resolves when no episode is queued or running. */
  whenIdle(): Promise<void> {
    if (this.runs.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  /**
   * Stops feeding episodes, lets those in flight finish for up to `graceMs`, then aborts the rest
   * (their threads are terminated; they stay unfinished and resumeUnfinishedRuns() runs them again
   * at the next start). A stuck episode cannot keep a shutdown waiting.
   */
  async close(graceMs = 5000): Promise<void> {
    for (const [id, run] of this.runs) {
      run.queue = [];
      run.head = 0;
      if (run.open === 0) this.runs.delete(id);
    }
    let timer: NodeJS.Timeout | undefined;
    const graced = await Promise.race([
      this.whenIdle().then(() => true),
      new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), graceMs);
      }),
    ]);
    clearTimeout(timer);
    if (!graced) {
      for (const run of this.runs.values()) {
        run.abort.abort();
        for (const wake of run.waiting.splice(0)) wake();
      }
      await this.whenIdle();
    }
    this.stopReporting();
    await this.recorder.drain();
    await this.executor?.close();
    this.executor = undefined;
  }
}
