// The offline heuristic designer: rule-based diagnosis over trajectories, then a walk over a
// bridge's ordered candidate templates. Each template fixes the structure (what is scaffolded or made
// harder); a time-pressure budget is the fine knob that brings a too-easy variant into the band. The
// walk reads only earlier attempts and their K-sample statistics, so it is deterministic.
import type { Json } from '../../../../bridges/core/types.ts';
import { position } from '../../stats.ts';
import type {
  Attempt,
  CandidateDraft,
  DesignContext,
  Designer,
  DiagnosisReport,
  StoredDiagnosis,
} from '../../types.ts';
import { designFor } from './bridges.ts';
import { budgetContract, composeSpec, type Plan, tighterBudget } from './common.ts';
import type { Maker, Structural } from './design.ts';
import { heuristicDiagnosis } from './diagnose.ts';

interface Params {
  structural: number;
  name: string;
  budget?: number;
}

/** The rig's bridge's templates for a diagnosis (bridges.ts), none for a bridge without a module. */
async function structuralsFor(ctx: DesignContext, diagnosis: StoredDiagnosis): Promise<Maker[]> {
  const { label, direction } = diagnosis;
  if (direction === 'none') return [];
  const state = await ctx.initialState();
  return designFor(ctx.bridge)?.structurals(state, { label, direction }) ?? [];
}

function paramsOf(a: Attempt): Params | undefined {
  const p = a.candidate.params as Partial<Params> | undefined;
  if (!p || typeof p.structural !== 'number' || typeof p.name !== 'string') return undefined;
  return p.budget !== undefined
    ? { structural: p.structural, name: p.name, budget: p.budget }
    : { structural: p.structural, name: p.name };
}

/** Budgets already known too easy (upper bound) / too hard (lower bound) for a structural. */
function bracket(ctx: DesignContext, structural: number): { lo: number; hi: number } {
  let lo = 0;
  let hi = ctx.maxSteps + 1;
  for (const a of ctx.attempts) {
    const p = paramsOf(a);
    if (!p || p.structural !== structural || !a.validation) continue;
    const where = position(a.validation.stats, ctx.constraints);
    const b = p.budget ?? ctx.maxSteps + 1;
    if (
      where === 'too-easy' ||
      (where === 'steps-off' &&
        (a.validation.stats.meanSteps ?? 0) > (ctx.constraints.stepsBand?.[1] ?? Infinity))
    )
      hi = Math.min(hi, b);
    if (where === 'too-hard' || where === 'unsolvable') lo = Math.max(lo, b);
  }
  return { lo, hi };
}

/**
 * A budget for a structural from every episode seen under it. The budget only cuts episodes short, so
 * a success's length is a sample of the natural length; an episode cut at budget b is only known to
 * be longer than b. The estimate at B counts known lengths <= B over the samples that tell about B.
 */
function estimateBudget(
  ctx: DesignContext,
  structural: number,
  lo: number,
  hi: number,
): number | undefined {
  const known: number[] = [];
  const censored: number[] = [];
  let never = 0;
  for (const a of ctx.attempts) {
    const p = paramsOf(a);
    if (!p || p.structural !== structural || !a.validation) continue;
    for (const e of a.validation.episodes) {
      if (e.outcome === 'success') known.push(e.steps);
      else if (
        e.outcome === 'failure' &&
        p.budget !== undefined &&
        e.failureCategory === 'step_budget_exhausted' &&
        e.steps >= p.budget
      )
        censored.push(p.budget);
      else if (e.outcome === 'failure') never++;
    }
  }
  const [blo, bhi] = ctx.constraints.band;
  const mid = (blo + bhi) / 2;
  // The middle of the best plateau: fresh seeds scatter, so stay away from its edges.
  let best: { budget: number; end: number; gap: number } | undefined;
  for (let b = Math.max(2, lo + 1); b < Math.min(hi, ctx.maxSteps + 1); b++) {
    const informative = known.length + never + censored.filter((c) => c >= b).length;
    if (informative === 0) continue;
    const rate = known.filter((x) => x <= b).length / informative;
    const gap = Math.abs(rate - mid);
    if (!best || gap < best.gap - 1e-9) best = { budget: b, end: b, gap };
    else if (Math.abs(gap - best.gap) < 1e-9 && best.end === b - 1) best.end = b;
  }
  return best ? Math.floor((best.budget + best.end) / 2) : undefined;
}

export class HeuristicDesigner implements Designer {
  readonly name = 'heuristic';
  private makers: Maker[] | undefined;
  /** The diagnosis the makers were built for (a resumed rig reuses a recorded diagnosis). */
  private makersFor: StoredDiagnosis | undefined;

  async diagnose(ctx: DesignContext): Promise<DiagnosisReport> {
    this.makers = undefined;
    return heuristicDiagnosis(ctx.baseline, ctx.task, ctx.constraints, designFor(ctx.bridge));
  }

  private async draft(
    ctx: DesignContext,
    index: number,
    budgetIn?: number,
  ): Promise<CandidateDraft | undefined> {
    const makers = this.makers ?? [];
    if (index > makers.length) return undefined;
    let budget = budgetIn;
    let s: Structural | undefined;
    let structural = index;
    for (; structural < makers.length; structural++) {
      s = await makers[structural]?.(ctx);
      if (s) break;
    }
    if (!s) {
      // No template left: for a harder variant, time pressure on the original task is the last resort,
      // its first budget read from the baseline's successful episodes.
      if (ctx.diagnosis?.direction !== 'harder') return undefined;
      const steps = ctx.baseline.episodes
        .filter((e) => e.outcome === 'success')
        .map((e) => e.steps);
      const first = budget ?? tighterBudget(steps, ctx.baseline.stats.n, ctx.constraints.band);
      if (first === undefined) return undefined;
      budget = first;
      structural = makers.length;
      s = {
        name: 'time-pressure',
        plan: {},
        rationale:
          'Time pressure on the original task (no structural template applies, or each one missed the band).',
      };
    }
    const plan: Plan = { ...s.plan };
    let rationale = s.rationale;
    if (budget !== undefined) {
      plan.contracts = [...(plan.contracts ?? []), budgetContract(budget)];
      rationale += ` Contract: time pressure — the episode is cut after ${budget} agent steps (calibrated from the successful episodes' lengths so the success rate lands in the band).`;
    }
    const params: Params = {
      structural,
      name: s.name,
      ...(budget !== undefined ? { budget } : {}),
    };
    return {
      spec: composeSpec(ctx.baseSpec, plan),
      rationale,
      template: s.name,
      params: params as unknown as Json,
    };
  }

  async write(ctx: DesignContext): Promise<CandidateDraft | undefined> {
    const diagnosis = ctx.diagnosis ?? (await this.diagnose(ctx));
    if (diagnosis.direction === 'none') return undefined;
    if (!this.makers || this.makersFor !== diagnosis) {
      this.makers = await structuralsFor(ctx, diagnosis);
      this.makersFor = diagnosis;
    }
    const last = ctx.attempts.at(-1);
    const p = last ? paramsOf(last) : undefined;
    if (!last || !p) {
      return this.draft(ctx, 0);
    }
    if (last.lint) {
      // Lint refuted it without rollouts. A time budget below every known winning sequence is
      // loosened to at least the shortest one's length; any other refutation moves on.
      const short = last.lint.findings.some(
        (f) => f.rule === 'step-limit' && f.severity === 'error',
      );
      const need = last.lint.shortestKnown;
      if (short && need !== null && p.budget !== undefined && need <= ctx.maxSteps) {
        const { hi } = bracket(ctx, p.structural);
        const budget = estimateBudget(ctx, p.structural, need - 1, hi) ?? need;
        if (budget >= need) return this.draft(ctx, p.structural, budget);
      }
      return this.draft(ctx, p.structural + 1, p.budget);
    }
    if (last.writeError || !last.validation) return this.draft(ctx, p.structural + 1, p.budget);
    const stats = last.validation.stats;
    const where = position(stats, ctx.constraints);
    const { lo, hi } = bracket(ctx, p.structural);
    const tooLong =
      where === 'steps-off' &&
      (stats.meanSteps ?? 0) > (ctx.constraints.stepsBand?.[1] ?? Infinity);
    if (
      where === 'too-easy' ||
      tooLong ||
      ((where === 'too-hard' || where === 'unsolvable') && p.budget !== undefined)
    ) {
      const budget = estimateBudget(ctx, p.structural, lo, hi);
      if (budget !== undefined) return this.draft(ctx, p.structural, budget);
    }
    // broken: the template misfired on this policy; try the next one.
    return this.draft(ctx, p.structural + 1);
  }
}
