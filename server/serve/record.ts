// `harness serve --record`: every served episode is stored as a run episode, so trainer rollouts can
// be reviewed in the studio (trajectory viewer, live run page) like any other run. The policy is the
// trainer on the other end of the socket: `openenv-client`.
//
// A run holds one episode per (task, seed); trainers often replay a seed (a GRPO group plays the same
// start several times), so an episode whose (task, seed) its run already has goes to the next run of
// this server (created when none can take it). While the server runs, each run counts one episode
// more than it has (a place held for the next), so it stays live between episodes; close() gives the
// place back and the run completes when its last episode is recorded.
import '#server-only';
import { randomUUID } from 'node:crypto';
import type { Evaluation } from '../../bridges/core/types.ts';
import { costAwareReward, resolveRewardParams } from '../../contracts/reward.ts';
import { firstBase, type HarnessSpec } from '../../contracts/spec.ts';
import type { Db } from '../db/index.ts';
import type { StepRecord } from '../harness/types.ts';
import { failureCategoryOf } from '../rollouts/episode.ts';
import type { RunEvents } from '../rollouts/events.ts';
import { EpisodeRecorder } from '../rollouts/recorder.ts';
import type { EpisodeResult } from '../rollouts/types.ts';

export const SERVED_POLICY = 'openenv-client';

export interface EpisodeEnd {
  runId: string;
  episodeId: string;
  attempt: number;
  taskId: string;
  seed: number;
  trajectory: StepRecord[];
  envReward: number;
  invalidActions: number;
  durationMs: number;
  textTool: { name: string; arg: string } | null;
  /** A judged episode: the verifier's verdict and why it stopped. */
  evaluation?: Evaluation;
  stop?: 'terminated' | 'step_budget_exhausted' | 'gave_up';
  /** An episode that ended in an error (never scored). */
  error?: { kind: 'infra' | 'harness' | 'policy'; name: string; message: string };
}

export interface ServeRecorder {
  /** A new served episode's row (claimed, so the live run page shows it running). */
  begin(
    taskId: string,
    seed: number,
  ): Promise<{ runId: string; episodeId: string; attempt: number } | null>;
  end(e: EpisodeEnd): Promise<void>;
  /** The runs recorded so far, oldest first. */
  runIds(): string[];
  close(): Promise<void>;
}

interface RunSlot {
  id: string;
  keys: Set<string>;
  ordinal: number;
}

/** The outcome of a served episode, as the rollout engine would have recorded it. */
export function servedResult(e: EpisodeEnd): EpisodeResult {
  const base = {
    steps: e.trajectory.length,
    invalidActions: e.invalidActions,
    envReward: e.envReward,
    durationMs: e.durationMs,
    trajectory: e.trajectory,
    taskId: e.taskId,
    seed: e.seed,
  };
  if (e.error || !e.evaluation) {
    return {
      ...base,
      outcome: 'error',
      error: e.error ?? { kind: 'infra', name: 'EnvInfraError', message: 'not judged' },
    };
  }
  const reward = costAwareReward(
    {
      success: e.evaluation.success,
      trajectory: e.trajectory,
      ...(e.textTool ? { textTool: e.textTool } : {}),
    },
    resolveRewardParams({}),
  );
  if (e.evaluation.success)
    return { ...base, outcome: 'success', evaluation: e.evaluation, reward };
  return {
    ...base,
    outcome: 'failure',
    failureCategory: failureCategoryOf({
      stop: e.stop === 'terminated' ? 'terminated' : (e.stop ?? 'gave_up'),
      trajectory: e.trajectory,
    }),
    evaluation: e.evaluation,
    reward,
  };
}

export class RunRecorder implements ServeRecorder {
  private readonly slots: RunSlot[] = [];
  private creating: Promise<RunSlot> | undefined;
  private readonly recorder: EpisodeRecorder;
  private readonly pending = new Set<Promise<unknown>>();
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly events: RunEvents,
    private readonly o: {
      spec: HarnessSpec;
      maxSteps: number;
      harnessVersionId?: string;
      projectId?: string;
      createdBy?: string;
    },
  ) {
    this.recorder = new EpisodeRecorder(`serve-${randomUUID()}`, { db, events });
  }

  runIds(): string[] {
    return this.slots.map((s) => s.id);
  }

  private track<T>(p: Promise<T>): Promise<T> {
    this.pending.add(p);
    p.finally(() => this.pending.delete(p)).catch(() => undefined);
    return p;
  }

  private async newRun(): Promise<RunSlot> {
    const run = await this.db.run.create({
      data: {
        kind: 'adhoc',
        policy: SERVED_POLICY,
        harnessVersionId: this.o.harnessVersionId ?? null,
        spec: this.o.spec as unknown as object,
        ...firstBase(this.o.spec.env),
        taskIds: [],
        k: 0,
        seeds: [],
        maxSteps: this.o.maxSteps,
        rewardParams: {},
        // The place held for the next episode (see the top of this file).
        episodesTotal: 1,
        projectId: this.o.projectId ?? null,
        createdBy: this.o.createdBy ?? null,
      },
      select: { id: true },
    });
    const slot = { id: run.id, keys: new Set<string>(), ordinal: 0 };
    this.slots.push(slot);
    return slot;
  }

  /** The first run without this (task, seed); a new one when every run has it. */
  private async slotFor(key: string): Promise<RunSlot> {
    for (;;) {
      const free = this.slots.find((s) => !s.keys.has(key));
      if (free) return free;
      if (!this.creating) {
        this.creating = this.newRun();
        this.creating.finally(() => {
          this.creating = undefined;
        });
      }
      await this.creating;
    }
  }

  begin(taskId: string, seed: number) {
    if (this.closed) return Promise.resolve(null);
    return this.track(
      (async () => {
        const key = `${taskId}\u0000${seed}`;
        const slot = await this.slotFor(key);
        slot.keys.add(key);
        const ordinal = slot.ordinal++;
        const [episode] = await this.db.$transaction([
          this.db.episode.create({
            data: { runId: slot.id, taskId, seed, ordinal },
            select: { id: true },
          }),
          this.db.run.update({
            where: { id: slot.id },
            data: { episodesTotal: { increment: 1 }, k: { increment: 1 }, seeds: { push: seed } },
            select: { id: true },
          }),
        ]);
        const claimed = await this.recorder.claim({ id: episode.id, runId: slot.id });
        return claimed ? { runId: slot.id, episodeId: episode.id, attempt: claimed.attempt } : null;
      })(),
    );
  }

  end(e: EpisodeEnd): Promise<void> {
    return this.track(
      this.recorder
        .record({ id: e.episodeId, runId: e.runId, attempt: e.attempt, result: servedResult(e) })
        .then(() => undefined),
    );
  }

  /** Gives back each run's held place; a run whose episodes are all recorded completes. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
    await this.recorder.drain();
    for (const slot of this.slots) {
      const run = await this.db.run.update({
        where: { id: slot.id },
        data: { episodesTotal: { decrement: 1 } },
        select: { episodesDone: true, episodesTotal: true, status: true },
      });
      if (run.episodesDone < run.episodesTotal || !['queued', 'running'].includes(run.status))
        continue;
      await this.db.$transaction([
        this.db.run.update({
          where: { id: slot.id },
          data: { status: 'completed', finishedAt: new Date() },
        }),
        this.db.runEvent.create({
          data: {
            runId: slot.id,
            type: 'run_completed',
            payload: { status: 'completed', done: run.episodesDone, total: run.episodesTotal },
          },
        }),
      ]);
    }
    this.events.notify(this.slots.map((s) => s.id));
  }
}
