'use client';
// Journey 1 (task page): the goal, the tools, the state schema, the task's runs; the start of
// journey 2: launch a baseline run from here.
import { useQuery } from '@tanstack/react-query';
import { Network } from 'lucide-react';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { JsonView } from '../common/json-view.tsx';
import { LaunchRig } from '../rigger/launch-rig.tsx';
import { LaunchRunForm } from '../runs/launch-run-form.tsx';
import { RunsTable } from '../runs/runs-table.tsx';
import { useTRPC } from '../trpc/client.tsx';
import type { RouterOutputs } from '../trpc/types.ts';
import { BackLink } from '../ui/back-link.tsx';
import { Badge } from '../ui/badge.tsx';
import { Button } from '../ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../ui/card.tsx';
import { ErrorNote, PageHeader, Skeleton } from '../ui/misc.tsx';
import { AvailabilityNote } from './availability-note.tsx';
import { toolParams } from './model.ts';

function Section({
  title,
  children,
  actions,
}: {
  title: string;
  children: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <Card>
      <CardHeader className="flex-row items-center justify-between">
        <CardTitle>{title}</CardTitle>
        {actions}
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

type Detail = RouterOutputs['tasks']['byId'];

export function TaskDetail({ bridge, task }: { bridge: string; task: string }) {
  const trpc = useTRPC();
  const detail = useQuery(trpc.tasks.byId.queryOptions({ bridge, task }));
  const d = detail.data;

  return (
    <div>
      <PageHeader
        eyebrow={
          <BackLink href={`/?bridge=${encodeURIComponent(bridge)}`}>{bridge} tasks</BackLink>
        }
        title={<span className="font-mono">{task}</span>}
        description={d?.bridge.description}
        actions={
          <Button asChild variant="outline">
            <Link
              href={`/harnesses/new?task=${encodeURIComponent(`${bridge}:${task}`)}`}
              data-testid="new-harness"
            >
              <Network /> New harness
            </Link>
          </Button>
        }
      />
      <ErrorNote error={detail.error} />
      {d ? <AvailabilityNote availability={d.bridge.availability} /> : null}
      {detail.isPending ? <Skeleton className="h-64" /> : null}
      {d ? (
        <div className="grid gap-6 xl:grid-cols-[1fr_420px]">
          <div className="flex min-w-0 flex-col gap-6">
            <Section title="Goal">
              <Goal task={d.task} />
            </Section>
            <Section title="Runs on this task">
              <RunsTable filter={{ bridge, task }} compact />
            </Section>
            <div className="grid gap-6 lg:grid-cols-2">
              <Section title={`Tools (${d.tools.length})`}>
                <ToolList tools={d.tools} />
              </Section>
              <Section title="State schema">
                <JsonView value={d.stateSchema} className="max-h-[420px]" testId="state-schema" />
              </Section>
            </div>
            {d.bridge.origin?.actionSchema ? (
              <Section
                title={`Action schema (${d.bridge.origin.protocol === 'openenv' ? 'OpenEnv' : d.bridge.origin.protocol} server at ${d.bridge.origin.url})`}
              >
                <JsonView
                  value={d.bridge.origin.actionSchema}
                  className="max-h-[420px]"
                  testId="action-schema"
                />
              </Section>
            ) : null}
          </div>
          <div className="flex flex-col gap-6">
            <Section title="Launch a baseline run">
              <LaunchRunForm bridge={bridge} task={task} />
            </Section>
            <Section title="Rig this task (EnvRigger)">
              <LaunchRig bridge={bridge} task={task} />
            </Section>
          </div>
        </div>
      ) : null}
    </div>
  );
}

function Goal({ task }: { task: Detail['task'] }) {
  return (
    <>
      <p className="text-lg leading-relaxed" data-testid="task-goal">
        {task.goal}
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        <Badge variant="accent">{task.type}</Badge>
        <Badge variant="outline">split: {task.split}</Badge>
        {task.difficulty !== undefined ? (
          <Badge variant="outline">difficulty {task.difficulty.toFixed(2)}</Badge>
        ) : null}
      </div>
    </>
  );
}

function ToolList({ tools }: { tools: Detail['tools'] }) {
  return (
    <ul className="flex flex-col gap-3" data-testid="task-tools">
      {tools.map((tool) => {
        const params = toolParams(tool.parameters);
        return (
          <li key={tool.name} className="rounded-lg border p-3">
            <div className="font-mono text-sm font-semibold">{tool.name}</div>
            <p className="mt-1 text-sm text-muted-foreground">{tool.description}</p>
            {params.length > 0 ? (
              <ul className="mt-2 flex flex-col gap-1 text-xs">
                {params.map((p) => (
                  <li key={p.name}>
                    <span className="font-mono">{p.name}</span>
                    <span className="text-muted-foreground">
                      {' '}
                      : {p.type}
                      {p.description ? ` — ${p.description}` : ''}
                    </span>
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
