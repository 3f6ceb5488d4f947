// Persistence of skill banks (SkillBank / Skill / SkillEdit) and comparisons (Comparison).
import type { Json } from '../../bridges/core/types.ts';
import { JsonSchemaZ } from '../../contracts/json.ts';
import {
  type ComparisonResults,
  ComparisonResultsSchema,
  type SkillBankSource,
} from '../../contracts/skills.ts';
import type { Prisma } from '../db/generated/client.ts';
import type { Db } from '../db/index.ts';
import { parseColumn, parseOptionalColumn } from '../db/json.ts';
import { NotFoundError } from '../errors.ts';
import { type EditRecord, SkillBankState } from './bank.ts';
import type { CompareResult } from './comparison.ts';
import type { Skill } from './types.ts';

const SKILL_SELECT = {
  id: true,
  category: true,
  taskType: true,
  title: true,
  description: true,
  content: true,
  sourceEpisodeIds: true,
  uses: true,
} as const;

const asJson = (v: unknown): object => JSON.parse(JSON.stringify(v ?? null)) as object;

/** A skill as a row of a bank (the database gives it a new id). */
function skillRow(bankId: string, s: Skill) {
  return {
    bankId,
    category: s.category,
    taskType: s.taskType,
    title: s.title,
    description: s.description,
    content: s.content,
    sourceEpisodeIds: s.sourceEpisodeIds,
    uses: s.uses,
  };
}

/** An applied edit as a row of the bank's history. */
function editRow(bankId: string, e: EditRecord, skillId: string | null) {
  return {
    bankId,
    skillId,
    op: e.op,
    before: e.before ? asJson(e.before) : undefined,
    after: e.after ? asJson(e.after) : undefined,
    reason: e.reason,
  };
}

/** Saves a bank with its skills (new database ids) and its edit history; returns the bank id. */
export async function saveBank(
  db: Db,
  o: {
    name: string;
    bridge: string | null;
    source: SkillBankSource;
    config: Json;
    bank: SkillBankState;
    projectId?: string | undefined;
  },
): Promise<string> {
  return db.$transaction(async (tx) => {
    const bank = await tx.skillBank.create({
      data: {
        name: o.name,
        bridge: o.bridge,
        source: o.source,
        config: asJson(o.config),
        projectId: o.projectId ?? null,
      },
      select: { id: true },
    });
    const ids = new Map<string, string>();
    for (const s of o.bank.skills) {
      const row = await tx.skill.create({ data: skillRow(bank.id, s), select: { id: true } });
      ids.set(s.id, row.id);
    }
    for (const e of o.bank.history) {
      const skillId = e.skillId ? (ids.get(e.skillId) ?? null) : null;
      await tx.skillEdit.create({ data: editRow(bank.id, e, skillId) });
    }
    return bank.id;
  });
}

export interface BankInfo {
  id: string;
  name: string;
  bridge: string | null;
  source: SkillBankSource;
  config: Json;
  createdAt: string;
  skills: number;
}

export async function listBanks(db: Db, o: { projectId?: string } = {}): Promise<BankInfo[]> {
  const rows = await db.skillBank.findMany({
    where: o.projectId ? { projectId: o.projectId } : {},
    orderBy: { createdAt: 'desc' },
    take: 200,
    select: {
      id: true,
      name: true,
      bridge: true,
      source: true,
      config: true,
      createdAt: true,
      _count: { select: { skills: { where: { deletedAt: null } } } },
    },
  });
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    bridge: r.bridge,
    source: r.source,
    config: parseColumn(JsonSchemaZ, r.config, `SkillBank ${r.id} config`),
    createdAt: r.createdAt.toISOString(),
    skills: r._count.skills,
  }));
}

export async function getBank(
  db: Db,
  id: string,
): Promise<{
  bank: BankInfo;
  skills: Skill[];
  edits: (Omit<EditRecord, 'before' | 'after'> & { before: Json; after: Json; at: string })[];
  /** The run of each recorded source episode (the studio links sources to the trajectory viewer). */
  episodeRuns: Record<string, string>;
}> {
  const row = await db.skillBank.findUnique({
    where: { id },
    select: { id: true, name: true, bridge: true, source: true, config: true, createdAt: true },
  });
  if (!row) throw new NotFoundError(`skill bank '${id}' not found`);
  const skills = await db.skill.findMany({
    where: { bankId: id, deletedAt: null },
    orderBy: [{ category: 'asc' }, { createdAt: 'asc' }],
    select: SKILL_SELECT,
  });
  const edits = await db.skillEdit.findMany({
    where: { bankId: id },
    orderBy: { id: 'asc' },
    take: 1000,
    select: { op: true, skillId: true, before: true, after: true, reason: true, createdAt: true },
  });
  const sourceIds = [...new Set(skills.flatMap((s) => s.sourceEpisodeIds))];
  const sources =
    sourceIds.length === 0
      ? []
      : await db.episode.findMany({
          where: { id: { in: sourceIds } },
          select: { id: true, runId: true },
        });
  return {
    episodeRuns: Object.fromEntries(sources.map((e) => [e.id, e.runId])),
    bank: {
      id: row.id,
      name: row.name,
      bridge: row.bridge,
      source: row.source,
      config: parseColumn(JsonSchemaZ, row.config, `SkillBank ${row.id} config`),
      createdAt: row.createdAt.toISOString(),
      skills: skills.length,
    },
    // A category is an enum column: skills come back as stored (a legacy category was mapped to
    // 'general' by the typed_columns migration, as this reader used to do).
    skills,
    edits: edits.map((e) => ({
      op: e.op,
      skillId: e.skillId,
      before: parseOptionalColumn(JsonSchemaZ, e.before, `SkillEdit of bank ${id} before`),
      after: parseOptionalColumn(JsonSchemaZ, e.after, `SkillEdit of bank ${id} after`),
      reason: e.reason,
      at: e.createdAt.toISOString(),
    })),
  };
}

export async function loadBankState(db: Db, id: string): Promise<SkillBankState> {
  const { skills } = await getBank(db, id);
  return new SkillBankState(skills);
}

export async function saveComparison(db: Db, r: CompareResult): Promise<string> {
  const row = await db.comparison.create({
    data: {
      projectId: r.input.projectId ?? null,
      bridge: r.input.bridge,
      policy: r.input.policy,
      trainSplit: r.input.trainSplit,
      evalSplit: r.input.evalSplit,
      envs: r.input.envs,
      config: asJson(r.input),
      results: asJson({
        rows: r.rows,
        trainTasks: r.trainTasks,
        evalTasks: r.evalTasks,
        envharness: r.envharness,
        durationMs: r.durationMs,
      }),
      status: 'completed',
      finishedAt: new Date(),
    },
    select: { id: true },
  });
  return row.id;
}

export interface ComparisonInfo {
  id: string;
  bridge: string;
  policy: string;
  trainSplit: string;
  evalSplit: string;
  envs: number;
  config: Json;
  results: ComparisonResults | null;
  status: string;
  createdAt: string;
}

const CMP_SELECT = {
  id: true,
  bridge: true,
  policy: true,
  trainSplit: true,
  evalSplit: true,
  envs: true,
  config: true,
  results: true,
  status: true,
  createdAt: true,
} as const;

function toCmp(r: Prisma.ComparisonGetPayload<{ select: typeof CMP_SELECT }>): ComparisonInfo {
  return {
    ...r,
    config: parseColumn(JsonSchemaZ, r.config, `Comparison ${r.id} config`),
    results: parseOptionalColumn(ComparisonResultsSchema, r.results, `Comparison ${r.id} results`),
    createdAt: r.createdAt.toISOString(),
  };
}

export async function listComparisons(
  db: Db,
  o: { projectId?: string } = {},
): Promise<ComparisonInfo[]> {
  const rows = await db.comparison.findMany({
    where: o.projectId ? { projectId: o.projectId } : {},
    orderBy: { createdAt: 'desc' },
    take: 100,
    select: CMP_SELECT,
  });
  return rows.map(toCmp);
}

export async function getComparison(db: Db, id: string): Promise<ComparisonInfo> {
  const row = await db.comparison.findUnique({ where: { id }, select: CMP_SELECT });
  if (!row) throw new NotFoundError(`comparison '${id}' not found`);
  return toCmp(row);
}

/**
 * Applies validated edits to a stored bank (consolidation between batches): adds create rows,
 * updates change them, merges and deletes mark the old rows deleted; every applied edit is logged.
 */
export async function applyEditsToBank(
  db: Db,
  bankId: string,
  bank: SkillBankState,
  applied: EditRecord[],
  uses: Map<string, number>,
): Promise<void> {
  await db.$transaction(async (tx) => {
    const log = (e: EditRecord, skillId: string | null) =>
      tx.skillEdit.create({ data: editRow(bankId, e, skillId) });
    const create = async (s: Skill) =>
      (await tx.skill.create({ data: skillRow(bankId, s), select: { id: true } })).id;
    for (const e of applied) {
      if (e.op === 'add' && e.after) await log(e, await create(e.after));
      else if (e.op === 'update' && e.after && e.skillId) {
        await tx.skill.update({
          where: { id: e.skillId },
          data: {
            category: e.after.category,
            taskType: e.after.taskType,
            title: e.after.title,
            description: e.after.description,
            content: e.after.content,
            sourceEpisodeIds: e.after.sourceEpisodeIds,
          },
        });
        await log(e, e.skillId);
      } else if (e.op === 'merge' && e.after && Array.isArray(e.before)) {
        for (const old of e.before) {
          await tx.skill.update({ where: { id: old.id }, data: { deletedAt: new Date() } });
        }
        await log(e, await create(e.after));
      } else if (e.op === 'delete' && e.skillId) {
        await tx.skill.update({ where: { id: e.skillId }, data: { deletedAt: new Date() } });
        await log(e, e.skillId);
      }
    }
    for (const [id, n] of uses) {
      if (bank.byId(id)) await tx.skill.update({ where: { id }, data: { uses: { increment: n } } });
    }
  });
}
