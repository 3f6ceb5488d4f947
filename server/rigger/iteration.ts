// Write → Validate, one iteration at a time. An iteration is recorded once, in its Candidate row
// (unique per rig, round, iteration): a decided row is read back as the Attempt it was; an
// undecided row keeps its spec (no new Write) and finishes its validation — waiting for the run
// recorded on it, or launching it under its name (rigRunId) so a run launched just before a crash
// is found rather than launched twice.

import { DomainError } from '../errors.ts';
import type { HarnessSpec } from '../harness/spec.ts';
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
import type { Attempt, Batch, Decision, DesignContext } from './types.ts';

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
  return {
    iteration: row.iteration,
    candidate: draftOfRow(row),
    ...(row.writeError ? { writeError: row.writeError } : {}),
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
  const v = await validate(env, row);
  let attempt: Attempt;
  if (v.writeError !== undefined) {
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
      ...(draft.template ? { template: draft.template } : {}),
      ...(draft.params !== undefined ? { params: draft.params } : {}),
    },
    decision: attempt.decision,
    feedback: attempt.feedback,
  });
  return { attempt, ...recorded };
}

/** The candidate's K fresh rollouts, or the write error that keeps it from them. */
async function validate(
  env: RoundEnv,
  row: CandidateRow,
): Promise<{ writeError: string } | { writeError?: undefined; batch: Batch }> {
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
