'use client';
// A harness: the graph editor on a loaded version (?version=N), named immutable versions with a
// diff, validation runs of a version, "try it", and the way to review and approve.
import { ClipboardCheck } from 'lucide-react';
import Link from 'next/link';
import { HarnessEditor } from '../harness-graph/editor.tsx';
import { PlayPanel } from '../harness-graph/play-panel.tsx';
import { SaveSpecForm } from '../harness-graph/save-spec-form.tsx';
import { ago, shortId } from '../runs/format.ts';
import { LaunchRunForm } from '../runs/launch-run-form.tsx';
import { taskHref } from '../tasks/links.ts';
import { ShareButton } from '../team/share-button.tsx';
import type { RouterOutputs } from '../trpc/types.ts';
import { BackLink } from '../ui/back-link.tsx';
import { Badge } from '../ui/badge.tsx';
import { Button } from '../ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../ui/card.tsx';
import { ErrorNote, PageHeader, Skeleton } from '../ui/misc.tsx';
import { STATUS_VARIANT } from './harness-list.tsx';
import { ServePanel } from './serve-panel.tsx';
import { useHarness } from './use-harness.ts';
import { VersionsPanel } from './versions-panel.tsx';

type Harness = RouterOutputs['harnesses']['byId'];
type Version = Harness['versions'][number];

export function HarnessPage({ id }: { id: string }) {
  const h = useHarness(id);
  const { current, initial, versions } = h;
  if (h.harness.error) return <ErrorNote error={h.harness.error} />;
  if (!h.harness.data || !current || !initial) return <Skeleton className="h-[600px]" />;
  const harness = h.harness.data;

  return (
    <div>
      <HarnessHeader harness={harness} current={current} />
      <ErrorNote error={h.save.error} />
      <HarnessEditor
        initial={initial}
        harnessId={harness.id}
        actions={({ spec }) => (
          <SaveSpecForm
            spec={spec}
            name={h.name}
            onName={h.setName}
            onSave={h.saveVersion}
            pending={h.save.isPending}
            nameTestId="version-name"
            saveTestId="save-version"
            inputClassName="h-8 w-48"
            placeholder={`Name of ${h.nextName}`}
          >
            Save version
          </SaveSpecForm>
        )}
        below={({ spec }) => (
          <>
            <VersionsPanel versions={versions} current={current} />
            <ValidateCard harness={harness} version={current} />
            <ServePanel harnessId={harness.id} version={current} spec={current.spec} />
            <PlayPanel spec={spec.ok ? spec.spec : undefined} />
          </>
        )}
      />
    </div>
  );
}

function HarnessHeader({ harness: h, current }: { harness: Harness; current: Version }) {
  return (
    <PageHeader
      eyebrow={<BackLink href="/harnesses">Harnesses</BackLink>}
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
        <>
          <ShareButton kind="harnessVersion" ids={[current.id]} />
          <Button asChild variant="outline">
            <Link
              href={`/harnesses/${h.id}/review?version=${current.version}`}
              data-testid="review-link"
            >
              <ClipboardCheck /> Review & approve
            </Link>
          </Button>
        </>
      }
    />
  );
}

/** Launch a validation run of the version on screen, and list the version's runs. */
function ValidateCard({ harness: h, version }: { harness: Harness; version: Version }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Validate v{version.version}</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <LaunchRunForm
          bridge={h.bridge}
          task={h.taskId ?? ''}
          spec={version.spec}
          harnessVersionId={version.id}
          kind="validation"
        />
        {version.runs.length > 0 ? (
          <ul
            className="flex flex-col divide-y rounded-lg border text-sm"
            data-testid="version-runs"
          >
            {version.runs.map((r) => (
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
  );
}
