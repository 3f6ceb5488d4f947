// A chained episode's verdict per leg (Episode.legVerdicts), each leg named by its environment from
// the run's spec, so a chain across bridges shows which bridge's verifier passed — and, for a
// branch chain, the verdict rule and which legs' verdicts make the composite's.
import type { LegVerdict } from '../../contracts/runs.ts';
import {
  type ChainNode,
  DEFAULT_BRANCH_VERDICT,
  firstBase,
  type HarnessNode,
  type HarnessSpec,
} from '../../contracts/spec.ts';
import { Badge } from '../ui/badge.tsx';

/** A leg by its first base task, as `bridge:task`. */
function legName(node: HarnessNode): string {
  const base = firstBase(node);
  return `${base.bridge}:${base.task}`;
}

/** The outermost chain of a stack. */
function outerChain(node: HarnessNode | undefined): ChainNode | undefined {
  if (!node || node.type === 'base') return undefined;
  if (node.type !== 'chain') return outerChain(node.env);
  return node;
}

/** The legs of the outermost chain, in the engine's order (first, second, remedial). */
function legNames(chain: ChainNode | undefined): string[] {
  if (!chain) return [];
  return [chain.first, chain.second, ...(chain.remedial ? [chain.remedial] : [])].map(legName);
}

/** A branch chain's verdict rule in words, or undefined for other modes. */
export function verdictRuleText(chain: ChainNode | undefined): string | undefined {
  if (chain?.mode !== 'branch') return undefined;
  return (chain.verdict ?? DEFAULT_BRANCH_VERDICT) === 'remedial-decides'
    ? 'rule: remedial decides (after a failed first leg, the remedial leg’s verdict is the episode’s)'
    : 'rule: all legs (every leg in play must pass)';
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
  const chain = outerChain(spec?.env);
  const names = legNames(chain);
  const rule = verdictRuleText(chain);
  return (
    <div className="mb-4 flex flex-wrap items-center gap-2 text-sm" data-testid="leg-verdicts">
      <span className="text-muted-foreground">Per leg:</span>
      {legs.map((l) => (
        <span
          key={l.leg}
          className={`flex items-center gap-1.5 rounded-lg border px-2 py-1 ${l.counts === false ? 'border-dashed opacity-70' : ''}`}
          data-testid="leg-verdict"
          data-leg={l.leg}
          data-success={String(l.success)}
          data-counts={String(l.counts !== false)}
          title={
            l.counts === false
              ? 'Recorded, not counted: the verdict rule leaves this leg out of the episode’s verdict'
              : undefined
          }
        >
          <span className="text-xs text-muted-foreground">leg {l.leg + 1}</span>
          {names[l.leg] ? <span className="font-mono text-xs">{names[l.leg]}</span> : null}
          <Badge variant={l.success ? 'success' : 'danger'}>
            {l.success ? 'success' : 'failure'}
            {l.score !== undefined && l.score !== (l.success ? 1 : 0)
              ? ` · ${l.score.toFixed(2)}`
              : ''}
          </Badge>
          {l.counts === false ? (
            <span className="text-xs text-muted-foreground">not counted</span>
          ) : null}
        </span>
      ))}
      {rule ? (
        <span className="text-xs text-muted-foreground" data-testid="leg-verdict-rule">
          {rule}
        </span>
      ) : null}
    </div>
  );
}
