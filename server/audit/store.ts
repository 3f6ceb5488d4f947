// Where audits live: each audit's probe episodes as three finished runs of kind `audit` (one per
// probe: policies `scripted:audit-gold`, `-empty`, `-perturbed`), so every probe opens in the
// trajectory viewer; the report in an Audit row. Reads: the newest audit per bridge (the task
// picker's mark, the audit page), one audit, and what the audit takes from recorded runs — the
// shortest recorded success per task (gold without an oracle) and the episodes whose summed reward
// and verdict disagree.
import '#server-only';
import type { Action } from '../../bridges/core/types.ts';
import {
  AUDIT_PROBES,
  type AuditReport,
  AuditReportSchema,
  type AuditVerdict,
  type Disagreement,
  rewardVerdictDisagreement,
} from '../../contracts/audit.ts';
import { ActionSchema, type HarnessSpec, HarnessSpecSchema } from '../../contracts/spec.ts';
import { Prisma } from '../db/generated/client.ts';
import type { Db } from '../db/index.ts';
import { parseColumn } from '../db/json.ts';
import { NotFoundError } from '../errors.ts';
import type { KnownSequence } from '../lint/lint.ts';
import { stepRow } from '../rollouts/step-rows.ts';
import type { ProbeEpisode } from './audit.ts';
import { probeKey } from './report.ts';

/** The audit's probe runs: no step budget of their own beyond the gold replay's cap. */
const PROBE_MAX_STEPS = 300;
/** Step rows per statement (one JSON parameter each). */
const STEP_CHUNK = 2000;
/** Recorded episodes read for disagreements, newest first. */
const RECORDED_SCAN = 20_000;

type Who = { createdBy?: string | null; projectId?: string | null };

/** Stores the probe episodes, one completed run per probe; where each landed, by probe and task. */
export async function storeProbeEpisodes(
  db: Db,
  o: { spec: HarnessSpec; bridge: string; task: string; episodes: ProbeEpisode[] } & Who,
): Promise<{
  runs: AuditReport['runs'];
  stored: Map<string, { runId: string; episodeId: string }>;
}> {
  const runs: AuditReport['runs'] = {};
  const stored = new Map<string, { runId: string; episodeId: string }>();
  const now = new Date();
  for (const probe of AUDIT_PROBES) {
    const episodes = o.episodes.filter((e) => e.probe === probe);
    if (episodes.length === 0) continue;
    const successes = episodes.filter((e) => e.evaluation.success);
    const steps = episodes.reduce((n, e) => n + e.trajectory.length, 0);
    const run = await db.run.create({
      data: {
        kind: 'audit',
        policy: `scripted:audit-${probe}`,
        spec: o.spec as unknown as Prisma.InputJsonValue,
        taskIds: [...new Set(episodes.map((e) => e.taskId))],
        k: 1,
        seeds: [...new Set(episodes.map((e) => e.seed))],
        maxSteps: PROBE_MAX_STEPS,
        rewardParams: {},
        status: 'completed',
        episodesTotal: episodes.length,
        episodesDone: episodes.length,
        episodesSucceeded: successes.length,
        episodesFailed: episodes.length - successes.length,
        stepsScored: steps,
        successRate: successes.length / episodes.length,
        meanSteps: steps / episodes.length,
        bridge: o.bridge,
        task: o.task,
        startedAt: now,
        finishedAt: now,
        ...(o.createdBy ? { createdBy: o.createdBy } : {}),
        ...(o.projectId ? { projectId: o.projectId } : {}),
      },
      select: { id: true },
    });
    runs[probe] = run.id;
    // One statement each for the episodes and their steps (json_to_recordset, as the recorder
    // writes): row-by-row inserts through the client cost seconds per hundred episodes here.
    const rows = episodes.map((e, ordinal) => ({
      id: `${run.id}${probe[0]}${ordinal.toString(36)}`,
      runId: run.id,
      taskId: e.taskId,
      seed: e.seed,
      ordinal,
      outcome: e.evaluation.success ? 'success' : 'failure',
      failureCategory: e.evaluation.success ? null : 'wrong_final_state',
      steps: e.trajectory.length,
      reward: e.reward.total,
      costReward: {
        ...e.reward,
        invalidActions: e.trajectory.filter((s) => s.invalid).length,
        envReward: e.envReward,
      },
      evaluation: e.evaluation,
      durationMs: Math.round(e.durationMs),
    }));
    await db.$executeRaw`
      INSERT INTO "Episode" (id, "runId", "taskId", seed, ordinal, status, attempt, outcome,
        "failureCategory", steps, reward, "costReward", evaluation, "durationMs", "startedAt", "finishedAt")
      SELECT v.id, v."runId", v."taskId", v.seed, v.ordinal, 'done', 1, v.outcome::"EpisodeOutcome",
        v."failureCategory"::"FailureCategory", v.steps, v.reward, v."costReward", v.evaluation,
        v."durationMs", now(), now()
      FROM json_to_recordset(${JSON.stringify(rows)}::json) AS v(id text, "runId" text, "taskId" text,
        seed int, ordinal int, outcome text, "failureCategory" text, steps int, reward float8,
        "costReward" jsonb, evaluation jsonb, "durationMs" int)`;
    const stepRows: unknown[] = [];
    episodes.forEach((e, ordinal) => {
      const episodeId = rows[ordinal]?.id as string;
      stored.set(probeKey(probe, e.taskId), { runId: run.id, episodeId });
      for (const s of e.trajectory) stepRows.push(stepRow(episodeId, 1, s));
    });
    for (let i = 0; i < stepRows.length; i += STEP_CHUNK) {
      await db.$executeRaw`
        INSERT INTO "Step" ("episodeId", "index", "attempt", "action", "executedAction",
          "rawObservation", "rawObservationData", "observation", "observationData", "reward",
          "terminated", "truncated", "invalid", "blocked", "changes", "info", "leg", "state", "meta")
        SELECT s."episodeId", s."index", s."attempt", s."action", s."executedAction",
          s."rawObservation", s."rawObservationData", s."observation", s."observationData", s."reward",
          s."terminated", s."truncated", s."invalid", s."blocked", s."changes", s."info", s."leg",
          s."state", s."meta"
        FROM json_to_recordset(${JSON.stringify(stepRows.slice(i, i + STEP_CHUNK))}::json) AS s(
          "episodeId" text, "index" int, "attempt" int, "action" jsonb, "executedAction" jsonb,
          "rawObservation" text, "rawObservationData" jsonb, "observation" text,
          "observationData" jsonb, "reward" float8, "terminated" boolean, "truncated" boolean,
          "invalid" boolean, "blocked" text, "changes" jsonb, "info" jsonb, "leg" int, "state" jsonb,
          "meta" jsonb)`;
    }
  }
  return { runs, stored };
}

export async function insertAudit(db: Db, report: AuditReport, who: Who): Promise<AuditReport> {
  const row = await db.audit.create({
    data: {
      bridge: report.bridge,
      ...(report.spec ? { spec: report.spec as unknown as Prisma.InputJsonValue } : {}),
      split: report.split,
      sample: report.sample,
      report: report as unknown as Prisma.InputJsonValue,
      passed: report.passed,
      ...(who.createdBy ? { createdBy: who.createdBy } : {}),
      ...(who.projectId ? { projectId: who.projectId } : {}),
    },
    select: { id: true, createdAt: true },
  });
  return { ...report, id: row.id, createdAt: row.createdAt.toISOString() };
}

const auditSelect = {
  id: true,
  bridge: true,
  report: true,
  passed: true,
  createdAt: true,
} satisfies Prisma.AuditSelect;

function readReport(row: { id: string; report: unknown; createdAt: Date }): AuditReport {
  const report = parseColumn(AuditReportSchema, row.report, `Audit ${row.id} report`);
  return { ...report, id: row.id, createdAt: row.createdAt.toISOString() };
}

/** Team mode: the active project's audits; the single local user sees every one. */
function scope(projectId: string | null | undefined): Prisma.AuditWhereInput {
  return projectId ? { projectId } : {};
}

export async function getAudit(
  db: Db,
  id: string,
  projectId?: string | null,
): Promise<AuditReport> {
  const row = await db.audit.findFirst({ where: { id, ...scope(projectId) }, select: auditSelect });
  if (!row) throw new NotFoundError(`audit '${id}' not found`);
  return readReport(row);
}

/** The newest bridge audit (not a harness audit) of each bridge. */
export async function latestBridgeAudits(
  db: Db,
  projectId?: string | null,
): Promise<AuditReport[]> {
  const rows = await db.audit.findMany({
    where: { ...scope(projectId), spec: { equals: Prisma.DbNull } },
    orderBy: [{ bridge: 'asc' }, { createdAt: 'desc' }],
    distinct: ['bridge'],
    select: auditSelect,
  });
  return rows.map(readReport);
}

/** Each bridge's newest audit verdict: what the task picker marks. */
export async function auditVerdicts(db: Db, projectId?: string | null): Promise<AuditVerdict[]> {
  const rows = await db.audit.findMany({
    where: { ...scope(projectId), spec: { equals: Prisma.DbNull } },
    orderBy: [{ bridge: 'asc' }, { createdAt: 'desc' }],
    distinct: ['bridge'],
    select: { id: true, bridge: true, passed: true, createdAt: true, report: true },
  });
  return rows.map((r) => {
    const report = readReport(r);
    return {
      id: r.id,
      bridge: r.bridge,
      passed: r.passed,
      suspicious: report.totals.suspicious,
      tasks: report.totals.tasks,
      createdAt: r.createdAt.toISOString(),
    };
  });
}

/** Earlier audits, newest first (the page's history). */
export async function listAudits(
  db: Db,
  o: { bridge?: string; projectId?: string | null; limit?: number } = {},
) {
  const rows = await db.audit.findMany({
    where: { ...scope(o.projectId), ...(o.bridge ? { bridge: o.bridge } : {}) },
    orderBy: { createdAt: 'desc' },
    take: o.limit ?? 20,
    select: {
      id: true,
      bridge: true,
      split: true,
      sample: true,
      passed: true,
      createdAt: true,
      spec: true,
    },
  });
  return rows.map((r) => ({
    id: r.id,
    bridge: r.bridge,
    split: r.split,
    sample: r.sample,
    passed: r.passed,
    harness: r.spec !== null,
    createdAt: r.createdAt.toISOString(),
  }));
}

/** Runs of the bridge that are not audits, newest first. */
async function recordedRunIds(
  db: Db,
  bridge: string,
  projectId: string | null | undefined,
): Promise<string[]> {
  const runs = await db.run.findMany({
    where: { bridge, kind: { not: 'audit' }, ...(projectId ? { projectId } : {}) },
    orderBy: { createdAt: 'desc' },
    take: 2000,
    select: { id: true },
  });
  return runs.map((r) => r.id);
}

/**
 * The shortest recorded success of each task on runs of the bare task (a harnessed run played
 * another world): gold for bridges without an oracle.
 */
export async function recordedGold(
  db: Db,
  bridge: string,
  taskIds: string[],
  projectId?: string | null,
): Promise<Record<string, KnownSequence[]>> {
  if (taskIds.length === 0) return {};
  const runIds = await recordedRunIds(db, bridge, projectId);
  if (runIds.length === 0) return {};
  const rows = await db.episode.findMany({
    where: { runId: { in: runIds }, taskId: { in: taskIds }, outcome: 'success', steps: { gt: 0 } },
    orderBy: [{ steps: 'asc' }, { finishedAt: 'desc' }],
    take: 5000,
    select: { id: true, seed: true, taskId: true, run: { select: { spec: true } } },
  });
  const best = new Map<string, { id: string; seed: number }>();
  for (const r of rows) {
    if (best.has(r.taskId)) continue;
    const spec = HarnessSpecSchema.safeParse(r.run.spec);
    if (spec.success && spec.data.env.type === 'base')
      best.set(r.taskId, { id: r.id, seed: r.seed });
  }
  const ids = [...best.values()].map((b) => b.id);
  const steps = ids.length
    ? await db.step.findMany({
        where: { episodeId: { in: ids } },
        orderBy: [{ episodeId: 'asc' }, { index: 'asc' }],
        select: { episodeId: true, index: true, action: true },
      })
    : [];
  const actions = new Map<string, Action[]>();
  for (const s of steps) {
    const list = actions.get(s.episodeId) ?? [];
    list.push(parseColumn(ActionSchema, s.action, `Step ${s.episodeId}#${s.index} action`));
    actions.set(s.episodeId, list);
  }
  const out: Record<string, KnownSequence[]> = {};
  for (const [taskId, b] of best) {
    out[taskId] = [{ episodeId: b.id, seed: b.seed, actions: actions.get(b.id) ?? [] }];
  }
  return out;
}

/** A stored episode's summed step reward and verdict (costReward.envReward, evaluation). */
export function episodeRewardVerdict(row: {
  costReward: unknown;
  evaluation: unknown;
}): { reward: number; success: boolean; score: number } | undefined {
  const cost = row.costReward as { envReward?: unknown } | null;
  const ev = row.evaluation as { success?: unknown; score?: unknown } | null;
  if (typeof cost?.envReward !== 'number' || typeof ev?.success !== 'boolean') return undefined;
  return {
    reward: cost.envReward,
    success: ev.success,
    score: typeof ev.score === 'number' ? ev.score : 0,
  };
}

/** Recorded episodes (not the audit's own) of these tasks whose summed reward and verdict disagree. */
export async function recordedDisagreements(
  db: Db,
  bridge: string,
  taskIds: string[],
  projectId?: string | null,
): Promise<Record<string, Disagreement[]>> {
  if (taskIds.length === 0) return {};
  const runIds = await recordedRunIds(db, bridge, projectId);
  if (runIds.length === 0) return {};
  const rows = await db.episode.findMany({
    where: {
      runId: { in: runIds },
      taskId: { in: taskIds },
      status: 'done',
      outcome: { in: ['success', 'failure'] },
    },
    orderBy: { finishedAt: 'desc' },
    take: RECORDED_SCAN,
    select: { id: true, runId: true, taskId: true, costReward: true, evaluation: true },
  });
  const out: Record<string, Disagreement[]> = {};
  for (const r of rows) {
    const e = episodeRewardVerdict(r);
    if (!e) continue;
    const kind = rewardVerdictDisagreement(e);
    if (!kind) continue;
    const list = out[r.taskId] ?? [];
    list.push({ kind, ...e, runId: r.runId, episodeId: r.id });
    out[r.taskId] = list;
  }
  return out;
}

/** A run's finished episodes whose summed step reward and verdict disagree (the run page's warning). */
export async function runDisagreements(db: Db, runId: string) {
  const rows = await db.episode.findMany({
    where: { runId, status: 'done', outcome: { in: ['success', 'failure'] } },
    orderBy: { ordinal: 'asc' },
    select: {
      id: true,
      taskId: true,
      seed: true,
      ordinal: true,
      costReward: true,
      evaluation: true,
    },
  });
  const items: (Disagreement & {
    episodeId: string;
    taskId: string;
    seed: number;
    ordinal: number;
  })[] = [];
  let checked = 0;
  for (const r of rows) {
    const e = episodeRewardVerdict(r);
    if (!e) continue;
    checked++;
    const kind = rewardVerdictDisagreement(e);
    if (kind)
      items.push({
        kind,
        ...e,
        runId,
        episodeId: r.id,
        taskId: r.taskId,
        seed: r.seed,
        ordinal: r.ordinal,
      });
  }
  return { checked, total: items.length, items: items.slice(0, 100) };
}
