import { useMemo } from 'react';
import type { HarnessSpec } from '../../contracts/spec.ts';
import { candidateChanges } from './model.ts';

/** A candidate's changes from the previous one: code lines added and removed, fields before/after. */
export function SpecDiffView({
  before,
  after,
}: {
  before: HarnessSpec | undefined;
  after: HarnessSpec;
}) {
  const changes = useMemo(() => candidateChanges(before, after), [before, after]);
  if (!before) return <p className="text-xs text-muted-foreground">First candidate.</p>;
  if (changes.length === 0)
    return <p className="text-xs text-muted-foreground">Same as the previous candidate.</p>;
  return (
    <div className="space-y-2" data-testid="candidate-diff">
      {changes.map((c) => (
        <div key={c.id} className="text-xs">
          <span className="font-mono text-muted-foreground">{c.path}</span> {c.kind}
          {c.field ? ` ${c.field}` : ''}
          {c.lines ? (
            <pre className="mt-1 max-h-48 overflow-auto rounded bg-muted p-2 font-mono">
              {c.changed.map((l) => (
                <div key={l.id} className={l.op === 'add' ? 'text-success' : 'text-danger'}>
                  {l.op === 'add' ? '+ ' : '- '}
                  {l.text}
                </div>
              ))}
            </pre>
          ) : c.before !== undefined || c.after !== undefined ? (
            <div className="mt-1 font-mono">
              {c.before !== undefined ? (
                <div className="text-danger">- {c.before.slice(0, 300)}</div>
              ) : null}
              {c.after !== undefined ? (
                <div className="text-success">+ {c.after.slice(0, 300)}</div>
              ) : null}
            </div>
          ) : null}
        </div>
      ))}
    </div>
  );
}
