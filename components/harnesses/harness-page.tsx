'use client';
// A harness: the graph editor on a loaded version (?version=N), named immutable versions with a
// diff, validation runs of a version, "try it", and the way to review and approve.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ClipboardCheck, Save } from 'lucide-react';
import Link from 'next/link';
import { useMemo, useState } from 'react';
import type { HarnessSpec } from '../../server/harness/spec.ts';
import { HarnessEditor } from '../harness-graph/editor.tsx';
import { laidOut } from '../harness-graph/layout.ts';
import { specToGraph } from '../harness-graph/model.ts';
import { PlayPanel } from '../harness-graph/play-panel.tsx';
import { useUrlState } from '../hooks/use-url-state.ts';
import { ago, shortId } from '../runs/format.ts';
import { LaunchRunForm } from '../runs/launch-run-form.tsx';
import { taskHref } from '../tasks/links.ts';
import { useTRPC } from '../trpc/client.tsx';
import { Badge } from '../ui/badge.tsx';
import { Button } from '../ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../ui/card.tsx';
import { Input } from '../ui/input.tsx';
import { ErrorNote, PageHeader, Skeleton } from '../ui/misc.tsx';
import { STATUS_VARIANT } from './harness-list.tsx';
import { VersionsPanel } from './versions-panel.tsx';

export function HarnessPage({ id }: { id: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const url = useUrlState();
  const harness = useQuery(trpc.harnesses.byId.queryOptions({ id }));
  const versions = harness.data?.versions ?? [];
  const requested = url.get('version');
  const current = versions.find((v) => String(v.version) === requested) ?? versions.at(-1);
  const initial = useMemo(
    () => (current ? laidOut(specToGraph(current.spec as HarnessSpec)) : undefined),
    [current],
  );
  const [name, setName] = useState('');
  const save = useMutation(
    trpc.harnesses.saveVersion.mutationOptions({
      onSuccess: async (v) => {
        setName('');
        await queryClient.invalidateQueries({ queryKey: trpc.harnesses.byId.queryKey({ id }) });
        url.set({ version: v.version });
      },
    }),
  );

  if (harness.error) return <ErrorNote error={harness.error} />;
  if (!harness.data || !current || !initial) return <Skeleton className="h-[600px]" />;
  const h = harness.data;

  return (
    <div>
      <PageHeader
        eyebrow={
          <Link href="/harnesses" className="hover:underline">
            ← Harnesses
          </Link>
        }
        title={
          <span className="flex items-center gap-3">
            {h.name}
            <Badge variant={STATUS_VARIANT[h.status]} data-testid="harness-status">
              {h.status}
            </Badge>
          </span>
        }
        description={
          <span>
            On{' '}
            <Link
              href={taskHref(h.bridge, h.taskId ?? '')}
              className="font-mono text-primary hover:underline"
            >
              {h.bridge}:{h.taskId}
            </Link>{' '}
            · editing <strong data-testid="current-version">v{current.version}</strong> “
            {current.name}” — versions never change; saving makes a new one.
          </span>
        }
        actions={
          <Button asChild variant="outline">
            <Link
              href={`/harnesses/${h.id}/review?version=${current.version}`}
              data-testid="review-link"
            >
              <ClipboardCheck /> Review & approve
            </Link>
          </Button>
        }
      />
      <ErrorNote error={save.error} />
      <HarnessEditor
        initial={initial}
        actions={({ spec }) => (
          <form
            className="flex items-center gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              if (spec.ok)
                save.mutate({
                  harnessId: h.id,
                  name: name || `v${versions.length + 1}`,
                  spec: spec.spec,
                });
            }}
          >
            <Input
              data-testid="version-name"
              className="h-8 w-48"
              placeholder={`Name of v${versions.length + 1}`}
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
            <Button
              type="submit"
              size="sm"
              data-testid="save-version"
              disabled={!spec.ok || save.isPending}
            >
              <Save /> Save version
            </Button>
          </form>
        )}
        below={({ spec }) => (
          <>
            <VersionsPanel versions={versions} current={current} />
            <Card>
              <CardHeader>
                <CardTitle>Validate v{current.version}</CardTitle>
              </CardHeader>
              <CardContent className="flex flex-col gap-3">
                <LaunchRunForm
                  bridge={h.bridge}
                  task={h.taskId ?? ''}
                  spec={current.spec as HarnessSpec}
                  harnessVersionId={current.id}
                  kind="validation"
                />
                {current.runs.length > 0 ? (
                  <ul
                    className="flex flex-col divide-y rounded-lg border text-sm"
                    data-testid="version-runs"
                  >
                    {current.runs.map((r) => (
                      <li key={r.id} className="flex items-center gap-2 px-3 py-1.5">
                        <Link
                          href={`/runs/${r.id}`}
                          className="font-mono text-xs text-primary hover:underline"
                        >
                          {shortId(r.id)}
                        </Link>
                        <Badge variant="outline">{r.kind}</Badge>
                        <span className="truncate font-mono text-xs">{r.policy}</span>
                        <span className="ml-auto text-xs text-muted-foreground">
                          {r.status} · {ago(new Date(r.createdAt).toISOString())}
                        </span>
                      </li>
                    ))}
                  </ul>
                ) : null}
              </CardContent>
            </Card>
            <PlayPanel spec={spec.ok ? spec.spec : undefined} />
          </>
        )}
      />
    </div>
  );
}
