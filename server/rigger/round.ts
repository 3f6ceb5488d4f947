// One round of the loop in phases: Observe (the baseline run), Diagnose, then the Write → Validate
// iterations (iteration.ts). Each phase first looks for what an earlier execution of the rig
// recorded — the baseline run it launched, the round's Diagnosis row — and reuses it.
import type { Json } from '../../bridges/core/types.ts';
import { initialState, tryActions } from './check.ts';
import { gateDiagnosis } from './diagnosis-check.ts';
import { runIterations } from './iteration.ts';
import { lessonsOf } from './lessons.ts';
import { awaitBatch, rigRunId, rollouts } from './observe.ts';
import { recordDiagnosis } from './records.ts';
import { fmtRate, type RoundResult } from './results.ts';
import { constraintsOf, type RoundEnv, rolloutCommon } from './round-env.ts';
import type { RigSettings } from './settings.ts';
import type { Batch, DesignContext, DiagnosisReport, StoredDiagnosis } from './types.ts';

function baselineSeeds(input: RigSettings): number[] {
  return Array.from({ length: input.k }, (_, i) => input.seed + i);
}

export async function runRound(env: RoundEnv): Promise<RoundResult> {
  const baseline = await observe(env);
  const ctx = await designContext(env, baseline);
  const diagnosis = await diagnose(env, ctx);
  ctx.diagnosis = diagnosis;
  const done = await runIterations(env, ctx);
  return {
    round: env.round,
    skills: env.skills,
    baseline: {
      runId: baseline.runId,
      successRate: baseline.stats.successRate,
      interval: baseline.stats.interval,
      failureDistribution: baseline.stats.failureDistribution,
      meanSteps: baseline.stats.meanSteps,
      cached: baseline.cached === true,
    },
    diagnosis,
    ...done,
    lessons: done.accepted ? lessonsOf(done.accepted) : [],
  };
}

/** The round's baseline run as recorded: in its diagnosis, on the rig (round 0), or by its name. */
async function recordedBaseline(env: RoundEnv): Promise<string | null> {
  const { progress, round, deps } = env;
  const recorded =
    progress.diagnoses.get(round)?.baselineRunId ?? (round === 0 ? progress.baselineRunId : null);
  if (recorded) return recorded;
  const named = rigRunId(env.rigId, round, 'baseline');
  return (await deps.db.run.count({ where: { id: named } })) > 0 ? named : null;
}

/** Observe: K baseline rollouts — a cached run, the run launched before a crash, or a new one. */
async function observe(env: RoundEnv): Promise<Batch> {
  const { deps, input, round, say, progress } = env;
  say(`round ${round + 1}: observe — ${input.k} baseline rollouts`);
  const recordBaseline = async (runId: string) => {
    if (round !== 0 || progress.baselineRunId === runId) return;
    progress.baselineRunId = runId;
    await deps.db.rig.update({ where: { id: env.rigId }, data: { baselineRunId: runId } });
  };
  const recorded = await recordedBaseline(env);
  let baseline: Batch;
  if (recorded) {
    say(`baseline: run ${recorded} (recorded by an earlier execution)`);
    const run = await deps.db.run.findUniqueOrThrow({
      where: { id: recorded },
      select: { createdAt: true },
    });
    const batch = await awaitBatch(deps.rollouts, recorded, env.signal);
    // A run older than the rig was another rig's: the cache served it.
    baseline = { ...batch, cached: run.createdAt < progress.createdAt };
  } else {
    baseline = await rollouts(deps.rollouts, {
      ...rolloutCommon(env),
      spec: env.baseSpec,
      seeds: baselineSeeds(input),
      kind: 'baseline',
      runId: rigRunId(env.rigId, round, 'baseline'),
      // Recorded before its episodes end: the studio streams it, a resumed rig waits for it.
      onLaunched: recordBaseline,
    });
  }
  await recordBaseline(baseline.runId);
  say(
    `baseline: ${fmtRate(baseline.stats.successRate)} success, mean steps ${baseline.stats.meanSteps?.toFixed(1) ?? '-'}`,
  );
  return baseline;
}

async function designContext(env: RoundEnv, baseline: Batch): Promise<DesignContext> {
  const { baseSpec, taskId, input } = env;
  const bridge = await env.deps.bridges.get(env.bridgeName);
  const stateSeed = input.seed;
  let stateCache: Json | undefined;
  return {
    bridge: env.bridgeName,
    taskId,
    task: env.task,
    baseSpec,
    tools: bridge?.tools() ?? [],
    stateSchema: (bridge?.stateSchema() ?? {}) as Json,
    constraints: constraintsOf(input),
    components: input.components,
    maxSteps: input.maxSteps,
    baseline,
    attempts: [],
    async initialState() {
      stateCache ??= await initialState(env.deps.bridges, baseSpec, taskId, stateSeed);
      return stateCache;
    },
    tryActions: (actions) => tryActions(env.deps.bridges, baseSpec, taskId, stateSeed, actions),
    listTasks: async (filter) => (bridge ? bridge.listTasks(filter) : []),
  };
}

/**
 * Diagnose: the round's recorded diagnosis, else the designer's — checked against the baseline's
 * trajectories (quotes, negative claims) and recorded before any Write.
 */
async function diagnose(env: RoundEnv, ctx: DesignContext): Promise<StoredDiagnosis> {
  const { round, say, deps } = env;
  const recorded = env.progress.diagnoses.get(round);
  let diagnosis: StoredDiagnosis;
  if (recorded) {
    diagnosis = recorded.report;
  } else {
    const { baseline } = ctx;
    // With no scored baseline episode there is nothing to diagnose: the errors are the finding.
    const found: DiagnosisReport =
      baseline.stats.n === 0
        ? {
            axis: 'none',
            label: 'baseline-errors',
            description: `Every baseline episode ended in an error, so the policy could not be observed: ${
              baseline.stats.errorMessages
                .map((m) => `"${m.replace(/\s+/g, ' ').replaceAll('"', "'")}"`)
                .slice(0, 2)
                .join(' | ') || 'no message'
            }`,
            evidence: [],
            direction: 'none',
          }
        : await env.designer.diagnose(ctx);
    const checked = gateDiagnosis(found, baseline.episodes);
    if (checked.check.removed.length > 0)
      say(`diagnosis check: removed ${checked.check.removed.length} item(s) that do not hold`);
    diagnosis = await recordDiagnosis(deps.db, env.rigId, round, checked, {
      baselineRunId: baseline.runId,
      baselineRate: baseline.stats.successRate,
      skills: env.skills,
    });
  }
  say(`diagnosis: [${diagnosis.axis}] ${diagnosis.label} — direction ${diagnosis.direction}`);
  return diagnosis;
}
