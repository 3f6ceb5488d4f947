// What solvability lint needs from the store: the recorded successful episodes of a spec's base
// task (the known winning sequences besides the oracle), and a saved harness named on the command
// line (`harness:<id>[@version]`). The linting itself is pure (lint.ts) and runs in a worker.
import '#server-only';
import { firstBase, type HarnessSpec, HarnessSpecSchema } from '../../contracts/spec.ts';
import type { Db } from '../db/index.ts';
import { parseColumn } from '../db/json.ts';
import { InvalidInputError, NotFoundError } from '../errors.ts';
import { episodeActions } from '../rollouts/reads.ts';
import type { KnownSequence } from './lint.ts';

/** Recorded successes replayed at most (shortest first). */
const RECORDED_LIMIT = 5;

/**
 * The shortest successful episodes recorded on exactly the spec's first base task (same bridge,
 * same task id: a pinned start state differs from the unpinned task) by runs of the bare task — a
 * baseline's winning sequences, which a harness built on that task should still let through.
 */
export async function recordedSuccesses(
  db: Db,
  spec: HarnessSpec,
  o: { taskId?: string; projectId?: string | null; limit?: number } = {},
): Promise<KnownSequence[]> {
  const leaf = firstBase(spec.env);
  const taskId = o.taskId ?? leaf.task;
  const rows = await db.episode.findMany({
    where: {
      taskId,
      outcome: 'success',
      steps: { gt: 0 },
      run: {
        bridge: leaf.bridge,
        ...(o.projectId ? { projectId: o.projectId } : {}),
      },
    },
    orderBy: [{ steps: 'asc' }, { finishedAt: 'desc' }],
    take: 40,
    select: { id: true, seed: true, run: { select: { id: true, spec: true } } },
  });
  const out: KnownSequence[] = [];
  for (const row of rows) {
    const runSpec = HarnessSpecSchema.safeParse(row.run.spec);
    // Only the bare task's episodes: a harnessed run's actions were played in another world.
    if (!runSpec.success || runSpec.data.env.type !== 'base') continue;
    out.push({ episodeId: row.id, seed: row.seed, actions: await episodeActions(db, row.id) });
    if (out.length >= (o.limit ?? RECORDED_LIMIT)) break;
  }
  return out;
}

/** `harness:<id>` (the newest version) or `harness:<id>@<n>` (version n) from the library. */
export async function savedHarnessSpec(
  db: Db,
  ref: string,
): Promise<{ spec: HarnessSpec; harnessId: string; version: number }> {
  const m = /^harness:([^@\s]+)(?:@(\d+))?$/.exec(ref.trim());
  if (!m) {
    throw new InvalidInputError(
      `'${ref}' is not a saved harness reference: write harness:<id> or harness:<id>@<version>`,
    );
  }
  const [, id, n] = m as unknown as [string, string, string | undefined];
  const versions = await db.harnessVersion.findMany({
    where: { harnessId: id },
    orderBy: { version: 'desc' },
    select: { id: true, version: true, spec: true },
  });
  if (versions.length === 0) throw new NotFoundError(`harness '${id}' not found`);
  const v = n === undefined ? versions[0] : versions.find((x) => x.version === Number(n));
  if (!v) {
    throw new NotFoundError(
      `harness '${id}' has no version ${n} (versions: ${versions
        .map((x) => x.version)
        .reverse()
        .join(', ')})`,
    );
  }
  return {
    spec: parseColumn(HarnessSpecSchema, v.spec, `HarnessVersion ${v.id} spec`),
    harnessId: id,
    version: v.version,
  };
}
