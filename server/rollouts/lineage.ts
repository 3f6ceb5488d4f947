// Where a run comes from and what it is for: the harness version it ran, the rigs it is the
// baseline of, the candidate it validated, and the tasks of its spec (every leg of a chain). Read
// with the run (one select), so the run page and the runs list link both ways without more calls.
import { firstBase, type HarnessSpec, nodePaths } from '../../contracts/spec.ts';
import type { Prisma } from '../db/generated/client.ts';

export const runLineageSelect = {
  harnessVersion: {
    select: { id: true, version: true, name: true, harness: { select: { id: true, name: true } } },
  },
  baselineOfRigs: { select: { id: true }, orderBy: { createdAt: 'asc' } },
  validatedCandidates: {
    select: { id: true, rigId: true, round: true, iteration: true },
    orderBy: { createdAt: 'asc' },
  },
} as const satisfies Prisma.RunSelect;

type LineageRow = Prisma.RunGetPayload<{ select: typeof runLineageSelect }>;

export interface RunLineage {
  /** The saved harness version the run played, with its harness. */
  harnessVersion: {
    id: string;
    version: number;
    name: string;
    harnessId: string;
    harnessName: string;
  } | null;
  /** Rigs whose Observe step this run is (a cached baseline can serve several). */
  baselineOf: { rigId: string }[];
  /** The EnvRigger candidate this run validated. */
  candidate: { id: string; rigId: string; round: number; iteration: number } | null;
  /** Every base leaf of the spec in order: a chain's legs (and remedial) each name their task. */
  tasks: SpecTask[];
  /** A name a person recognises, from the lineage; null for an ad-hoc run. */
  name: string | null;
}

export interface SpecTask {
  bridge: string;
  task: string;
  /** The leaf's place in the spec (e.g. env.second), unique even when a chain repeats a task. */
  path: string;
}

export function specTasks(spec: HarnessSpec): SpecTask[] {
  const tasks: SpecTask[] = [];
  for (const { node, path } of nodePaths(spec.env)) {
    if (node.type === 'base') tasks.push({ bridge: node.bridge, task: node.task, path });
  }
  return tasks.length > 0 ? tasks : [{ ...firstBase(spec.env), path: 'env' }];
}

export function lineageOf(row: LineageRow, spec: HarnessSpec): RunLineage {
  const v = row.harnessVersion;
  const c = row.validatedCandidates[0];
  const harnessVersion = v
    ? {
        id: v.id,
        version: v.version,
        name: v.name,
        harnessId: v.harness.id,
        harnessName: v.harness.name,
      }
    : null;
  const candidate = c ? { id: c.id, rigId: c.rigId, round: c.round, iteration: c.iteration } : null;
  const baselineOf = row.baselineOfRigs.map((r) => ({ rigId: r.id }));
  return {
    harnessVersion,
    baselineOf,
    candidate,
    tasks: specTasks(spec),
    name: runName({ harnessVersion, candidate, baselineOf }),
  };
}

function runName(l: Pick<RunLineage, 'harnessVersion' | 'candidate' | 'baselineOf'>) {
  if (l.harnessVersion) return `${l.harnessVersion.harnessName} v${l.harnessVersion.version}`;
  if (l.candidate) {
    const round = l.candidate.round > 0 ? ` (round ${l.candidate.round + 1})` : '';
    return `Rig candidate #${l.candidate.iteration + 1}${round}`;
  }
  if (l.baselineOf.length > 0) return 'Rig baseline';
  return null;
}
