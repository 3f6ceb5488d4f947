// Rigs are jobs, like runs: the studio records a rig and dispatches its id — to a small in-process
// queue on the embedded setup, to BullMQ (consumed by `harness worker`) when runs go there too —
// and a start-up resume dispatches every rig a dead process left queued or running. Whoever takes
// the job calls executeRig(), which rebuilds the rig's progress from its rows.
import { InvalidInputError } from '../errors.ts';
import { RigJobQueue, type RigWorker, startRigWorker } from './bullmq.ts';
import { createRig, executeRig } from './loop.ts';
import { RigStoppedError } from './observe.ts';
import type { RigDeps } from './round-env.ts';
import { type RigInput, type RigQueueKind, StoredRigSettingsSchema } from './settings.ts';

/** The embedded queue: a few rigs at once in this process, stopped between steps on close. */
export class LocalRigQueue {
  private readonly waiting: string[] = [];
  private readonly running = new Map<string, Promise<void>>();
  private readonly stop = new AbortController();
  private idle: (() => void)[] = [];

  constructor(
    private readonly execute: (rigId: string, signal: AbortSignal) => Promise<unknown>,
    private readonly concurrency: number,
  ) {}

  /** Queues a rig unless it is queued or running here already. */
  enqueue(rigId: string): void {
    if (this.stop.signal.aborted) return;
    if (this.running.has(rigId) || this.waiting.includes(rigId)) return;
    this.waiting.push(rigId);
    this.pump();
  }

  private pump(): void {
    while (this.running.size < this.concurrency && this.waiting.length > 0) {
      const rigId = this.waiting.shift() as string;
      const done = this.execute(rigId, this.stop.signal)
        .then(() => undefined)
        .catch((e: unknown) => {
          // The rig row carries its failure; a stopped rig resumes at the next start.
          if (!(e instanceof RigStoppedError)) {
            console.error(`rig ${rigId} failed: ${e instanceof Error ? e.message : String(e)}`);
          }
        })
        .finally(() => {
          this.running.delete(rigId);
          this.pump();
          if (this.running.size === 0 && this.waiting.length === 0) {
            const waiters = this.idle;
            this.idle = [];
            for (const w of waiters) w();
          }
        });
      this.running.set(rigId, done);
    }
  }

  /** Resolves when no rig is queued or running here. */
  whenIdle(): Promise<void> {
    if (this.running.size === 0 && this.waiting.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  /** Drops the waiting rigs and stops the running ones between steps; they stay unfinished. */
  async close(): Promise<void> {
    this.waiting.length = 0;
    this.stop.abort();
    await Promise.allSettled([...this.running.values()]);
  }
}

export interface RigJobsOptions {
  deps: RigDeps;
  /** Where new rigs go: the queue the rig's runs go to (Rollouts.preferredQueue()). */
  queue: RigQueueKind;
  redisUrl?: string;
  /** The BullMQ queue of rig jobs. */
  queueName: string;
  /** Rigs at once in this process's embedded queue. */
  localConcurrency?: number;
}

export class RigJobs {
  private local: LocalRigQueue | undefined;
  private bullmq: RigJobQueue | undefined;

  constructor(private readonly o: RigJobsOptions) {}

  private run = (rigId: string, signal: AbortSignal) => executeRig(this.o.deps, rigId, { signal });

  private localQueue(): LocalRigQueue {
    this.local ??= new LocalRigQueue(this.run, this.o.localConcurrency ?? 2);
    return this.local;
  }

  /** Records the rig and dispatches its job; resolves with its id once the row exists. */
  async start(input: RigInput): Promise<{ rigId: string }> {
    const { rigId } = await createRig(this.o.deps, input, { queue: this.o.queue });
    await this.dispatch(rigId, this.o.queue);
    return { rigId };
  }

  private async dispatch(rigId: string, queue: RigQueueKind): Promise<void> {
    if (queue === 'local') {
      this.localQueue().enqueue(rigId);
      return;
    }
    const redisUrl = this.o.redisUrl;
    if (!redisUrl) throw new InvalidInputError('rig queue bullmq needs REDIS_URL');
    this.bullmq ??= new RigJobQueue({ redisUrl, name: this.o.queueName });
    await this.bullmq.add(rigId);
  }

  /**
   * Start-up recovery: every rig left queued or running is dispatched again (local rigs here; a
   * BullMQ rig's job is added again, which is harmless when it is still there). Call it after the
   * runs are resumed: a resumed rig waits for its runs.
   */
  async resumeUnfinished(): Promise<string[]> {
    const rigs = await this.o.deps.db.rig.findMany({
      where: { status: { in: ['queued', 'running'] } },
      select: { id: true, constraints: true },
      orderBy: { createdAt: 'asc' },
    });
    const resumed: string[] = [];
    for (const rig of rigs) {
      const stored = StoredRigSettingsSchema.safeParse(rig.constraints);
      const queue = stored.success ? stored.data.queue : 'local';
      if (queue === 'bullmq' && !this.o.redisUrl) continue;
      await this.dispatch(rig.id, queue);
      resumed.push(rig.id);
    }
    return resumed;
  }

  /** `harness worker`: consume rig jobs from BullMQ (REDIS_URL). */
  startWorker(o: {
    concurrency: number;
    lockDurationMs?: number;
    stalledIntervalMs?: number;
  }): RigWorker {
    const redisUrl = this.o.redisUrl;
    if (!redisUrl) throw new InvalidInputError('a rig worker needs REDIS_URL');
    const db = this.o.deps.db;
    return startRigWorker({
      redisUrl,
      name: this.o.queueName,
      execute: this.run,
      status: async (rigId) =>
        (await db.rig.findUnique({ where: { id: rigId }, select: { status: true } }))?.status ??
        null,
      ...o,
    });
  }

  /** Resolves when this process's embedded rig queue has nothing queued or running. */
  whenIdle(): Promise<void> {
    return this.local?.whenIdle() ?? Promise.resolve();
  }

  /** Stops the local rigs between steps (they resume at the next start) and closes the producer. */
  async close(): Promise<void> {
    const local = this.local;
    const bullmq = this.bullmq;
    await local?.close();
    await bullmq?.close();
  }
}
