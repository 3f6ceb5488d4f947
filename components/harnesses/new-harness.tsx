'use client';
// A new harness starts from a task: its environment node wired to the output, ready to wrap.
import { useMutation } from '@tanstack/react-query';
import { useRouter, useSearchParams } from 'next/navigation';
import { useMemo, useState } from 'react';
import { HarnessEditor } from '../harness-graph/editor.tsx';
import { laidOut } from '../harness-graph/layout.ts';
import { type Graph, specToGraph } from '../harness-graph/model.ts';
import { PlayPanel } from '../harness-graph/play-panel.tsx';
import { SaveSpecForm } from '../harness-graph/save-spec-form.tsx';
import { useTRPC } from '../trpc/client.tsx';
import { ErrorNote, PageHeader } from '../ui/misc.tsx';

export function NewHarness() {
  const trpc = useTRPC();
  const router = useRouter();
  const task = useSearchParams()?.get('task') ?? '';
  const [bridge = '', taskId = ''] = task.split(':');
  const initial = useMemo<Graph>(
    () => laidOut(specToGraph({ version: 1, env: { type: 'base', bridge, task: taskId } })),
    [bridge, taskId],
  );
  const [name, setName] = useState('');
  const create = useMutation(
    trpc.harnesses.create.mutationOptions({
      onSuccess: ({ harnessId }) => router.push(`/harnesses/${harnessId}`),
    }),
  );
  return (
    <div>
      <PageHeader
        title="New harness"
        description={
          task ? (
            <span>
              Wrapping <span className="font-mono">{task}</span>.
            </span>
          ) : (
            'Choose an environment for the leaf node.'
          )
        }
      />
      <ErrorNote error={create.error} />
      <HarnessEditor
        initial={initial}
        actions={({ spec }) => (
          <SaveSpecForm
            spec={spec}
            name={name}
            onName={setName}
            onSave={(harnessSpec) =>
              create.mutate({
                name: name || 'Untitled harness',
                spec: harnessSpec,
                versionName: 'v1',
              })
            }
            pending={create.isPending}
            nameTestId="harness-name"
            saveTestId="create-harness"
            inputClassName="h-8 w-56"
            placeholder="Harness name"
          >
            Create harness
          </SaveSpecForm>
        )}
        below={({ spec }) => <PlayPanel spec={spec.ok ? spec.spec : undefined} />}
      />
    </div>
  );
}
