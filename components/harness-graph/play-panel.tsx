'use client';
// Journey 4, "try it": play the composed environment in the browser exactly as a policy sees it —
// the filtered observation, the text tool, the admissible commands — one step at a time.
import { useMutation } from '@tanstack/react-query';
import { Ban, Play, RotateCcw } from 'lucide-react';
import { useState } from 'react';
import type { Action, Observation } from '../../bridges/core/types.ts';
import type { HarnessSpec } from '../../server/harness/spec.ts';
import { actionText } from '../trajectory/format.ts';
import { useTRPC } from '../trpc/client.tsx';
import type { RouterOutputs } from '../trpc/types.ts';
import { Badge } from '../ui/badge.tsx';
import { Button } from '../ui/button.tsx';
import { Input, Label, Textarea } from '../ui/input.tsx';
import { ErrorNote } from '../ui/misc.tsx';

type Started = RouterOutputs['play']['start'];
type Stepped = RouterOutputs['play']['step'];

interface LogEntry {
  action?: Action;
  observation: Observation;
  reward?: number;
  blocked?: string | undefined;
  invalid?: boolean;
}

export function PlayPanel({ spec }: { spec: HarnessSpec | undefined }) {
  const trpc = useTRPC();
  const [seed, setSeed] = useState(0);
  const [session, setSession] = useState<Started | null>(null);
  const [log, setLog] = useState<LogEntry[]>([]);
  const [last, setLast] = useState<Stepped | null>(null);
  const [text, setText] = useState('');
  const [tool, setTool] = useState('');
  const [args, setArgs] = useState('{}');
  const [argsError, setArgsError] = useState<string | null>(null);

  const start = useMutation(
    trpc.play.start.mutationOptions({
      onSuccess: (s) => {
        setSession(s);
        setLast(null);
        setLog([{ observation: s.observation }]);
        setTool(s.tools[0]?.name ?? '');
      },
    }),
  );
  const step = useMutation(
    trpc.play.step.mutationOptions({
      onSuccess: (r) => {
        setLast(r);
        setLog((l) => [
          ...l,
          {
            action: r.record.action,
            observation: r.record.observation,
            reward: r.record.reward,
            blocked: r.record.blocked,
            invalid: r.record.invalid,
          },
        ]);
      },
    }),
  );

  const admissible =
    (last ? last.record.info.admissibleCommands : session?.info.admissibleCommands) ?? [];
  const send = (action: Action) =>
    session && !last?.done && step.mutate({ sessionId: session.sessionId, action });
  const sendText = (command: string) => {
    const tt = session?.textTool;
    if (!tt || !command.trim()) return;
    send({ name: tt.name, args: { [tt.arg]: command.trim() } });
    setText('');
  };

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
              value={seed}
              onChange={(e) => setSeed(Number(e.target.value))}
            />
          </div>
          <Button
            size="sm"
            data-testid="play-start"
            disabled={!spec || start.isPending}
            onClick={() => spec && start.mutate({ spec, seed })}
          >
            {session ? <RotateCcw /> : <Play />} {session ? 'Restart' : 'Start'}
          </Button>
        </div>
      </div>
      {!spec ? (
        <p className="text-xs text-muted-foreground">Make the graph a valid harness first.</p>
      ) : null}
      <ErrorNote error={start.error ?? step.error} />
      {session ? (
        <>
          <div className="rounded-md bg-muted/60 px-3 py-2 text-sm" data-testid="play-goal">
            <span className="text-xs text-muted-foreground">Goal · </span>
            {session.task.goal}
          </div>
          <ol className="flex max-h-80 flex-col gap-2 overflow-auto" data-testid="play-log">
            {log.map((entry, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the log only grows; position is identity
              <li key={i} className="rounded-md border p-2 text-sm" data-testid="play-entry">
                {entry.action ? (
                  <div className="mb-1 flex items-center gap-2 text-xs">
                    <span className="text-muted-foreground">#{i - 1}</span>
                    <code className="rounded bg-muted px-1.5">{actionText(entry.action)}</code>
                    {entry.blocked ? (
                      <Badge variant="danger">
                        <Ban className="size-3" /> blocked: {entry.blocked}
                      </Badge>
                    ) : null}
                    {entry.invalid && !entry.blocked ? (
                      <Badge variant="warning">invalid</Badge>
                    ) : null}
                    {entry.reward ? <Badge variant="success">reward {entry.reward}</Badge> : null}
                  </div>
                ) : null}
                <pre className="font-sans whitespace-pre-wrap" data-testid="play-observation">
                  {entry.observation.text}
                </pre>
              </li>
            ))}
          </ol>
          {last?.done ? (
            <div
              data-testid="play-verdict"
              className={`rounded-md px-3 py-2 text-sm font-medium ${last.evaluation?.success ? 'bg-success-soft text-success' : 'bg-danger-soft text-danger'}`}
            >
              Episode over after {last.agentSteps} agent steps — the verifier says{' '}
              {last.evaluation?.success ? 'success' : 'not solved'} (score{' '}
              {last.evaluation?.score ?? 0}).
            </div>
          ) : session.textTool ? (
            <form
              className="flex gap-2"
              onSubmit={(e) => {
                e.preventDefault();
                sendText(text);
              }}
            >
              <Input
                data-testid="play-input"
                placeholder={`${session.textTool.name}: type a command`}
                value={text}
                onChange={(e) => setText(e.target.value)}
                disabled={step.isPending}
              />
              <Button type="submit" size="sm" disabled={step.isPending} data-testid="play-send">
                Send
              </Button>
            </form>
          ) : (
            <form
              className="flex flex-col gap-2"
              onSubmit={(e) => {
                e.preventDefault();
                try {
                  const parsed = JSON.parse(args) as Action['args'];
                  setArgsError(null);
                  send({ name: tool, args: parsed });
                } catch (err) {
                  setArgsError((err as Error).message);
                }
              }}
            >
              <select
                className="h-8 rounded-md border bg-card px-2 text-sm"
                value={tool}
                onChange={(e) => setTool(e.target.value)}
              >
                {session.tools.map((t) => (
                  <option key={t.name} value={t.name}>
                    {t.name}
                  </option>
                ))}
              </select>
              <Textarea
                className="h-20 font-mono text-xs"
                value={args}
                onChange={(e) => setArgs(e.target.value)}
              />
              {argsError ? <p className="text-xs text-danger">{argsError}</p> : null}
              <Button type="submit" size="sm" disabled={step.isPending}>
                Call tool
              </Button>
            </form>
          )}
          {admissible.length > 0 && !last?.done ? (
            <div
              className="flex max-h-32 flex-wrap gap-1 overflow-auto"
              data-testid="play-admissible"
            >
              {admissible.map((c) => (
                <button
                  type="button"
                  key={c}
                  disabled={step.isPending}
                  onClick={() => sendText(c)}
                  className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs hover:bg-accent"
                >
                  {c}
                </button>
              ))}
            </div>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
