// The offline heuristic designer: rule-based diagnosis over trajectories, then a walk over a
// bridge's ordered candidate templates. Each template fixes the structure (what is scaffolded or made
// harder: hide the target, block a shortcut, require verification, scaffold); a template with a knob
// (how often a glance shows an object, how many repeats a scaffold allows …) is moved by bisection
// until the success rate lands in the band. The walk reads only earlier attempts and their K-sample
// statistics, so it is deterministic.
//
// A step cap (the time-pressure Contract) lands any rate in the band by cutting episodes short, and
// teaches no named skill. It is therefore gated: used only when the diagnosis is about efficiency
// (the episodes run out of steps, or the steps band is exceeded), or as the last resort once no
// other template landed in the band — and its rationale then says so.
import type { Json } from '../../../../bridges/core/types.ts';
import type { ComponentName } from '../../../../contracts/rigs.ts';
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
import type { Knob, Maker, Structural } from './design.ts';
import { heuristicDiagnosis } from './diagnose.ts';

/** The time-pressure template's name: alone, or `<template>+time-pressure` on another one. */
export const TIME_PRESSURE = 'time-pressure';

interface Params {
  structural: number;
  name: string;
  budget?: number;
  knob?: number;
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
  return {
    structural: p.structural,
    name: p.name,
    ...(typeof p.budget === 'number' ? { budget: p.budget } : {}),
    ...(typeof p.knob === 'number' ? { knob: p.knob } : {}),
  };
}

/** The components a plan uses. */
function planComponents(plan: Plan): ComponentName[] {
  const out: ComponentName[] = [];
  if (plan.stage && plan.stage.length > 0) out.push('stage');
  if (plan.contracts && plan.contracts.length > 0) out.push('contract');
  if (plan.chain) out.push('chain');
  return out;
}

/**
 * Whether the diagnosis is about efficiency — the episodes run out of steps, or the mean steps are
 * above the steps band — the one case where a step cap is a fitting lesson, not a last resort.
 */
export function aboutEfficiency(ctx: DesignContext): boolean {
  if (ctx.diagnosis?.label === 'runs-out-of-steps') return true;
  const hi = ctx.constraints.stepsBand?.[1];
  const mean = ctx.baseline.stats.meanSteps;
  return hi !== undefined && mean !== null && mean > hi;
}

/** The same base for a step cap: the same structural at the same knob value. */
function sameBase(p: Params | undefined, structural: number, knob: number | undefined): boolean {
  return p !== undefined && p.structural === structural && p.knob === knob;
}

/** Budgets already known too easy (upper bound) / too hard (lower bound) for a base. */
function bracket(
  ctx: DesignContext,
  structural: number,
  knob?: number,
): { lo: number; hi: number } {
  let lo = 0;
  let hi = ctx.maxSteps + 1;
  for (const a of ctx.attempts) {
    const p = paramsOf(a);
    if (!p || !sameBase(p, structural, knob) || !a.validation) continue;
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
  knob: number | undefined,
  lo: number,
  hi: number,
): number | undefined {
  const known: number[] = [];
  const censored: number[] = [];
  let never = 0;
  for (const a of ctx.attempts) {
    const p = paramsOf(a);
    if (!p || !sameBase(p, structural, knob) || !a.validation) continue;
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

/**
 * The next knob value for a structural, by bisection over what its attempts showed: too easy at v
 * moves towards harder, too hard (or 0%) towards easier. Undefined when the bracket is closed.
 */
function nextKnob(ctx: DesignContext, structural: number, knob: Knob): number | undefined {
  const harderIsLower = knob.harder === 'lower';
  // easyEnd: the easiest value known to be too hard; hardEnd: the hardest known to be too easy.
  let tooEasyAt: number | undefined;
  let tooHardAt: number | undefined;
  for (const a of ctx.attempts) {
    const p = paramsOf(a);
    if (!p || p.structural !== structural || p.knob === undefined || !a.validation) continue;
    if (p.budget !== undefined) continue;
    const where = position(a.validation.stats, ctx.constraints);
    if (where === 'too-easy') {
      // Harder than this is needed: keep the hardest value that was still too easy.
      if (tooEasyAt === undefined || (harderIsLower ? p.knob < tooEasyAt : p.knob > tooEasyAt))
        tooEasyAt = p.knob;
    } else if (where === 'too-hard' || where === 'unsolvable') {
      if (tooHardAt === undefined || (harderIsLower ? p.knob > tooHardAt : p.knob < tooHardAt))
        tooHardAt = p.knob;
    }
  }
  // The open interval between "too easy" and "too hard", defaulting to the knob's range.
  const easyEnd = tooEasyAt ?? (harderIsLower ? knob.max : knob.min);
  const hardEnd = tooHardAt ?? (harderIsLower ? knob.min : knob.max);
  let next = (easyEnd + hardEnd) / 2;
  if (knob.integer) next = harderIsLower ? Math.floor(next) : Math.ceil(next);
  else next = Math.round(next * 1000) / 1000;
  const width = Math.abs(easyEnd - hardEnd);
  if (knob.integer ? width < 2 : width < 0.06) return undefined;
  if (next === easyEnd || next === hardEnd) return undefined;
  return next;
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

  private allows(ctx: DesignContext, plan: Plan): boolean {
    return planComponents(plan).every((c) => ctx.components.includes(c));
  }

  /** The structural at `index` (or the next one that applies and keeps to the components). */
  private async structuralFrom(
    ctx: DesignContext,
    index: number,
    knob?: number,
  ): Promise<{ s: Structural; structural: number } | undefined> {
    const makers = this.makers ?? [];
    for (let i = index; i < makers.length; i++) {
      const s = await makers[i]?.(ctx, i === index ? knob : undefined);
      if (s && this.allows(ctx, s.plan)) return { s, structural: i };
    }
    return undefined;
  }

  private draftOf(
    ctx: DesignContext,
    s: Structural,
    structural: number,
    budget: number | undefined,
    why?: string,
  ): CandidateDraft {
    const plan: Plan = { ...s.plan };
    let rationale = s.rationale;
    if (budget !== undefined) {
      plan.contracts = [...(plan.contracts ?? []), budgetContract(budget)];
      rationale += ` Contract: a step cap — the episode is cut after ${budget} agent steps (calibrated from the successful episodes' lengths so the success rate lands in the band). ${why ?? ''}`;
    }
    const params: Params = {
      structural,
      name: s.name,
      ...(budget !== undefined ? { budget } : {}),
      ...(s.knob !== undefined ? { knob: s.knob.value } : {}),
    };
    const template =
      budget === undefined || s.name === TIME_PRESSURE ? s.name : `${s.name}+${TIME_PRESSURE}`;
    return {
      spec: composeSpec(ctx.baseSpec, plan),
      rationale: rationale.trim(),
      template,
      params: params as unknown as Json,
    };
  }

  /** The names of the templates tried so far, for a last resort's rationale. */
  private tried(ctx: DesignContext): string {
    const names = [...new Set(ctx.attempts.map((a) => paramsOf(a)?.name).filter(Boolean))];
    return names.length > 0 ? names.join(', ') : 'none applied';
  }

  /**
   * The last resort, once every template is tried: a step cap on the template that came closest
   * from the easy side (the lowest success rate above the band), or — in the harder direction — on
   * the original task when none did. A step cap cannot make a too-hard task easier.
   */
  private async lastResort(ctx: DesignContext): Promise<CandidateDraft | undefined> {
    if (!ctx.components.includes('contract')) return undefined;
    const why = `A step cap is the last resort here: no other template landed in the band (tried: ${this.tried(ctx)}).`;
    let closest: { p: Params; rate: number } | undefined;
    for (const a of ctx.attempts) {
      const p = paramsOf(a);
      if (!p || p.budget !== undefined || !a.validation) continue;
      if (position(a.validation.stats, ctx.constraints) !== 'too-easy') continue;
      const rate = a.validation.stats.successRate ?? 1;
      if (!closest || rate < closest.rate) closest = { p, rate };
    }
    if (closest) {
      const base = await this.structuralFrom(ctx, closest.p.structural, closest.p.knob);
      if (base && base.structural === closest.p.structural) {
        const { lo, hi } = bracket(ctx, closest.p.structural, closest.p.knob);
        const budget = estimateBudget(ctx, closest.p.structural, closest.p.knob, lo, hi);
        if (budget !== undefined) return this.draftOf(ctx, base.s, base.structural, budget, why);
      }
    }
    if (ctx.diagnosis?.direction !== 'harder') return undefined;
    const steps = ctx.baseline.episodes.filter((e) => e.outcome === 'success').map((e) => e.steps);
    const budget = tighterBudget(steps, ctx.baseline.stats.n, ctx.constraints.band);
    if (budget === undefined) return undefined;
    return this.draftOf(ctx, timePressure(), (this.makers ?? []).length, budget, why);
  }

  /** A step cap in play (efficiency, or the last resort): move its budget on the same base. */
  private async refineBudget(
    ctx: DesignContext,
    p: Params,
    why: string,
  ): Promise<CandidateDraft | undefined> {
    const { lo, hi } = bracket(ctx, p.structural, p.knob);
    const budget = estimateBudget(ctx, p.structural, p.knob, lo, hi);
    if (budget === undefined || budget === p.budget) return undefined;
    const base =
      p.name === TIME_PRESSURE
        ? { s: timePressure(), structural: p.structural }
        : await this.structuralFrom(ctx, p.structural, p.knob);
    if (!base || base.structural !== p.structural) return undefined;
    return this.draftOf(ctx, base.s, p.structural, budget, why);
  }

  async write(ctx: DesignContext): Promise<CandidateDraft | undefined> {
    const diagnosis = ctx.diagnosis ?? (await this.diagnose(ctx));
    if (diagnosis.direction === 'none') return undefined;
    if (!this.makers || this.makersFor !== diagnosis) {
      this.makers = await structuralsFor(ctx, diagnosis);
      this.makersFor = diagnosis;
    }
    const efficiency = aboutEfficiency(ctx) && ctx.components.includes('contract');
    const EFFICIENCY =
      'The diagnosis is about efficiency (the episodes run out of steps), so the lesson is the budget itself.';
    const fresh = async (index: number): Promise<CandidateDraft | undefined> => {
      const next = await this.structuralFrom(ctx, index);
      if (next) return this.draftOf(ctx, next.s, next.structural, undefined);
      return this.lastResort(ctx);
    };
    const last = ctx.attempts.at(-1);
    const p = last ? paramsOf(last) : undefined;
    if (!last || !p) return fresh(0);
    if (last.lint) {
      // Lint refuted it without rollouts. A step cap below every known winning sequence is
      // loosened to at least the shortest one's length; any other refutation moves on.
      const short = last.lint.findings.some(
        (f) => f.rule === 'step-limit' && f.severity === 'error',
      );
      const need = last.lint.shortestKnown;
      if (short && need !== null && p.budget !== undefined && need <= ctx.maxSteps) {
        const base =
          p.name === TIME_PRESSURE
            ? { s: timePressure(), structural: p.structural }
            : await this.structuralFrom(ctx, p.structural, p.knob);
        if (base && base.structural === p.structural) {
          const { hi } = bracket(ctx, p.structural, p.knob);
          const budget = estimateBudget(ctx, p.structural, p.knob, need - 1, hi) ?? need;
          if (budget >= need)
            return this.draftOf(
              ctx,
              base.s,
              p.structural,
              budget,
              'The lint found the step cap shorter than every known winning sequence, so it is loosened to at least the shortest.',
            );
        }
      }
      return fresh(p.structural + 1);
    }
    if (last.writeError || !last.validation) {
      return p.budget !== undefined && !efficiency ? undefined : fresh(p.structural + 1);
    }
    const stats = last.validation.stats;
    const where = position(stats, ctx.constraints);
    const tooLong =
      where === 'steps-off' &&
      (stats.meanSteps ?? 0) > (ctx.constraints.stepsBand?.[1] ?? Infinity);
    const missed = where === 'too-easy' || where === 'too-hard' || where === 'unsolvable';

    // A step cap in play: the last resort keeps moving its budget; efficiency may move on.
    if (p.budget !== undefined) {
      const why = efficiency
        ? EFFICIENCY
        : `A step cap is the last resort here: no other template landed in the band (tried: ${this.tried(ctx)}).`;
      const refined = missed || tooLong ? await this.refineBudget(ctx, p, why) : undefined;
      if (refined || !efficiency) return refined;
      return fresh(p.structural + 1);
    }
    // 1. A knob: move it (bisection) before giving the template up.
    const current = await this.structuralFrom(ctx, p.structural, p.knob);
    const own = current && current.structural === p.structural ? current.s : undefined;
    if (own?.knob && missed) {
      const value = nextKnob(ctx, p.structural, own.knob);
      if (value !== undefined) {
        const moved = await this.structuralFrom(ctx, p.structural, value);
        if (moved && moved.structural === p.structural)
          return this.draftOf(ctx, moved.s, p.structural, undefined);
      }
    }
    // 2. A step cap, when the diagnosis is about efficiency (the lesson is the budget).
    if (efficiency && own && (where === 'too-easy' || tooLong)) {
      const drafted = await this.refineBudget(ctx, p, EFFICIENCY);
      if (drafted) return drafted;
    }
    // 3. The next template.
    return fresh(p.structural + 1);
  }
}

/** Time pressure on the task as it is (no other structure). */
function timePressure(): Structural {
  return {
    name: TIME_PRESSURE,
    plan: {},
    rationale: 'Time pressure on the original task.',
  };
}
