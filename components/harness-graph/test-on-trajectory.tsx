'use client';
// Run the hooks over a recorded trajectory (the same actions, task and seed) and show what they
// change, before spending a validation run.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { HarnessSpec } from '../../contracts/spec.ts';
import { shortId } from '../runs/format.ts';
import { actionText } from '../trajectory/format.ts';
import { wordDiff } from '../trajectory/text-diff.ts';
import { useTRPC } from '../trpc/client.tsx';
import type { RouterOutputs } from '../trpc/types.ts';
import { Button } from '../ui/button.tsx';
import { Field } from '../ui/field.tsx';
import { Select } from '../ui/input.tsx';
import { ErrorNote } from '../ui/misc.tsx';
import { baseTask, replaySummary } from './replay.ts';

type Replayed = RouterOutputs['harnesses']['testOnTrajectory'];

/** The run and episode to replay (the newest of each until picked) and the replay itself. */
function useTrajectoryTest(spec: HarnessSpec) {
  const trpc = useTRPC();
  const task = baseTask(spec);
  const runs = useQuery(trpc.runs.list.queryOptions({ task, limit: 20 }));
  const [runId, setRunId] = useState('');
  const chosenRun = runId || runs.data?.items[0]?.id || '';
  const episodes = useQuery({
    ...trpc.runs.episodes.queryOptions({ runId: chosenRun, limit: 50 }),
    enabled: Boolean(chosenRun),
  });
  const [episodeId, setEpisodeId] = useState('');
  const chosenEpisode = episodeId || episodes.data?.items[0]?.id || '';
  const test = useMutation(trpc.harnesses.testOnTrajectory.mutationOptions());
  return {
    task,
    runs: runs.data?.items,
    episodes: episodes.data?.items,
    chosenRun,
    setRunId,
    chosenEpisode,
    setEpisodeId,
    test,
    replay: () => test.mutate({ spec, episodeId: chosenEpisode }),
  };
}

export function TestOnTrajectory({ spec }: { spec: HarnessSpec }) {
  const t = useTrajectoryTest(spec);
  return (
    <div className="flex flex-col gap-2 rounded-lg border p-3" data-testid="test-on-trajectory">
      <div className="text-sm font-medium">Test on a trajectory</div>
      {t.runs?.length === 0 ? (
        <p className="text-xs text-muted-foreground">
          No recorded runs on {t.task} yet — launch a baseline run first.
        </p>
      ) : (
        <>
          <div className="grid grid-cols-2 gap-2">
            <Field label="Run">
              <Select
                value={t.chosenRun}
                onChange={(e) => t.setRunId(e.target.value)}
                data-testid="tot-run"
              >
                {t.runs?.map((r) => (
                  <option key={r.id} value={r.id}>
                    {shortId(r.id)} · {r.policy}
                  </option>
                ))}
              </Select>
            </Field>
            <Field label="Episode">
              <Select
                value={t.chosenEpisode}
                onChange={(e) => t.setEpisodeId(e.target.value)}
                data-testid="tot-episode"
              >
                {t.episodes?.map((e) => (
                  <option key={e.id} value={e.id}>
                    seed {e.seed} · {e.outcome} · {e.steps} steps
                  </option>
                ))}
              </Select>
            </Field>
          </div>
          <Button
            size="sm"
            variant="outline"
            data-testid="tot-run-button"
            disabled={!t.chosenEpisode || t.test.isPending}
            onClick={t.replay}
          >
            {t.test.isPending ? 'Replaying…' : 'Replay through these hooks'}
          </Button>
        </>
      )}
      <ErrorNote error={t.test.error} />
      {t.test.data ? <ReplayResult replayed={t.test.data} /> : null}
    </div>
  );
}

function ReplayResult({ replayed }: { replayed: Replayed }) {
  const { changed, blocked, total } = replaySummary(replayed.steps);
  return (
    <div className="flex flex-col gap-2 text-xs">
      <div data-testid="tot-summary">
        {changed.length} of {total} steps changed · {blocked} blocked
      </div>
      <ul className="flex max-h-72 flex-col gap-2 overflow-auto">
        {changed.slice(0, 30).map((s) => (
          <li key={s.index} className="rounded-md border p-2">
            <div className="mb-1 flex gap-2">
              <span className="text-muted-foreground">#{s.index}</span>
              <code>{actionText(s.action)}</code>
              {s.blocked ? <span className="text-danger">blocked: {s.blocked}</span> : null}
            </div>
            {s.rawObservation && s.rawObservation.text !== s.observation.text ? (
              <ObservationDiff before={s.rawObservation.text} after={s.observation.text} />
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

function ObservationDiff({ before, after }: { before: string; after: string }) {
  return (
    <div className="whitespace-pre-wrap">
      {wordDiff(before, after).map((p, i) => (
        <span
          // biome-ignore lint/suspicious/noArrayIndexKey: diff parts have no identity beyond position
          key={i}
          className={
            p.op === 'del'
              ? 'bg-danger-soft text-danger line-through'
              : p.op === 'add'
                ? 'bg-success-soft text-success'
                : ''
          }
        >
          {p.text}
        </span>
      ))}
    </div>
  );
}
