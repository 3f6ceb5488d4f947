'use client';
// One step, read closely: what the agent did and what reached the environment, what the
// environment said and what the agent was shown — with each harness layer's change named.
import { Ban, Layers } from 'lucide-react';
import type { ReactNode } from 'react';
import type { StepRecord } from '../../contracts/steps.ts';
import { BpePanel } from '../bpe/bpe-panel.tsx';
import { JsonView } from '../common/json-view.tsx';
import { StepLlmCard } from '../llm/episode-llm.tsx';
import { Badge } from '../ui/badge.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../ui/card.tsx';
import { cn } from '../ui/cn.ts';
import { keyedByOccurrence } from '../ui/keys.ts';
import { actionText, LAYER_CHANGE_TEXT } from './format.ts';
import {
  BrowserCard,
  browserData,
  PageRefsCard,
  pageRefs,
  type ScreenshotView,
} from './observation-data.tsx';
import { actionRewritten, keyedWordDiff, layersFor, observationChanged } from './step.ts';

type StateView = { pending: boolean; value: unknown; error?: string };

export function StepDetail({
  step,
  state,
  screenshot,
}: {
  step: StepRecord;
  /** The state view after the step when the run did not record it (rebuilt by replay). */
  state?: StateView;
  /** Browser bridges: the page after the step (rebuilt by replay). */
  screenshot?: ScreenshotView;
}) {
  const admissible = step.info.admissibleCommands;
  const browser = browserData(step.observation.data);
  const refs = pageRefs(step.observation.data);
  return (
    <div className="flex flex-col gap-4" data-testid="step-detail" data-step={step.index}>
      <StepBadges step={step} />
      <ActionCard step={step} />
      <StepLlmCard llm={step.llm} />
      <ObservationCard step={step} />
      {browser ? <BrowserCard data={browser} shot={screenshot} /> : null}
      {refs ? <PageRefsCard refs={refs} /> : null}
      <BpePanel meta={step.meta} />
      {step.changes.length > 0 ? <LayerChanges step={step} /> : null}
      {Array.isArray(admissible) && admissible.length > 0 ? (
        <TitledCard title={`Admissible commands after this step (${admissible.length})`}>
          <div
            className="flex max-h-40 flex-wrap gap-1 overflow-auto"
            data-testid="admissible-commands"
          >
            {keyedByOccurrence(admissible).map(({ key, value }) => (
              <code key={key} className="rounded bg-muted px-1.5 py-0.5 text-xs">
                {value}
              </code>
            ))}
          </div>
        </TitledCard>
      ) : null}
      <StepInfoCard step={step} />
      <TitledCard title="State view after this step">
        <StateAfter step={step} state={state} />
      </TitledCard>
    </div>
  );
}

/** Info keys every bridge shares, shown elsewhere on this page. */
const SHOWN_INFO = new Set(['invalid', 'admissibleCommands', 'harness']);

/** The rest of the step's info: e.g. an OpenEnv server's raw reply (observation dict, reward, done). */
function StepInfoCard({ step }: { step: StepRecord }) {
  const rest = Object.fromEntries(Object.entries(step.info).filter(([k]) => !SHOWN_INFO.has(k)));
  if (Object.keys(rest).length === 0) return null;
  return (
    <TitledCard title="The environment's own reply (step info)">
      <JsonView value={rest} className="max-h-[320px]" testId="step-info" />
    </TitledCard>
  );
}

function TitledCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

function StepBadges({ step }: { step: StepRecord }) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <h2 className="text-lg font-semibold">Step {step.index}</h2>
      <Badge variant="outline">reward {step.reward}</Badge>
      {step.terminated ? <Badge variant="info">terminated</Badge> : null}
      {step.truncated ? <Badge variant="warning">truncated</Badge> : null}
      {step.invalid ? <Badge variant="danger">invalid action</Badge> : null}
      {step.blocked ? (
        <Badge variant="danger" data-testid="blocked-badge">
          <Ban className="size-3" /> blocked
        </Badge>
      ) : null}
      {step.leg !== undefined ? <Badge variant="accent">leg {step.leg + 1}</Badge> : null}
      {step.changes.length > 0 ? (
        <Badge variant="accent">
          <Layers className="size-3" /> {step.changes.length} layer change
          {step.changes.length === 1 ? '' : 's'}
        </Badge>
      ) : null}
    </div>
  );
}

function ActionCard({ step }: { step: StepRecord }) {
  const rewritten = actionRewritten(step);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Action</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-2">
        <div className="flex items-baseline gap-2">
          <span className="w-28 shrink-0 text-xs text-muted-foreground">Agent emitted</span>
          <code className="rounded bg-muted px-2 py-1 text-sm" data-testid="agent-action">
            {actionText(step.action)}
          </code>
        </div>
        {step.blocked ? (
          <div
            className="rounded-md border border-danger/40 bg-danger-soft px-3 py-2 text-sm text-danger"
            data-testid="blocked-reason"
          >
            Blocked by {layersFor(step, ['blocked']).join(', ') || 'a harness layer'}:{' '}
            {step.blocked}
          </div>
        ) : (
          <div className="flex items-baseline gap-2">
            <span className="w-28 shrink-0 text-xs text-muted-foreground">Reached the env</span>
            <code
              className={cn(
                'rounded px-2 py-1 text-sm',
                rewritten ? 'bg-warning-soft' : 'bg-muted',
              )}
              data-testid="executed-action"
            >
              {actionText(step.executedAction)}
            </code>
            {rewritten ? (
              <span className="text-xs text-warning">
                rewritten by {layersFor(step, ['action']).join(', ') || 'a layer'}
              </span>
            ) : null}
          </div>
        )}
      </CardContent>
    </Card>
  );
}

function ObservationCard({ step }: { step: StepRecord }) {
  const changed = observationChanged(step);
  return (
    <Card>
      <CardHeader className="flex-row items-center justify-between">
        <CardTitle>Observation</CardTitle>
        {changed ? (
          <span className="text-xs text-accent-foreground" data-testid="observation-changed-by">
            changed by{' '}
            {layersFor(step, ['observation', 'transition', 'banner']).join(', ') || 'a layer'}
          </span>
        ) : null}
      </CardHeader>
      <CardContent>
        {changed && step.rawObservation ? (
          <Diff before={step.rawObservation.text} after={step.observation.text} />
        ) : (
          <pre
            className="rounded-lg border bg-muted/40 p-3 text-sm whitespace-pre-wrap"
            data-testid="observation"
          >
            {step.observation.text}
          </pre>
        )}
      </CardContent>
    </Card>
  );
}

function Diff({ before, after }: { before: string; after: string }) {
  const parts = keyedWordDiff(before, after);
  return (
    <div className="grid gap-3 md:grid-cols-2">
      <div>
        <div className="mb-1 text-xs font-medium text-muted-foreground">
          Raw (from the environment)
        </div>
        <pre
          className="rounded-lg border bg-muted/40 p-3 text-sm whitespace-pre-wrap"
          data-testid="raw-observation"
        >
          {parts.map((p) =>
            p.op === 'add' ? null : (
              <span
                key={p.key}
                className={cn(
                  p.op === 'del' &&
                    'rounded bg-danger-soft text-danger line-through decoration-danger/40',
                )}
              >
                {p.text}
              </span>
            ),
          )}
        </pre>
      </div>
      <div>
        <div className="mb-1 text-xs font-medium text-muted-foreground">
          Filtered (what the agent saw)
        </div>
        <pre
          className="rounded-lg border bg-muted/40 p-3 text-sm whitespace-pre-wrap"
          data-testid="filtered-observation"
        >
          {parts.map((p) =>
            p.op === 'del' ? null : (
              <span
                key={p.key}
                className={cn(p.op === 'add' && 'rounded bg-success-soft text-success')}
              >
                {p.text}
              </span>
            ),
          )}
        </pre>
      </div>
    </div>
  );
}

function LayerChanges({ step }: { step: StepRecord }) {
  return (
    <TitledCard title="Layer changes">
      <ul className="flex flex-col gap-2 text-sm" data-testid="layer-changes">
        {step.changes.map((c, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: changes are an ordered log
          <li key={i} className="rounded-md border p-2">
            <div className="flex items-center gap-2">
              <Badge variant="accent">{c.component}</Badge>
              <code className="text-xs">{c.layer}</code>
              <span className="text-xs text-muted-foreground">{LAYER_CHANGE_TEXT[c.what]}</span>
            </div>
            {c.note ? <div className="mt-1 text-xs text-muted-foreground">{c.note}</div> : null}
          </li>
        ))}
      </ul>
    </TitledCard>
  );
}

function StateAfter({ step, state }: { step: StepRecord; state: StateView | undefined }) {
  if (step.state !== undefined)
    return <JsonView value={step.state} className="max-h-[420px]" testId="state-view" />;
  if (state?.error) return <p className="text-sm text-danger">{state.error}</p>;
  if (state && !state.pending)
    return <JsonView value={state.value} className="max-h-[420px]" testId="state-view" />;
  return (
    <p className="text-sm text-muted-foreground">Rebuilding the state by replaying the episode…</p>
  );
}
