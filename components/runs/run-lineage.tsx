// Where a run comes from, as links: the harness version it ran (for a validation run: the version it
// validated), the EnvRigger candidate it validated and its rig, the rigs it is the baseline of. The
// other pages link back (a version's runs, a rig's baseline, a candidate's validation run).
import Link from 'next/link';
import type { RouterOutputs } from '../trpc/types.ts';

type Lineage = RouterOutputs['runs']['byId']['lineage'];

export function RunLineage({ lineage: l, kind }: { lineage: Lineage; kind: string }) {
  const v = l.harnessVersion;
  const c = l.candidate;
  if (!v && !c && l.baselineOf.length === 0) return null;
  const link = 'text-primary hover:underline';
  return (
    <div
      className="mb-4 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm"
      data-testid="run-lineage"
    >
      {v ? (
        <span>
          {kind === 'validation' ? 'Validates' : 'Harness'}{' '}
          <Link
            href={`/harnesses/${v.harnessId}?version=${v.version}`}
            className={`font-medium ${link}`}
            data-testid="lineage-version"
          >
            {v.harnessName} v{v.version}
          </Link>
          {v.name && v.name !== `v${v.version}` ? (
            <span className="text-muted-foreground"> “{v.name}”</span>
          ) : null}
        </span>
      ) : null}
      {c ? (
        <span>
          Validates{' '}
          <Link
            href={`/rigs/${c.rigId}/candidates/${c.id}`}
            className={link}
            data-testid="lineage-candidate"
          >
            candidate #{c.iteration + 1}
            {c.round > 0 ? ` (round ${c.round + 1})` : ''}
          </Link>{' '}
          of{' '}
          <Link href={`/rigs/${c.rigId}`} className={link} data-testid="lineage-rig">
            rig {c.rigId.slice(-8)}
          </Link>
        </span>
      ) : null}
      {l.baselineOf.length > 0 ? (
        <span>
          Baseline of{' '}
          {l.baselineOf.map((b, i) => (
            <span key={b.rigId}>
              {i > 0 ? ', ' : ''}
              <Link href={`/rigs/${b.rigId}`} className={link} data-testid="lineage-rig">
                rig {b.rigId.slice(-8)}
              </Link>
            </span>
          ))}
        </span>
      ) : null}
    </div>
  );
}
