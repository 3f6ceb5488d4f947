// The embedded queue: episodes of local runs are fed to an executor (by default the isolated worker
// pool) with a concurrency limit per run, claimed and recorded through the batching recorder.
import { randomUUID } from 'node:crypto';
import { rolloutDb } from './db.ts';
import { type EpisodeExecutor, executorErrorResult, rolloutEngine } from './engine.ts';
import { EpisodeRecorder } from './recorder.ts';
import { episodeInput, loadRunSettings, type RunSettings } from './run-settings.ts';

/** Results waiting for the database before no new episode starts. */
const MAX_UNRECORDED = 256;

interface Item {
  id: string;
  runId: string;
}

export class LocalQueue {
  readonly recorder = new EpisodeRecorder(`local-${randomUUID().slice(0, 8)}`, { lingerMs: 5 });
  private readonly pending: Item[] = [];
  private readonly runs = new Map<string, RunSettings & { inFlight: number; open: number }>();
  private unrecorded = 0;
  private executor: EpisodeExecutor | undefined;
  private executorSize = 0;
  private idle: (() => void)[] = [];

  constructor(private readonly defaultConcurrency: number) {}

  /** Queues every unfinished episode of a local run. */
  async enqueueRun(runId: string): Promise<void> {
    const db = await rolloutDb();
    const episodes = await db.episode.findMany({
      where: { runId, status: { not: 'done' } },
      orderBy: { ordinal: 'asc' },
      select: { id: true },
    });
    const queued = new Set(this.pending.filter((p) => p.runId === runId).map((p) => p.id));
    const fresh = episodes.filter((e) => !queued.has(e.id));
    const settings = this.runs.get(runId) ?? {
      ...(await loadRunSettings(runId)),
      inFlight: 0,
      open: 0,
    };
    this.runs.set(runId, settings);
    const concurrency = settings.concurrency ?? this.defaultConcurrency;
    for (const e of fresh) this.pending.push({ id: e.id, runId });
    await this.ensureExecutor(concurrency);
    this.pump();
  }

  private async ensureExecutor(concurrency: number): Promise<void> {
    if (this.executor && this.executorSize >= concurrency) return;
    const engine = await rolloutEngine();
    const old = this.executor;
    this.executorSize = Math.max(concurrency, this.executorSize);
    this.executor = engine.executor(this.executorSize);
    // Episodes already on the old executor finish there; it is closed when they have.
    if (old) void this.whenIdle().then(() => old.close());
  }

  private pump(): void {
    for (let i = 0; i < this.pending.length; ) {
      const item = this.pending[i] as Item;
      const run = this.runs.get(item.runId);
      // Keep extra episodes in flight so that a worker never waits on the database, but bound the
      // results waiting to be written.
      const limit = (run?.concurrency ?? this.defaultConcurrency) * 2 + 2;
      if (!run || run.inFlight >= limit || this.unrecorded >= MAX_UNRECORDED) {
        i += 1;
        continue;
      }
      this.pending.splice(i, 1);
      run.inFlight += 1;
      run.open += 1;
      void this.process(item, run, () => {
        run.inFlight -= 1;
        this.pump();
      }).finally(() => {
        run.open -= 1;
        if (run.open === 0 && !this.pending.some((p) => p.runId === run.id))
          this.runs.delete(run.id);
        this.pump();
        if (this.runs.size === 0 && this.pending.length === 0) {
          const waiters = this.idle;
          this.idle = [];
          for (const w of waiters) w();
        }
      });
    }
  }

  /** Claims, runs and records one episode; `executed` frees its slot before the write. */
  private async process(item: Item, run: RunSettings, executed: () => void): Promise<void> {
    let freed = false;
    const free = () => {
      if (!freed) {
        freed = true;
        executed();
      }
    };
    try {
      const claimed = await this.recorder.claim(item);
      if (!claimed) return;
      const input = episodeInput(run, claimed);
      const started = performance.now();
      const executor = this.executor;
      if (!executor) throw new Error('no executor');
      const result = await executor
        .run(input)
        .catch((error: unknown) => executorErrorResult(input, error, performance.now() - started));
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
    if (this.runs.size === 0 && this.pending.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  async close(): Promise<void> {
    this.pending.length = 0;
    for (const [id, run] of this.runs) if (run.open === 0) this.runs.delete(id);
    await this.whenIdle();
    await this.recorder.drain();
    await this.executor?.close();
    this.executor = undefined;
    this.executorSize = 0;
  }
}
