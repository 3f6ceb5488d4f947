'use client';
// The EvoHarness workspace at one step of a bpe policy's episode: the meta-action (if the step is
// one), Belief (what the agent believed about the world when it chose the step's action, so one
// observation behind the step, and labelled so), Progress (sub-goals) and Experience (recalled
// skills, queued notes), with what changed since the previous step highlighted.
import { Brain, CheckCircle2, Circle, ListChecks, Sparkles } from 'lucide-react';
import type { ReactNode } from 'react';
import { Badge } from '../ui/badge.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card.tsx';
import { cn } from '../ui/cn.ts';
import { countOf } from '../ui/plural.ts';
import { type BpeStepView, beliefTiming, bpeOf } from './model.ts';

function Off({ part }: { part: string }) {
  return (
    <p className="text-sm text-muted-foreground">{part} is off in this agent harness (ablation).</p>
  );
}

export function BpePanel({ meta }: { meta: unknown }) {
  const view = bpeOf(meta);
  if (!view) return null;
  return (
    <Card data-testid="bpe-panel" data-kind={view.kind}>
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-2">
        <div>
          <CardTitle className="flex items-center gap-2">
            <Brain className="size-4 text-primary" /> Agent workspace (BPE)
          </CardTitle>
          <CardDescription>
            {view.metaActions} meta-action{view.metaActions === 1 ? '' : 's'} so far
            {view.invalidMeta > 0 ? `, ${view.invalidMeta} invalid` : ''} · each costs one step
          </CardDescription>
        </div>
        {view.meta ? (
          <Badge variant={view.meta.valid ? 'accent' : 'danger'} data-testid="bpe-meta-badge">
            meta-action: {view.meta.verb ?? 'malformed'}
          </Badge>
        ) : null}
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {view.meta ? <MetaAction meta={view.meta} /> : null}
        <Section testId="bpe-belief" icon={<Brain className="size-3" />} title="Belief">
          {!view.parts.belief ? (
            <Off part="Belief" />
          ) : (
            <>
              <p className="mb-1 text-xs text-muted-foreground" data-testid="bpe-belief-timing">
                {beliefTiming(view.kind)}
              </p>
              <Belief view={view} />
            </>
          )}
        </Section>
        <Section testId="bpe-progress" icon={<ListChecks className="size-3" />} title="Progress">
          {!view.parts.progress ? <Off part="Progress" /> : <Progress items={view.progress} />}
        </Section>
        <Section testId="bpe-experience" icon={<Sparkles className="size-3" />} title="Experience">
          {!view.parts.experience ? (
            <Off part="Experience" />
          ) : (
            <Experience experience={view.experience} />
          )}
        </Section>
      </CardContent>
    </Card>
  );
}

function Section({
  testId,
  icon,
  title,
  children,
}: {
  testId: string;
  icon: ReactNode;
  title: string;
  children: ReactNode;
}) {
  return (
    <section data-testid={testId}>
      <h4 className="mb-1 flex items-center gap-1 text-xs font-semibold uppercase text-muted-foreground">
        {icon} {title}
      </h4>
      {children}
    </section>
  );
}

function MetaAction({ meta }: { meta: NonNullable<BpeStepView['meta']> }) {
  return (
    <div
      className={cn(
        'rounded-lg border p-3 text-sm',
        meta.valid ? 'border-primary/40 bg-accent/40' : 'border-danger/40 bg-danger-soft',
      )}
      data-testid="bpe-meta-action"
    >
      <div className="flex items-center gap-2">
        <code className="font-semibold">{meta.raw}</code>
        <span className="text-xs text-muted-foreground">
          issued by {meta.by === 'scaffold' ? 'the harness scaffold' : 'the policy'}
        </span>
      </div>
      <pre className="mt-2 whitespace-pre-wrap text-xs">{meta.feedback}</pre>
    </div>
  );
}

function Belief({ view }: { view: BpeStepView }) {
  const changedKeys = new Set(view.changes.belief.map((c) => c.key));
  const changedObjects = new Set(
    view.changes.belief.filter((c) => c.key.startsWith('loc:')).map((c) => c.key.slice(4)),
  );
  return (
    <div className="flex flex-col gap-1 text-sm">
      <div>
        At <b>{view.belief.at ?? 'the middle of the room'}</b>, holding{' '}
        <b data-testid="bpe-holding">{view.belief.holding ?? 'nothing'}</b>
      </div>
      <ul className="grid gap-1 sm:grid-cols-2">
        {view.belief.receptacles.map((r) => (
          <li
            key={r.name}
            className={cn(
              'rounded border px-2 py-1 text-xs',
              (changedKeys.has(`recep:${r.name}`) ||
                r.objects.some((o) => changedObjects.has(o))) &&
                'border-success/50 bg-success-soft',
            )}
            data-testid="bpe-receptacle"
          >
            <span className="font-medium">{r.name}</span>{' '}
            <span className="text-muted-foreground">({r.state})</span>
            {r.objects.length > 0 ? `: ${r.objects.join(', ')}` : ''}
          </li>
        ))}
      </ul>
      {view.belief.states.length > 0 ? (
        <div className="text-xs">
          States: {view.belief.states.map((s) => `${s.key} ${s.value}`).join('; ')}
        </div>
      ) : null}
    </div>
  );
}

function Progress({ items }: { items: BpeStepView['progress'] }) {
  return (
    <ol className="flex flex-col gap-0.5 text-sm">
      {items.map((p, i) => (
        <li
          // biome-ignore lint/suspicious/noArrayIndexKey: sub-goals are an ordered list
          key={i}
          className="flex items-center gap-2"
          data-testid="bpe-subgoal"
          data-status={p.status}
        >
          {p.status === 'done' ? (
            <CheckCircle2 className="size-4 text-success" />
          ) : (
            <Circle className="size-4 text-muted-foreground" />
          )}
          <span className={cn(p.status === 'done' && 'text-muted-foreground line-through')}>
            {p.text}
          </span>
        </li>
      ))}
    </ol>
  );
}

function Experience({ experience }: { experience: BpeStepView['experience'] }) {
  return (
    <div className="flex flex-col gap-1 text-sm">
      <div className="text-xs text-muted-foreground">
        {countOf(experience.size, 'skill')} in the store (frozen for the batch)
      </div>
      {experience.recalled.length > 0 ? (
        <ul className="flex flex-col gap-0.5">
          {experience.recalled.map((r) => (
            <li key={r.id} data-testid="bpe-recalled">
              <Badge variant="outline">{r.category}</Badge> {r.title}
            </li>
          ))}
        </ul>
      ) : (
        <div className="text-xs">Nothing recalled yet.</div>
      )}
      {experience.notes.length > 0 ? (
        <div className="text-xs">Queued notes: {experience.notes.join(' · ')}</div>
      ) : null}
    </div>
  );
}

/** A mark for a step-list row that is an EvoHarness meta-action. */
export function BpeRowMark({ meta }: { meta: unknown }) {
  const view = bpeOf(meta);
  if (view?.kind !== 'meta') return null;
  return (
    <span
      className="shrink-0 rounded bg-primary/15 px-1 text-[10px] font-semibold text-primary uppercase"
      data-testid="row-meta"
      title="EvoHarness meta-action (costs a step, not sent to the environment)"
    >
      {view.meta?.verb ?? 'meta'}
    </span>
  );
}
