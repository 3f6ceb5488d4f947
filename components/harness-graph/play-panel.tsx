'use client';
// Journey 4, "try it": play the composed environment in the browser exactly as a policy sees it —
// the filtered observation, the text tool, the admissible commands — one step at a time.
import { Ban, Play, RotateCcw } from 'lucide-react';
import type { HarnessSpec } from '../../contracts/spec.ts';
import { actionText } from '../trajectory/format.ts';
import { Badge } from '../ui/badge.tsx';
import { Button } from '../ui/button.tsx';
import { Input, Label, Textarea } from '../ui/input.tsx';
import { keyedByOccurrence } from '../ui/keys.ts';
import { ErrorNote } from '../ui/misc.tsx';
import type { LogEntry } from './play.ts';
import { type PlaySession, usePlaySession } from './use-play-session.ts';

export function PlayPanel({ spec }: { spec: HarnessSpec | undefined }) {
  const p = usePlaySession(spec);
  return (
    <div className="flex flex-col gap-3 rounded-xl border bg-card p-4" data-testid="play-panel">
      <div className="flex items-center justify-between">
        <div className="text-sm font-semibold">Try it — play as the policy would</div>
        <div className="flex items-end gap-2">
          <div className="flex flex-col gap-1">
            <Label htmlFor="play-seed">Seed</Label>
            <Input
              id="play-seed"
              type="number"
              className="h-8 w-20"
              value={p.seed}
              onChange={(e) => p.setSeed(Number(e.target.value))}
            />
          </div>
          <Button
            size="sm"
            data-testid="play-start"
            disabled={!spec || p.starting}
            onClick={p.start}
          >
            {p.session ? <RotateCcw /> : <Play />} {p.session ? 'Restart' : 'Start'}
          </Button>
        </div>
      </div>
      {!spec ? (
        <p className="text-xs text-muted-foreground">Make the graph a valid harness first.</p>
      ) : null}
      <ErrorNote error={p.error} />
      {p.session ? <PlaySessionView p={p} session={p.session} /> : null}
    </div>
  );
}

function PlaySessionView({
  p,
  session,
}: {
  p: PlaySession;
  session: NonNullable<PlaySession['session']>;
}) {
  return (
    <>
      <div className="rounded-md bg-muted/60 px-3 py-2 text-sm" data-testid="play-goal">
        <span className="text-xs text-muted-foreground">Goal · </span>
        {session.task.goal}
      </div>
      <ol className="flex max-h-80 flex-col gap-2 overflow-auto" data-testid="play-log">
        {p.log.map((entry, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the log only grows; position is identity
          <PlayEntry key={i} entry={entry} index={i} />
        ))}
      </ol>
      {p.failure ? (
        <div
          role="alert"
          data-testid="play-failure"
          className="rounded-md border border-danger/40 bg-danger-soft px-3 py-2 text-sm text-danger"
        >
          <div className="font-medium">The episode ended with a harness error:</div>
          <div>{p.failure}</div>
          <div className="mt-1 text-xs">Fix the harness, then Restart to play again.</div>
        </div>
      ) : p.last?.done ? (
        <div
          data-testid="play-verdict"
          className={`rounded-md px-3 py-2 text-sm font-medium ${p.last.evaluation?.success ? 'bg-success-soft text-success' : 'bg-danger-soft text-danger'}`}
        >
          Episode over after {p.last.agentSteps} agent steps — the verifier says{' '}
          {p.last.evaluation?.success ? 'success' : 'not solved'} (score{' '}
          {p.last.evaluation?.score ?? 0}).
        </div>
      ) : session.textTool ? (
        <TextCommandForm p={p} toolName={session.textTool.name} />
      ) : (
        <ToolCallForm p={p} tools={session.tools} />
      )}
      {p.admissible.length > 0 && !p.last?.done && !p.failure ? (
        <div className="flex max-h-32 flex-wrap gap-1 overflow-auto" data-testid="play-admissible">
          {keyedByOccurrence(p.admissible).map(({ key, value }) => (
            <button
              type="button"
              key={key}
              disabled={p.stepping}
              onClick={() => p.sendText(value)}
              className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs hover:bg-accent"
            >
              {value}
            </button>
          ))}
        </div>
      ) : null}
    </>
  );
}

function PlayEntry({ entry, index }: { entry: LogEntry; index: number }) {
  return (
    <li className="rounded-md border p-2 text-sm" data-testid="play-entry">
      {entry.action ? (
        <div className="mb-1 flex items-center gap-2 text-xs">
          <span className="text-muted-foreground">#{index - 1}</span>
          <code className="rounded bg-muted px-1.5">{actionText(entry.action)}</code>
          {entry.blocked ? (
            <Badge variant="danger">
              <Ban className="size-3" /> blocked: {entry.blocked}
            </Badge>
          ) : null}
          {entry.invalid && !entry.blocked ? <Badge variant="warning">invalid</Badge> : null}
          {entry.reward ? <Badge variant="success">reward {entry.reward}</Badge> : null}
        </div>
      ) : null}
      <pre className="font-sans whitespace-pre-wrap" data-testid="play-observation">
        {entry.observation.text}
      </pre>
    </li>
  );
}

function TextCommandForm({ p, toolName }: { p: PlaySession; toolName: string }) {
  return (
    <form
      className="flex gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        p.sendText(p.text);
      }}
    >
      <Input
        data-testid="play-input"
        placeholder={`${toolName}: type a command`}
        value={p.text}
        onChange={(e) => p.setText(e.target.value)}
        disabled={p.stepping}
      />
      <Button type="submit" size="sm" disabled={p.stepping} data-testid="play-send">
        Send
      </Button>
    </form>
  );
}

function ToolCallForm({ p, tools }: { p: PlaySession; tools: { name: string }[] }) {
  return (
    <form
      className="flex flex-col gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        p.callTool();
      }}
    >
      <select
        className="h-8 rounded-md border bg-card px-2 text-sm"
        value={p.tool}
        onChange={(e) => p.setTool(e.target.value)}
      >
        {tools.map((t) => (
          <option key={t.name} value={t.name}>
            {t.name}
          </option>
        ))}
      </select>
      <Textarea
        className="h-20 font-mono text-xs"
        value={p.args}
        onChange={(e) => p.setArgs(e.target.value)}
      />
      {p.argsError ? <p className="text-xs text-danger">{p.argsError}</p> : null}
      <Button type="submit" size="sm" disabled={p.stepping}>
        Call tool
      </Button>
    </form>
  );
}
