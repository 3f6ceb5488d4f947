// Whether the graph is a harness that runs, as the server's validation found it: not a spec yet
// (and why), being checked, runs (what was checked), or cannot run (every problem, on its node).
// `data-ok` is true only when the spec on screen was validated and runs.
import type { SpecProblem } from '../../contracts/validation.ts';
import { cn } from '../ui/cn.ts';
import type { ToSpecResult } from './model.ts';
import type { SpecValidationState } from './use-spec-validation.ts';
import { problemText } from './validation.ts';

const TONE = {
  ok: 'border-success/40 bg-success-soft text-success',
  warn: 'border-warning/40 bg-warning-soft text-warning',
  bad: 'border-danger/40 bg-danger-soft text-danger',
  muted: 'border-border bg-muted/50 text-muted-foreground',
} as const;

function Banner({
  tone,
  state,
  children,
}: {
  tone: keyof typeof TONE;
  state: string;
  children: React.ReactNode;
}) {
  return (
    <div
      className={cn('rounded-lg border px-3 py-2 text-sm', TONE[tone])}
      data-testid="spec-status"
      data-ok={state === 'valid' ? 'true' : 'false'}
      data-state={state}
      role="status"
    >
      {children}
    </div>
  );
}

function ProblemItem({ p }: { p: SpecProblem }) {
  return (
    <li data-testid="spec-problem" data-path={p.path}>
      <code className="text-xs">{p.path}</code> {problemText(p)}
    </li>
  );
}

export function SpecStatus({
  spec,
  validation: { validation: v },
}: {
  spec: ToSpecResult;
  validation: SpecValidationState;
}) {
  if (!spec.ok) {
    return (
      <Banner tone="warn" state="draft">
        <div className="font-medium">Not a harness yet:</div>
        <ul className="list-disc pl-5">
          {spec.issues.slice(0, 6).map((i) => (
            <li key={`${i.nodeId ?? ''}:${i.message}`}>{i.message}</li>
          ))}
        </ul>
      </Banner>
    );
  }
  switch (v.state) {
    case 'draft':
    case 'checking':
      return (
        <Banner tone="muted" state="checking">
          Checking that the harness runs: tasks, hook code, set-up and a dry episode…
        </Banner>
      );
    case 'error':
      return (
        <Banner tone="bad" state="error">
          Could not check the harness ({v.message}). It cannot be saved until it is checked.
        </Banner>
      );
    case 'valid': {
      const d = v.result.dryRun;
      return (
        <Banner tone="ok" state="valid">
          The harness runs: every task exists, the hook code compiles, the set-up replays
          {d
            ? `, and a dry episode of ${d.steps} idle step${d.steps === 1 ? '' : 's'} (seed ${d.seed}) played without a harness error`
            : ''}
          .
        </Banner>
      );
    }
    case 'invalid':
      return (
        <Banner tone="bad" state="invalid">
          <div className="font-medium">
            The harness cannot run ({v.result.problems.length} problem
            {v.result.problems.length === 1 ? '' : 's'}); it cannot be saved until fixed:
          </div>
          <ul className="list-disc pl-5">
            {v.result.problems.slice(0, 8).map((p) => (
              <ProblemItem key={`${p.path}:${p.message}`} p={p} />
            ))}
          </ul>
        </Banner>
      );
  }
}
