'use client';
// Beside the validation banner: can the harness on screen still be won? Proved (with the witness —
// the oracle's plan or a recorded win — that the studio plays back step by step), refuted (each
// finding on its node and step), or unknown. `data-solvable` carries the verdict for tests.
import { Pause, Play, RotateCcw, StepForward } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { LintResult, Witness } from '../../contracts/lint.ts';
import { actionLine } from '../../contracts/steps.ts';
import { Button } from '../ui/button.tsx';
import { cn } from '../ui/cn.ts';
import { type EditorLint, findingWhere, RULE_TITLES, witnessSource } from './lint.ts';

const TONE = {
  ok: 'border-success/40 bg-success-soft text-success',
  warn: 'border-warning/40 bg-warning-soft text-warning',
  bad: 'border-danger/40 bg-danger-soft text-danger',
  muted: 'border-border bg-muted/50 text-muted-foreground',
} as const;

function Box({
  tone,
  solvable,
  children,
}: {
  tone: keyof typeof TONE;
  solvable: string;
  children: React.ReactNode;
}) {
  return (
    <div
      className={cn('rounded-lg border px-3 py-2 text-sm', TONE[tone])}
      data-testid="lint-status"
      data-solvable={solvable}
      role="status"
    >
      {children}
    </div>
  );
}

function Findings({ r }: { r: LintResult }) {
  const shown = r.findings.filter((f) => f.rule !== 'no-witness' || r.solvable === 'unknown');
  if (shown.length === 0) return null;
  return (
    <ul className="mt-1 list-disc pl-5">
      {shown.map((f) => (
        <li
          key={`${f.rule}:${f.path}:${f.witness ?? ''}`}
          data-testid="lint-finding"
          data-rule={f.rule}
          data-path={f.path}
        >
          <code className="text-xs">{f.path}</code> {findingWhere(f)} — {RULE_TITLES[f.rule]}:{' '}
          {f.message}
        </li>
      ))}
    </ul>
  );
}

export function LintStatus({ lint }: { lint: EditorLint }) {
  const [playing, setPlaying] = useState(false);
  switch (lint.state) {
    case 'idle':
      return null;
    case 'checking':
      return (
        <Box tone="muted" solvable="checking">
          Checking that the harness can still be won: replaying the oracle's plan and recorded wins…
        </Box>
      );
    case 'error':
      return (
        <Box tone="warn" solvable="error">
          Could not lint the harness ({lint.message}).
        </Box>
      );
    case 'done': {
      const r = lint.result;
      if (r.solvable === 'proved') {
        return (
          <Box tone="ok" solvable="proved">
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-medium">Solvable:</span>
              <span>proved by {witnessSource(r)}, replayed through every layer.</span>
              <Button
                size="sm"
                variant="outline"
                className="ml-auto h-7"
                data-testid="play-witness"
                onClick={() => setPlaying((p) => !p)}
              >
                <Play /> {playing ? 'Hide the witness' : 'Play the witness'}
              </Button>
            </div>
            <Findings r={r} />
            {playing && r.witness ? (
              <WitnessPlayer key={JSON.stringify(r.witness.actions)} witness={r.witness} />
            ) : null}
          </Box>
        );
      }
      if (r.solvable === 'refuted') {
        return (
          <Box tone="bad" solvable="refuted">
            <div className="font-medium">
              Unsolvable: no known winning sequence survives this harness (rollouts on it would all
              fail):
            </div>
            <Findings r={r} />
          </Box>
        );
      }
      return (
        <Box tone="warn" solvable="unknown">
          <div className="font-medium">Solvability unknown:</div>
          <Findings r={r} />
        </Box>
      );
    }
  }
}

const STEP_MS = 900;

/** The witness as a playable trajectory: the reset observation, then one step at a time. */
export function WitnessPlayer({ witness: w }: { witness: Witness }) {
  const [shown, setShown] = useState(0);
  const [running, setRunning] = useState(true);
  const total = w.trajectory.length;
  const steps = w.trajectory.map((s, i) => ({ ...s, n: i + 1 }));
  const done = shown >= total;
  // A timer is a real side effect: the next step appears after a pause while playing.
  useEffect(() => {
    if (!running || done) return;
    const t = setTimeout(() => setShown(shown + 1), STEP_MS);
    return () => clearTimeout(t);
  }, [running, done, shown]);
  return (
    <div
      className="mt-2 rounded-md border bg-card p-2 text-foreground"
      data-testid="witness-player"
      data-shown={shown}
      data-done={done ? 'true' : 'false'}
    >
      <div className="mb-1 flex items-center gap-1">
        <Button
          size="sm"
          variant="ghost"
          className="h-7"
          aria-label={running && !done ? 'Pause' : 'Play'}
          data-testid="witness-play"
          onClick={() => {
            if (done) setShown(0);
            setRunning(done ? true : !running);
          }}
        >
          {done ? <RotateCcw /> : running ? <Pause /> : <Play />}
        </Button>
        <Button
          size="sm"
          variant="ghost"
          className="h-7"
          aria-label="Next step"
          data-testid="witness-next"
          disabled={done}
          onClick={() => {
            setRunning(false);
            setShown((n) => Math.min(total, n + 1));
          }}
        >
          <StepForward />
        </Button>
        <span className="text-xs text-muted-foreground tabular-nums">
          step {shown} of {total}
          {done ? ' — won' : ''}
        </span>
      </div>
      <ol className="max-h-72 space-y-1.5 overflow-auto text-xs">
        <li className="whitespace-pre-wrap text-muted-foreground">{w.initial}</li>
        {steps.slice(0, shown).map((s) => (
          <li key={s.n} data-testid="witness-step">
            <div className="font-mono font-medium">
              {s.n}. &gt; {actionLine(s.action)}
              {s.reward ? <span className="ml-2 text-success">reward {s.reward}</span> : null}
            </div>
            <div className="whitespace-pre-wrap text-muted-foreground">
              {s.blocked !== undefined ? `[blocked] ${s.blocked}` : s.observation}
            </div>
          </li>
        ))}
      </ol>
    </div>
  );
}
