'use client';
// A Stage's set-up actions: the ordered list, a command typed in, and the admissible commands
// offered by playing the wrapped environment (click one to play it and keep it).
import { Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { DEFAULT_STAGE_INTRO, STAGE_INTROS, type StageIntro } from '../../contracts/spec.ts';
import { Button } from '../ui/button.tsx';
import { Input, Label, Select } from '../ui/input.tsx';
import { keyedByOccurrence } from '../ui/keys.ts';
import { ErrorNote } from '../ui/misc.tsx';
import type { Graph, GraphNode, UpdateFn } from './model.ts';
import { actionLabel } from './stage.ts';
import { useStageOffers } from './use-stage-offers.ts';

export function StagePanel({
  node,
  graph,
  onUpdate,
}: {
  node: Extract<GraphNode, { kind: 'stage' }>;
  graph: Graph;
  onUpdate: UpdateFn;
}) {
  const s = useStageOffers(node, graph, onUpdate);
  return (
    <div className="flex flex-col gap-3">
      <p className="text-xs text-muted-foreground">
        Set-up actions replayed after every reset. They are not agent steps and leave no trace in
        the environment’s counters (it resets them after the replay); one the environment rejects
        fails the run before any episode, naming the action.
      </p>
      <ol className="flex flex-col gap-1" data-testid="stage-actions">
        {s.actions.map((a, i) => (
          <li
            // biome-ignore lint/suspicious/noArrayIndexKey: set-up actions are positional (order is the Stage's meaning)
            key={`${i}:${actionLabel(a)}`}
            className="flex items-center gap-2 rounded-md border px-2 py-1"
          >
            <span className="w-5 text-xs text-muted-foreground">{i + 1}</span>
            <code className="flex-1 truncate text-xs">{actionLabel(a)}</code>
            <Button
              variant="ghost"
              size="icon"
              className="size-7"
              aria-label={`Remove action ${i + 1}`}
              onClick={() => s.remove(i)}
            >
              <Trash2 />
            </Button>
          </li>
        ))}
        {s.actions.length === 0 ? (
          <li className="text-xs text-muted-foreground">No set-up actions yet.</li>
        ) : null}
      </ol>
      <CommandForm onAdd={s.add} />
      <IntroField
        value={node.data.intro}
        onChange={(intro) => {
          const { intro: _drop, ...rest } = node.data;
          onUpdate(intro === DEFAULT_STAGE_INTRO ? rest : { ...rest, intro });
        }}
      />
      <Button
        variant="secondary"
        size="sm"
        data-testid="stage-offer"
        disabled={!s.canOffer || s.offers.isPending}
        onClick={s.offer}
      >
        {s.offers.isPending ? 'Playing…' : 'Offer admissible commands (play the wrapped env)'}
      </Button>
      {!s.canOffer ? (
        <p className="text-xs text-muted-foreground">Connect an environment to this Stage first.</p>
      ) : null}
      <ErrorNote error={s.offers.error} />
      {s.offers.data ? <Offers replay={s.offers.data} onPick={s.pick} /> : null}
    </div>
  );
}

const INTRO_TEXT: Record<StageIntro, string> = {
  reset:
    'reset (default, the paper’s): the agent first sees the reset text, as if nothing had been set up.',
  state:
    'state: the environment describes the start state after the set-up (household: ALFWorld’s intro with where the agent stands and what it holds; other bridges: their current observation).',
};

/** The Stage's first observation: an explicit choice, its default shown. */
function IntroField({
  value,
  onChange,
}: {
  value: StageIntro | undefined;
  onChange: (intro: StageIntro) => void;
}) {
  const intro = value ?? DEFAULT_STAGE_INTRO;
  return (
    <div className="flex flex-col gap-1">
      <Label htmlFor="stage-intro">First observation</Label>
      <Select
        id="stage-intro"
        data-testid="stage-intro"
        value={intro}
        onChange={(e) => onChange(e.target.value as StageIntro)}
      >
        {STAGE_INTROS.map((i) => (
          <option key={i} value={i}>
            {i === DEFAULT_STAGE_INTRO ? `${i} (default)` : i}
          </option>
        ))}
      </Select>
      <p className="text-xs text-muted-foreground">{INTRO_TEXT[intro]}</p>
    </div>
  );
}

function CommandForm({ onAdd }: { onAdd: (command: string) => void }) {
  const [text, setText] = useState('');
  return (
    <form
      className="flex gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (text.trim()) onAdd(text.trim());
        setText('');
      }}
    >
      <Input
        data-testid="stage-command"
        placeholder="e.g. go to drawer 1"
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      <Button type="submit" variant="outline" size="icon" aria-label="Add action">
        <Plus />
      </Button>
    </form>
  );
}

function Offers({
  replay,
  onPick,
}: {
  replay: { observation: { text: string }; failedAt: number | null; admissible: string[] };
  onPick: (command: string) => void;
}) {
  return (
    <div className="flex flex-col gap-2">
      <pre
        className="max-h-28 overflow-auto rounded-md bg-muted p-2 text-xs whitespace-pre-wrap"
        data-testid="stage-observation"
      >
        {replay.observation.text}
      </pre>
      {replay.failedAt !== null ? (
        <p className="text-xs text-danger">
          Action {replay.failedAt + 1} was rejected: {replay.observation.text}
        </p>
      ) : null}
      <div className="flex max-h-48 flex-wrap gap-1 overflow-auto" data-testid="stage-offers">
        {keyedByOccurrence(replay.admissible).map(({ key, value }) => (
          <button
            type="button"
            key={key}
            onClick={() => onPick(value)}
            className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs hover:bg-accent"
          >
            {value}
          </button>
        ))}
      </div>
      <p className="text-[11px] text-muted-foreground">
        Click a command to play it and keep it (record by playing).
      </p>
    </div>
  );
}
