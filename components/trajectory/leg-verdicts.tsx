// A chained episode's verdict per leg (Episode.legVerdicts), each leg named by its environment from
// the run's spec, so a chain across bridges shows which bridge's verifier passed.
import type { LegVerdict } from '../../contracts/runs.ts';
import { firstBase, type HarnessNode, type HarnessSpec } from '../../contracts/spec.ts';
import { Badge } from '../ui/badge.tsx';

/** A leg by its first base task, as `bridge:task`. */
function legName(node: HarnessNode): string {
  const base = firstBase(node);
  return `${base.bridge}:${base.task}`;
}

/** The legs of the outermost chain, in the engine's order (first, second, remedial). */
function legNames(node: HarnessNode | undefined): string[] {
  if (!node || node.type === 'base') return [];
  if (node.type !== 'chain') return legNames(node.env);
  return [node.first, node.second, ...(node.remedial ? [node.remedial] : [])].map(legName);
}

export function LegVerdicts({
  verdicts,
  spec,
}: {
  verdicts: LegVerdict[] | null;
  spec?: HarnessSpec | undefined;
}) {
  const legs = verdicts ?? [];
  if (legs.length === 0) return null;
  const names = legNames(spec?.env);
  return (
    <div className="mb-4 flex flex-wrap items-center gap-2 text-sm" data-testid="leg-verdicts">
      <span className="text-muted-foreground">Per leg:</span>
      {legs.map((l) => (
        <span
          key={l.leg}
          className="flex items-center gap-1.5 rounded-lg border px-2 py-1"
          data-testid="leg-verdict"
          data-leg={l.leg}
          data-success={String(l.success)}
        >
          <span className="text-xs text-muted-foreground">leg {l.leg + 1}</span>
          {names[l.leg] ? <span className="font-mono text-xs">{names[l.leg]}</span> : null}
          <Badge variant={l.success ? 'success' : 'danger'}>
            {l.success ? 'success' : 'failure'}
            {l.score !== undefined && l.score !== (l.success ? 1 : 0)
              ? ` · ${l.score.toFixed(2)}`
              : ''}
          </Badge>
        </span>
      ))}
    </div>
  );
}
