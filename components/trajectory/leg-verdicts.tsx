// A chained episode's verdict per leg (Episode.legVerdicts), each leg named by its environment from
// the run's spec, so a chain across bridges shows which bridge's verifier passed.
import type { Json } from '../../bridges/core/types.ts';
import type { HarnessNode, HarnessSpec } from '../../server/harness/spec.ts';
import { Badge } from '../ui/badge.tsx';

interface LegVerdict {
  leg: number;
  success: boolean;
  score?: number;
}

function isVerdict(v: Json): v is Json & LegVerdict {
  return (
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    typeof v.leg === 'number' &&
    typeof v.success === 'boolean'
  );
}

function firstBase(node: HarnessNode): string {
  switch (node.type) {
    case 'base':
      return `${node.bridge}:${node.task}`;
    case 'stage':
    case 'contract':
      return firstBase(node.env);
    case 'chain':
      return firstBase(node.first);
  }
}

/** The legs of the outermost chain, in the engine's order (first, second, remedial). */
function legNames(node: HarnessNode | undefined): string[] {
  if (!node || node.type === 'base') return [];
  if (node.type !== 'chain') return legNames(node.env);
  return [node.first, node.second, ...(node.remedial ? [node.remedial] : [])].map(firstBase);
}

export function LegVerdicts({ verdicts, spec }: { verdicts: Json; spec?: unknown }) {
  const legs = Array.isArray(verdicts) ? verdicts.filter(isVerdict) : [];
  if (legs.length === 0) return null;
  const names = legNames((spec as HarnessSpec | undefined)?.env);
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
