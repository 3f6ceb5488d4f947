// Write → Validate, one iteration at a time. An iteration is recorded once, in its Candidate row
// (unique per rig, round, iteration): a decided row is read back as the Attempt it was; an
// undecided row keeps its spec (no new Write) and finishes its validation — waiting for the run
// recorded on it, or launching it under its name (rigRunId) so a run launched just before a crash
// is found rather than launched twice.

import { type LintResult, lintSummary } from '../../contracts/lint.ts';
import { DomainError } from '../errors.ts';
import type { HarnessSpec } from '../harness/spec.ts';
import type { LintJobInput } from '../lint/jobs.ts';
import { lintSpec } from '../lint/lint.ts';
import { lintPool } from '../lint/pool.ts';
import { componentProblem, describeWriteError, preflight } from './check.ts';
import { awaitBatch, rigRunId, rollouts, throwIfStopped } from './observe.ts';
import {
  type CandidateRow,
  candidateKey,
  createCandidate,
  decideCandidate,
  draftOfRow,
  recordValidationRun,
} from './records.ts';
import { type IterationResult, validationSummary } from './results.ts';
import { constraintsOf, type RoundEnv, rolloutCommon } from './round-env.ts';
import { decideByStats } from './stats.ts';
import type { Attempt, Batch, Decision, DesignContext, LintVerdict } from './types.ts';

export interface IterationsDone {
  iterations: IterationResult[];
  accepted: HarnessSpec | null;
  acceptedCandidateId: string | null;
}

export async function runIterations(env: RoundEnv, ctx: DesignContext): Promise<IterationsDone> {
  const done: IterationsDone = { iterations: [], accepted: null, acceptedCandidateId: null };
  if (ctx.diagnosis?.direction === 'none') {
    env.say(
      ctx.baseline.stats.n === 0
        ? 'the baseline has no scored episode: nothing to write'
        : 'the baseline is already inside the band: nothing to write',
    );
    return done;
  }
  for (let it = 0; it < env.input.maxIterations; it++) {
    throwIfStopped(env.signal);
    const step = await iteration(env, ctx, it);
    if (!step) {
      env.say('write: the designer has nothing left to try');
      break;
    }
    const { row, attempt } = step;
    ctx.attempts.push(attempt);
    done.iterations.push({
      iteration: it,
      candidateId: row.id,
      candidate: { spec: attempt.candidate.spec, rationale: attempt.candidate.rationale },
      ...(attempt.candidate.template ? { template: attempt.candidate.template } : {}),
      ...(attempt.writeError ? { writeError: attempt.writeError } : {}),
      ...(attempt.lint ? { lint: attempt.lint } : {}),
      validation: attempt.validation ? validationSummary(attempt.validation) : null,
      decision: attempt.decision,
      feedback: attempt.feedback,
    });
    if (attempt.decision === 'accept') {
      done.accepted = attempt.candidate.spec;
      done.acceptedCandidateId = row.id;
      break;
    }
  }
  return done;
}

/** One iteration: its recorded row (or a new Write), then its validation and decision if missing. */
async function iteration(
  env: RoundEnv,
  ctx: DesignContext,
  it: number,
): Promise<{ row: CandidateRow; attempt: Attempt } | undefined> {
  let row = env.progress.candidates.get(candidateKey(env.round, it));
  if (!row) {
    const draft = await env.designer.write(ctx);
    if (!draft) return undefined;
    // The row exists from Write on, so the studio shows the candidate (and its run) while it validates.
    row = await createCandidate(
      env.deps.db,
      { rigId: env.rigId, round: env.round, iteration: it },
      draft,
    );
  }
  if (!row.decision) {
    const decided = await validateAndDecide(env, ctx, row);
    if (decided.applied) return { row: decided.row, attempt: decided.attempt };
    // Another execution of the rig decided this iteration first: its record stands.
    row = decided.row;
  }
  return { row, attempt: await recordedAttempt(env, row) };
}

/** The Attempt a decided Candidate row stands for (its validation batch read from its run). */
async function recordedAttempt(env: RoundEnv, row: CandidateRow): Promise<Attempt> {
  const validation = row.validationRunId
    ? await awaitBatch(env.deps.rollouts, row.validationRunId, env.signal)
    : undefined;
  const lint = lintOfRow(row);
  return {
    iteration: row.iteration,
    candidate: draftOfRow(row),
    ...(row.writeError ? { writeError: row.writeError } : {}),
    ...(lint ? { lint } : {}),
    ...(validation ? { validation } : {}),
    decision: row.decision ?? 'reject',
    feedback: row.feedback ?? '',
  };
}

function validationSeeds(env: RoundEnv, it: number): number[] {
  const { k, seed } = env.input;
  return Array.from({ length: k }, (_, i) => seed + k * (it + 1) + i + env.round * 10_000);
}

/** Validates an undecided candidate (or finds it could not be) and records the decision. */
async function validateAndDecide(
  env: RoundEnv,
  ctx: DesignContext,
  row: CandidateRow,
): Promise<{ attempt: Attempt; applied: boolean; row: CandidateRow }> {
  const { deps, say } = env;
  const it = row.iteration;
  const draft = draftOfRow(row);
  const v = await validate(env, ctx, row);
  let attempt: Attempt;
  if (v.refuted) {
    const lastIteration = it === env.input.maxIterations - 1;
    say(
      `lint ${it + 1}: ${lintSummary(v.refuted)} — ${v.refuted.skippedRollouts} rollouts skipped`,
    );
    attempt = {
      iteration: it,
      candidate: draft,
      lint: v.refuted,
      decision: lastIteration ? 'reject' : 'refine',
      feedback: lintFeedback(v.refuted),
    };
  } else if (v.writeError !== undefined) {
    say(`write ${it + 1}: rejected before validation — ${v.writeError}`);
    attempt = {
      iteration: it,
      candidate: draft,
      writeError: v.writeError,
      decision: 'reject',
      feedback: v.writeError,
    };
  } else {
    attempt = await decide(env, ctx, { iteration: it, candidate: draft, validation: v.batch });
    say(`decision ${it + 1}: ${attempt.decision} — ${attempt.feedback}`);
  }
  const recorded = await decideCandidate(deps.db, row.id, {
    writeError: attempt.writeError ?? null,
    validationRunId: attempt.validation?.runId ?? null,
    stats: {
      ...(attempt.validation ? { ...attempt.validation.stats } : {}),
      ...(attempt.lint ? { lint: attempt.lint } : {}),
      ...(draft.template ? { template: draft.template } : {}),
      ...(draft.params !== undefined ? { params: draft.params } : {}),
    },
    decision: attempt.decision,
    feedback: attempt.feedback,
  });
  return { attempt, ...recorded };
}

/** The candidate's K fresh rollouts, or what keeps it from them (a write error, a lint refutation). */
async function validate(
  env: RoundEnv,
  ctx: DesignContext,
  row: CandidateRow,
): Promise<
  | { writeError: string; refuted?: undefined }
  | { refuted: LintVerdict; writeError?: undefined }
  | { writeError?: undefined; refuted?: undefined; batch: Batch }
> {
  const { deps, input } = env;
  const it = row.iteration;
  if (row.validationRunId) {
    return { batch: await awaitBatch(deps.rollouts, row.validationRunId, env.signal) };
  }
  const draft = draftOfRow(row);
  const seeds = validationSeeds(env, it);
  const outside = componentProblem(draft.spec, input.components);
  if (outside) return { writeError: outside };
  const writeError = await preflight(env.deps.bridges, draft.spec, env.taskId, seeds.slice(0, 1));
  if (writeError) return { writeError };
  if (input.lint) {
    const refuted = await lintGate(env, ctx, draft.spec, seeds[0] ?? input.seed);
    if (refuted) return { refuted };
  }
  env.say(`validate ${it + 1}: ${draft.template ?? 'candidate'} — ${input.k} fresh rollouts`);
  try {
    const batch = await rollouts(deps.rollouts, {
      ...rolloutCommon(env),
      spec: draft.spec,
      seeds,
      kind: 'validation',
      runId: rigRunId(env.rigId, env.round, it),
      onLaunched: (runId) => recordValidationRun(deps.db, row.id, runId),
    });
    return { batch };
  } catch (e) {
    // A run the rollout service refuses (code that fails to load there, a set-up it rejects) is
    // the candidate's fault: it goes back to Write like any other write error.
    if (!(e instanceof DomainError)) throw e;
    return { writeError: describeWriteError(e) };
  }
}

/**
 * Lint before Validate: a candidate no known winning sequence survives (the oracle re-planned from
 * its staged start, the baseline's own successes) is refuted without spending its K rollouts.
 */
async function lintGate(
  env: RoundEnv,
  ctx: DesignContext,
  spec: HarnessSpec,
  seed: number,
): Promise<LintVerdict | undefined> {
  const recorded = ctx.baseline.episodes
    .filter((e) => e.outcome === 'success' && e.trajectory.length > 0)
    .map((e) => ({
      episodeId: e.episodeId,
      seed: e.seed,
      actions: e.trajectory.map((s) => s.action),
    }));
  try {
    const r = await lintIsolated(env, { spec, seed, taskId: env.taskId, recorded });
    if (r.solvable !== 'refuted') return undefined;
    return {
      solvable: r.solvable,
      findings: r.findings,
      shortestKnown: r.shortestKnown,
      skippedRollouts: env.input.k,
    };
  } catch (e) {
    // A candidate lint cannot play is for Validate to judge, as before the gate existed.
    if (e instanceof DomainError) return undefined;
    throw e;
  }
}

/**
 * The heuristic designer's hooks are its own templates: linted here, like preflight. Code an LLM
 * wrote is linted in a worker whose watchdog stops a hook stuck in a built-in.
 */
async function lintIsolated(env: RoundEnv, input: LintJobInput): Promise<LintResult> {
  if (env.input.designer === 'heuristic') {
    return lintSpec(input.spec, {
      bridges: env.deps.bridges,
      seed: input.seed,
      recorded: input.recorded,
      ...(input.taskId !== undefined ? { taskId: input.taskId } : {}),
    });
  }
  const pool = lintPool();
  try {
    return await pool.job('lint', input);
  } finally {
    await pool.close();
  }
}

/** The iteration's feedback for Write: which node breaks solvability, where, and what to keep. */
export function lintFeedback(v: LintVerdict): string {
  const errors = v.findings.filter((f) => f.severity === 'error');
  const lines = errors.map((f) => {
    const at =
      f.step !== null ? ` (step ${f.step})` : f.setupStep ? ` (set-up action ${f.setupStep})` : '';
    return `${f.path}${at}: ${f.rule}: ${f.message}`;
  });
  return `Solvability lint refuted the candidate before Validate, so none of its ${v.skippedRollouts} rollouts were launched. ${lines.join(' ')}${v.shortestKnown !== null ? ` The shortest known winning sequence has ${v.shortestKnown} steps.` : ''} Write a candidate the task stays solvable under.`;
}

/** The lint verdict a decided row recorded (stats.lint), if the gate stopped it. */
function lintOfRow(row: CandidateRow): LintVerdict | undefined {
  const lint = (row.stats as { lint?: LintVerdict } | null)?.lint;
  return lint && lint.solvable === 'refuted' ? lint : undefined;
}

/** Validate: the K-sample statistics rule, with the designer's optional second opinion. */
async function decide(
  env: RoundEnv,
  ctx: DesignContext,
  a: { iteration: number; candidate: Attempt['candidate']; validation: Batch },
): Promise<Attempt> {
  const lastIteration = a.iteration === env.input.maxIterations - 1;
  const rule = decideByStats(a.validation.stats, constraintsOf(env.input), lastIteration);
  const attempt: Attempt = { ...a, decision: rule.decision, feedback: rule.feedback };
  if (!env.designer.decide) return attempt;
  const opinion = await env.designer.decide(ctx, attempt, rule);
  // The statistics rule has the last word on accepting (never 0%, never outside the band).
  const decision: Decision =
    rule.decision === 'accept'
      ? opinion.decision === 'accept'
        ? 'accept'
        : opinion.decision
      : rule.decision === 'refine' && opinion.decision === 'reject'
        ? 'reject'
        : rule.decision;
  return { ...attempt, decision, feedback: `${rule.feedback}. Designer: ${opinion.feedback}` };
}
