// Episodes the comparison plays in-process, recorded as ordinary runs so that every skill built from
// them cites real episode ids (the studio links a skill's sources to the trajectory viewer). The run
// row and its episodes are written exactly as launchRun writes them, then each finished result goes
// through the same recorder the queues use (steps, reward terms, events, run completion).
import { firstBase } from '../../contracts/spec.ts';
import type { Db } from '../db/index.ts';
import type { HarnessSpec } from '../harness/spec.ts';
import type { RunEvents } from '../rollouts/events.ts';
import { EpisodeRecorder } from '../rollouts/recorder.ts';
import type { EpisodeResult } from '../rollouts/types.ts';

export interface PlayedEpisode {
  taskId: string;
  seed: number;
  result: EpisodeResult;
}

/** Writes one completed run holding `episodes` (played on `spec`); returns the run and episode ids in order. */
export async function recordPlayedRun(
  store: { db: Db; events: RunEvents },
  o: {
    spec: HarnessSpec;
    policy: string;
    maxSteps: number;
    episodes: PlayedEpisode[];
    policyOptions?: Record<string, unknown>;
    projectId?: string | undefined;
  },
): Promise<{ runId: string; episodeIds: string[] }> {
  const { db } = store;
  const taskIds = [...new Set(o.episodes.map((e) => e.taskId))];
  const seeds = [...new Set(o.episodes.map((e) => e.seed))];
  const { runId, episodeIds } = await db.$transaction(async (tx) => {
    const run = await tx.run.create({
      data: {
        kind: 'adhoc',
        policy: o.policy,
        spec: o.spec as unknown as object,
        ...firstBase(o.spec.env),
        taskIds,
        k: seeds.length,
        seeds,
        maxSteps: o.maxSteps,
        queue: 'local',
        rewardParams: {},
        ...(o.policyOptions
          ? { policyOptions: JSON.parse(JSON.stringify(o.policyOptions)) as object }
          : {}),
        episodesTotal: o.episodes.length,
        projectId: o.projectId ?? null,
      },
      select: { id: true },
    });
    const ids: string[] = [];
    for (const [ordinal, e] of o.episodes.entries()) {
      const row = await tx.episode.create({
        data: { runId: run.id, taskId: e.taskId, seed: e.seed, ordinal },
        select: { id: true },
      });
      ids.push(row.id);
    }
    return { runId: run.id, episodeIds: ids };
  });
  const recorder = new EpisodeRecorder(`skills-compare:${process.pid}`, store);
  const claimed = await recorder.claimMany(episodeIds.map((id) => ({ id, runId })));
  await Promise.all(
    claimed.map((c, i) => {
      const played = o.episodes[i];
      if (!c || !played) return Promise.resolve(false);
      return recorder.record({ id: c.id, runId, attempt: c.attempt, result: played.result });
    }),
  );
  await recorder.drain();
  return { runId, episodeIds };
}
