// The harness library: named harnesses filed under a task, their immutable versions, and where
// people's decisions on them stand. Shared by the harnesses router (the editor) and EnvRigger (a
// person approving a candidate files it here): a harness with its first version, a further version
// (both also inside a decision's transaction), and the reads the studio's pages make. Recording a
// decision is decisions.ts.

import { firstBase, type HarnessSpec, HarnessSpecSchema } from '../../contracts/spec.ts';
import type { Db } from '../db/index.ts';
import { parseColumn } from '../db/json.ts';
import { createHarnessVersion, harnessVersionSelect } from '../db/queries.ts';
import { NotFoundError } from '../errors.ts';
import { type DbLike, versionGates } from './gates.ts';

export async function createHarnessWithVersion(
  db: DbLike,
  input: {
    name: string;
    spec: HarnessSpec;
    versionName: string;
    note?: string;
    description?: string;
    createdBy: string;
    projectId?: string | null;
    /** The task the harness is filed under; by default the spec's first base task. */
    taskId?: string;
  },
) {
  const base = firstBase(input.spec.env);
  const harness = await db.harness.create({
    data: {
      name: input.name,
      bridge: base.bridge,
      taskId: input.taskId ?? base.task,
      description: input.description ?? '',
      createdBy: input.createdBy,
      ...(input.projectId ? { projectId: input.projectId } : {}),
    },
    select: { id: true },
  });
  const version = await createHarnessVersion(db, harness.id, {
    name: input.versionName,
    spec: input.spec,
    note: input.note ?? '',
    createdBy: input.createdBy,
  });
  return { harnessId: harness.id, version: withSpec(version) };
}

export async function saveHarnessVersion(
  db: DbLike,
  input: { harnessId: string; name: string; spec: HarnessSpec; note?: string; createdBy: string },
) {
  const exists = await db.harness.findUnique({
    where: { id: input.harnessId },
    select: { id: true },
  });
  if (!exists) throw new NotFoundError(`harness '${input.harnessId}' not found`);
  const version = await createHarnessVersion(db, input.harnessId, {
    name: input.name,
    spec: input.spec,
    note: input.note ?? '',
    createdBy: input.createdBy,
  });
  await db.harness.update({ where: { id: input.harnessId }, data: { updatedAt: new Date() } });
  return withSpec(version);
}

/** What a harness row shows, in the list and on its page. */
const HARNESS_FIELDS = {
  id: true,
  name: true,
  bridge: true,
  taskId: true,
  status: true,
  description: true,
  createdAt: true,
} as const;

export function listHarnesses(
  db: Db,
  o: { projectId?: string | null; bridge?: string | undefined; task?: string | undefined },
) {
  return db.harness.findMany({
    where: {
      // Team mode: only the active project's harnesses.
      ...(o.projectId ? { projectId: o.projectId } : {}),
      ...(o.bridge ? { bridge: o.bridge } : {}),
      ...(o.task ? { taskId: o.task } : {}),
    },
    orderBy: { updatedAt: 'desc' },
    take: 200,
    select: {
      ...HARNESS_FIELDS,
      updatedAt: true,
      versions: {
        orderBy: { version: 'desc' },
        take: 1,
        select: { id: true, version: true, name: true },
      },
      _count: { select: { versions: true } },
    },
  });
}

/** A harness with every version, the runs made of each, and where the decision on each stands. */
export async function getHarness(db: Db, id: string) {
  const harness = await db.harness.findUnique({
    where: { id },
    select: {
      ...HARNESS_FIELDS,
      versions: {
        orderBy: { version: 'asc' },
        select: {
          ...harnessVersionSelect,
          runs: {
            orderBy: { createdAt: 'desc' },
            select: { id: true, kind: true, status: true, policy: true, createdAt: true },
          },
        },
      },
    },
  });
  if (!harness) throw new NotFoundError(`harness '${id}' not found`);
  const gates = await versionGates(
    db,
    harness.versions.map((v) => v.id),
  );
  return {
    ...harness,
    versions: harness.versions.map((v) => {
      const gate = gates.get(v.id);
      if (!gate) throw new NotFoundError(`harness version '${v.id}' not found`);
      // The gate: the version's state, its decisions (newest first) and what approving would need.
      return { ...withSpec(v), gate };
    }),
  };
}

/** A version row with its spec parsed (the column is JSON). */
function withSpec<V extends { id: string; spec: unknown }>(
  v: V,
): Omit<V, 'spec'> & { spec: HarnessSpec } {
  return { ...v, spec: parseColumn(HarnessSpecSchema, v.spec, `HarnessVersion ${v.id} spec`) };
}

export async function getHarnessVersion(db: Db, id: string) {
  const v = await db.harnessVersion.findUnique({
    where: { id },
    select: {
      ...harnessVersionSelect,
      harness: { select: { id: true, name: true, bridge: true, taskId: true, status: true } },
    },
  });
  if (!v) throw new NotFoundError(`harness version '${id}' not found`);
  return withSpec(v);
}
