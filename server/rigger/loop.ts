// EnvRigger: Observe -> Diagnose -> Write -> Validate, against a black-box policy (PAPERS.md §1).
// Every rig, diagnosis, candidate, validation run and decision is persisted as it happens, so the
// studio can follow a rig live and a crashed rig still shows how far it got.
import { z } from 'zod';
import { pinTask } from '../../bridges/core/capabilities.ts';
import type { Bridge, Json } from '../../bridges/core/types.ts';
import { getBridge } from '../../bridges/index.ts';
import type { Db } from '../db/index.ts';
import { DomainError, NotFoundError, parseInput } from '../errors.ts';
import type { HarnessSpec } from '../harness/spec.ts';
import type { Rollouts } from '../rollouts/service.ts';
import { describeWriteError, initialState, preflight, tryActions } from './check.ts';
import { createDesigner, DESIGNERS } from './designers/index.ts';
import { lessonsOf } from './lessons.ts';
import { rollouts } from './observe.ts';
import { decideByStats } from './stats.ts';
import {
  type Attempt,
  BandSchema,
  type Batch,
  type BatchStats,
  type Decision,
  type DesignContext,
  type Designer,
  type DiagnosisReport,
} from './types.ts';

export const RigInputSchema = z.object({
  /** `bridge:task`. */
  task: z.string().regex(/^[^:]+:.+$/, 'task must look like bridge:task'),
  policy: z.string().min(1),
  designer: z.enum(DESIGNERS).default('heuristic'),
  k: z.number().int().min(1).max(100).default(5),
  maxIterations: z.number().int().min(1).max(50).default(5),
  band: BandSchema.default([0.4, 0.6]),
  stepsBand: BandSchema.optional(),
  defect: z.string().max(2000).optional(),
  rounds: z.number().int().min(1).max(10).default(1),
  maxSteps: z.number().int().min(1).max(10_000).default(50),
  /** First baseline seed; validations use fresh seeds after the baseline's. */
  seed: z.number().int().min(0).default(0),
  /** The start state every rollout of the rig plays, for bridges that can pin one (Bridge.pinTask). */
  scene: z.number().int().min(0).default(0),
  concurrency: z.number().int().min(1).max(64).optional(),
  /** Policy options for every rollout (e.g. skill tags); rounds add the lessons of earlier rounds. */
  policyOptions: z.record(z.string(), z.unknown()).optional(),
  createdBy: z.string().optional(),
  projectId: z.string().optional(),
});
export type RigInput = z.input<typeof RigInputSchema>;
type RigSettings = z.output<typeof RigInputSchema>;

export interface ValidationSummary {
  runId: string | null;
  successRate: number | null;
  interval: [number, number];
  failureDistribution: Record<string, number>;
  meanSteps: number | null;
  errors: number;
}

export interface IterationResult {
  iteration: number;
  candidateId: string;
  candidate: { spec: HarnessSpec; rationale: string };
  writeError?: string;
  validation: ValidationSummary | null;
  decision: Decision;
  feedback: string;
}

export interface RoundResult {
  round: number;
  skills: string[];
  baseline: {
    runId: string;
    successRate: number | null;
    interval: [number, number];
    failureDistribution: Record<string, number>;
    meanSteps: number | null;
    cached: boolean;
  };
  diagnosis: DiagnosisReport;
  iterations: IterationResult[];
  accepted: HarnessSpec | null;
  acceptedCandidateId: string | null;
  /** What the accepted harness taught (carried into the next round's policy). */
  lessons: string[];
}

export interface RigResult extends RoundResult {
  rigId: string;
  taskId: string;
  rounds?: RoundResult[];
  durationMs: number;
}

/** What a rig needs: the database its rows go to and the rollout service that plays its runs. */
export interface RigDeps {
  db: Db;
  rollouts: Rollouts;
}

export interface RigHooks {
  onProgress?: (text: string) => void;
  /** A designer built elsewhere (tests, a configured LLM endpoint). */
  designer?: Designer;
  /** Called once the Rig row exists (the studio answers a launch with the id, then follows live). */
  onRigCreated?: (rigId: string) => void;
}

function validationSummary(batch: Batch): ValidationSummary {
  const s: BatchStats = batch.stats;
  return {
    runId: batch.runId,
    successRate: s.successRate,
    interval: s.interval,
    failureDistribution: s.failureDistribution,
    meanSteps: s.meanSteps,
    errors: s.errors,
  };
}

/**
 * A rig plays one start state of its task (the bridge's pinTask capability; household: one fixed
 * scene), so a Stage written against it replays under every seed.
 */
export function rigTaskId(bridge: Bridge, task: string, scene: number): string {
  return pinTask(bridge, task, scene);
}

export async function runRig(
  deps: RigDeps,
  raw: RigInput,
  hooks: RigHooks = {},
): Promise<RigResult> {
  const input = parseInput(RigInputSchema, raw);
  const started = performance.now();
  const say = hooks.onProgress ?? (() => {});
  const sep = input.task.indexOf(':');
  const bridgeName = input.task.slice(0, sep);
  const bridge = await getBridge(bridgeName);
  if (!bridge) throw new NotFoundError(`unknown bridge '${bridgeName}'`);
  const taskId = rigTaskId(bridge, input.task.slice(sep + 1), input.scene);
  const task = await bridge.getTask(taskId);
  if (!task) throw new NotFoundError(`unknown task '${taskId}' for bridge '${bridgeName}'`);
  const baseSpec: HarnessSpec = {
    version: 1,
    env: { type: 'base', bridge: bridgeName, task: taskId },
  };

  const { db } = deps;
  const rig = await db.rig.create({
    data: {
      bridge: bridgeName,
      taskId,
      policy: input.policy,
      designer: input.designer,
      k: input.k,
      maxIterations: input.maxIterations,
      rounds: input.rounds,
      constraints: {
        band: input.band,
        ...(input.stepsBand ? { stepsBand: input.stepsBand } : {}),
        ...(input.defect ? { defect: input.defect } : {}),
        seed: input.seed,
        scene: input.scene,
        maxSteps: input.maxSteps,
      },
      status: 'running',
      startedAt: new Date(),
      createdBy: input.createdBy ?? null,
      projectId: input.projectId ?? null,
    },
    select: { id: true },
  });
  hooks.onRigCreated?.(rig.id);
  say(`rig ${rig.id}: ${bridgeName}:${taskId} with ${input.policy} (${input.designer} designer)`);

  const rounds: RoundResult[] = [];
  let designer: Designer | undefined;
  try {
    const active = hooks.designer ?? (await createDesigner(input.designer));
    designer = active;
    let skills: string[] = [];
    const baseSkills = input.policyOptions?.skills;
    if (Array.isArray(baseSkills))
      skills = baseSkills.filter((s): s is string => typeof s === 'string');
    for (let round = 0; round < input.rounds; round++) {
      const result = await runRound(deps, rig.id, round, input, {
        bridgeName,
        taskId,
        task,
        baseSpec,
        designer: active,
        skills,
        say,
      });
      rounds.push(result);
      if (round === 0 && result.baseline.runId) {
        await db.rig.update({
          where: { id: rig.id },
          data: { baselineRunId: result.baseline.runId },
        });
      }
      if (result.acceptedCandidateId) {
        await db.rig.update({
          where: { id: rig.id },
          data: { acceptedCandidateId: result.acceptedCandidateId },
        });
      }
      const fresh = result.lessons.filter((l) => !skills.includes(l));
      if (round + 1 < input.rounds) {
        if (fresh.length === 0) {
          say(`round ${round + 1}: the accepted harness taught nothing new; stopping co-evolution`);
          break;
        }
        skills = [...skills, ...fresh];
        say(`round ${round + 2}: the policy now carries ${skills.join(', ')}`);
      }
    }
    await db.rig.update({
      where: { id: rig.id },
      data: { status: 'completed', finishedAt: new Date() },
    });
  } catch (e) {
    await db.rig.update({
      where: { id: rig.id },
      data: {
        status: 'failed',
        finishedAt: new Date(),
        error: e instanceof Error ? e.message : String(e),
      },
    });
    throw e;
  } finally {
    if (!hooks.designer) await designer?.close?.();
  }
  const last = rounds.at(-1) as RoundResult;
  return {
    rigId: rig.id,
    taskId,
    ...last,
    ...(rounds.length > 1 ? { rounds } : {}),
    durationMs: Math.round(performance.now() - started),
  };
}

interface RoundEnv {
  bridgeName: string;
  taskId: string;
  task: NonNullable<
    Awaited<ReturnType<NonNullable<Awaited<ReturnType<typeof getBridge>>>['getTask']>>
  >;
  baseSpec: HarnessSpec;
  designer: Designer;
  skills: string[];
  say: (text: string) => void;
}

async function runRound(
  deps: RigDeps,
  rigId: string,
  round: number,
  input: RigSettings,
  env: RoundEnv,
): Promise<RoundResult> {
  const { db } = deps;
  const { say, baseSpec, taskId, designer } = env;
  const policyOptions: Record<string, Json> | undefined =
    env.skills.length > 0 || input.policyOptions
      ? {
          ...((input.policyOptions ?? {}) as Record<string, Json>),
          ...(env.skills.length ? { skills: env.skills } : {}),
        }
      : undefined;
  const common = {
    policy: input.policy,
    maxSteps: input.maxSteps,
    ...(policyOptions ? { policyOptions } : {}),
    ...(input.concurrency !== undefined ? { concurrency: input.concurrency } : {}),
    onProgress: say,
  };
  const baseSeeds = Array.from({ length: input.k }, (_, i) => input.seed + i);

  // Observe
  say(`round ${round + 1}: observe — ${input.k} baseline rollouts`);
  const baseline = await rollouts(deps.rollouts, {
    ...common,
    spec: baseSpec,
    seeds: baseSeeds,
    kind: 'baseline',
  });
  say(
    `baseline: ${fmtRate(baseline.stats.successRate)} success, mean steps ${baseline.stats.meanSteps?.toFixed(1) ?? '-'}`,
  );

  const bridge = await getBridge(env.bridgeName);
  const constraints = {
    band: input.band,
    ...(input.stepsBand ? { stepsBand: input.stepsBand } : {}),
    ...(input.defect ? { defect: input.defect } : {}),
  };
  const stateSeed = baseSeeds[0] ?? 0;
  let stateCache: Json | undefined;
  const ctx: DesignContext = {
    bridge: env.bridgeName,
    taskId,
    task: env.task,
    baseSpec,
    tools: bridge?.tools() ?? [],
    stateSchema: (bridge?.stateSchema() ?? {}) as Json,
    constraints,
    maxSteps: input.maxSteps,
    baseline,
    attempts: [],
    async initialState() {
      stateCache ??= await initialState(baseSpec, taskId, stateSeed);
      return stateCache;
    },
    tryActions: (actions) => tryActions(baseSpec, taskId, stateSeed, actions),
  };

  // Diagnose
  if (round === 0) {
    await db.rig.update({ where: { id: rigId }, data: { baselineRunId: baseline.runId } });
  }

  // With no scored baseline episode there is nothing to diagnose: the errors are the finding.
  const diagnosis: DiagnosisReport =
    baseline.stats.n === 0
      ? {
          axis: 'none',
          label: 'baseline-errors',
          description: `Every baseline episode ended in an error, so the policy could not be observed: ${baseline.stats.errorMessages.slice(0, 2).join(' | ') || 'no message'}`,
          evidence: [],
          direction: 'none',
        }
      : await designer.diagnose(ctx);
  ctx.diagnosis = diagnosis;
  await db.diagnosis.create({
    data: {
      rigId,
      round,
      axis: diagnosis.axis,
      label: diagnosis.label,
      description: diagnosis.description,
      evidence: diagnosis.evidence as unknown as object,
      report: {
        direction: diagnosis.direction,
        ...(diagnosis.secondary ? { secondary: diagnosis.secondary } : {}),
        baselineRunId: baseline.runId,
        baselineRate: baseline.stats.successRate,
        skills: env.skills,
      } as object,
    },
  });
  say(`diagnosis: [${diagnosis.axis}] ${diagnosis.label} — direction ${diagnosis.direction}`);

  const iterations: IterationResult[] = [];
  let accepted: HarnessSpec | null = null;
  let acceptedCandidateId: string | null = null;
  if (diagnosis.direction === 'none') {
    say(
      baseline.stats.n === 0
        ? 'the baseline has no scored episode: nothing to write'
        : 'the baseline is already inside the band: nothing to write',
    );
  }
  for (let it = 0; it < input.maxIterations && diagnosis.direction !== 'none'; it++) {
    const lastIteration = it === input.maxIterations - 1;
    // Write
    const draft = await designer.write(ctx);
    if (!draft) {
      say('write: the designer has nothing left to try');
      break;
    }
    const seeds = Array.from(
      { length: input.k },
      (_, i) => input.seed + input.k * (it + 1) + i + round * 10_000,
    );
    // The row exists from Write on, so the studio shows the candidate (and its run) while it validates.
    const row = await db.candidate.create({
      data: {
        rigId,
        round,
        iteration: it,
        spec: draft.spec as unknown as object,
        rationale: draft.rationale,
        ...(draft.template ? { stats: { template: draft.template } } : {}),
      },
      select: { id: true },
    });
    let writeError = await preflight(draft.spec, taskId, seeds.slice(0, 1));
    let launched: Batch | undefined;
    if (!writeError) {
      say(`validate ${it + 1}: ${draft.template ?? 'candidate'} — ${input.k} fresh rollouts`);
      try {
        launched = await rollouts(deps.rollouts, {
          ...common,
          spec: draft.spec,
          seeds,
          kind: 'validation',
          onLaunched: (runId) =>
            db.candidate.update({ where: { id: row.id }, data: { validationRunId: runId } }),
        });
      } catch (e) {
        // A run the rollout service refuses (code that fails to load there, a set-up it rejects) is
        // the candidate's fault: it goes back to Write like any other write error.
        if (!(e instanceof DomainError)) throw e;
        writeError = describeWriteError(e);
      }
    }
    let attempt: Attempt;
    if (writeError) {
      say(`write ${it + 1}: rejected before validation — ${writeError}`);
      attempt = {
        iteration: it,
        candidate: draft,
        writeError,
        decision: 'reject',
        feedback: writeError,
      };
    } else {
      // Validate
      const validation = launched as Batch;
      const rule = decideByStats(validation.stats, constraints, lastIteration);
      attempt = {
        iteration: it,
        candidate: draft,
        validation,
        decision: rule.decision,
        feedback: rule.feedback,
      };
      if (designer.decide) {
        const opinion = await designer.decide(ctx, attempt, rule);
        // The statistics rule has the last word on accepting (never 0%, never outside the band).
        const decision: Decision =
          rule.decision === 'accept'
            ? opinion.decision === 'accept'
              ? 'accept'
              : opinion.decision
            : rule.decision === 'refine' && opinion.decision === 'reject'
              ? 'reject'
              : rule.decision;
        attempt = {
          ...attempt,
          decision,
          feedback: `${rule.feedback}. Designer: ${opinion.feedback}`,
        };
      }
      say(`decision ${it + 1}: ${attempt.decision} — ${attempt.feedback}`);
    }
    ctx.attempts.push(attempt);
    await db.candidate.update({
      where: { id: row.id },
      data: {
        writeError: attempt.writeError ?? null,
        validationRunId: attempt.validation?.runId ?? null,
        stats: {
          ...(attempt.validation ? { ...attempt.validation.stats } : {}),
          ...(draft.template ? { template: draft.template } : {}),
          ...(draft.params !== undefined ? { params: draft.params } : {}),
        } as object,
        decision: attempt.decision,
        feedback: attempt.feedback,
      },
    });
    iterations.push({
      iteration: it,
      candidateId: row.id,
      candidate: { spec: draft.spec, rationale: draft.rationale },
      ...(attempt.writeError ? { writeError: attempt.writeError } : {}),
      validation: attempt.validation ? validationSummary(attempt.validation) : null,
      decision: attempt.decision,
      feedback: attempt.feedback,
    });
    if (attempt.decision === 'accept') {
      accepted = draft.spec;
      acceptedCandidateId = row.id;
      break;
    }
  }
  return {
    round,
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
    iterations,
    accepted,
    acceptedCandidateId,
    lessons: accepted ? lessonsOf(accepted) : [],
  };
}

function fmtRate(x: number | null): string {
  return x === null ? '-' : `${Math.round(x * 100)}%`;
}
