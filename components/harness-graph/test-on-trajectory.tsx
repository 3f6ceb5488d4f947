'use client';
// Run the hooks over a recorded trajectory (the same actions, task and seed) and show what they
// change, before spending a validation run.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { HarnessSpec } from '../../server/harness/spec.ts';
import { shortId } from '../runs/format.ts';
import { actionText } from '../trajectory/format.ts';
import { wordDiff } from '../trajectory/text-diff.ts';
import { useTRPC } from '../trpc/client.tsx';
import { Button } from '../ui/button.tsx';
import { Label, Select } from '../ui/input.tsx';
import { ErrorNote } from '../ui/misc.tsx';

function baseTask(spec: HarnessSpec): string {
  let node = spec.env;
  while (node.type !== 'base') node = node.type === 'chain' ? node.first : node.env;
  return node.task;
}

export function TestOnTrajectory({ spec }: { spec: HarnessSpec }) {
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
  const changed = test.data?.steps.filter((s) => s.changes.length > 0) ?? [];

  return (
    <div className="flex flex-col gap-2 rounded-lg border p-3" data-testid="test-on-trajectory">
      <div className="text-sm font-medium">Test on a trajectory</div>
      {runs.data?.items.length === 0 ? (
        <p className="text-xs text-muted-foreground">
          No recorded runs on {task} yet — launch a baseline run first.
        </p>
      ) : (
        <>
          <div className="grid grid-cols-2 gap-2">
            <div className="flex flex-col gap-1">
              <Label>Run</Label>
              <Select
                value={chosenRun}
                onChange={(e) => setRunId(e.target.value)}
                data-testid="tot-run"
              >
                {runs.data?.items.map((r) => (
                  <option key={r.id} value={r.id}>
                    {shortId(r.id)} · {r.policy}
                  </option>
                ))}
              </Select>
            </div>
            <div className="flex flex-col gap-1">
              <Label>Episode</Label>
              <Select
                value={chosenEpisode}
                onChange={(e) => setEpisodeId(e.target.value)}
                data-testid="tot-episode"
              >
                {episodes.data?.items.map((e) => (
                  <option key={e.id} value={e.id}>
                    seed {e.seed} · {e.outcome} · {e.steps} steps
                  </option>
                ))}
              </Select>
            </div>
          </div>
          <Button
            size="sm"
            variant="outline"
            data-testid="tot-run-button"
            disabled={!chosenEpisode || test.isPending}
            onClick={() => test.mutate({ spec, episodeId: chosenEpisode })}
          >
            {test.isPending ? 'Replaying…' : 'Replay through these hooks'}
          </Button>
        </>
      )}
      <ErrorNote error={test.error} />
      {test.data ? (
        <div className="flex flex-col gap-2 text-xs">
          <div data-testid="tot-summary">
            {changed.length} of {test.data.steps.length} steps changed ·{' '}
            {test.data.steps.filter((s) => s.blocked).length} blocked
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
                  <div className="whitespace-pre-wrap">
                    {wordDiff(s.rawObservation.text, s.observation.text).map((p, i) => (
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
                ) : null}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
