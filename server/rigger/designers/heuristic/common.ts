// Building blocks every bridge's templates share: composing a candidate from layers, and the
// time-pressure Contract whose budget is the fine knob that calibrates a variant into the band.
import type { Action } from '../../../../bridges/core/types.ts';
import type { ContractRule } from '../../../../contracts/contract-rules.ts';
import type { StageIntro } from '../../../../contracts/spec.ts';
import type { HarnessNode, HarnessSpec } from '../../../harness/spec.ts';

export interface Plan {
  /** Set-up actions replayed after reset (Stage), innermost. */
  stage?: Action[];
  /**
   * The Stage's first observation: `state` when the set-up moves the agent somewhere the reset text
   * does not describe (a web page, a document read); absent: the paper's `reset`.
   */
  stageIntro?: StageIntro;
  /**
   * Contracts, inner to outer: hook code, or declarative rules where rules can say it (they run
   * natively, without a sandbox).
   */
  contracts?: (string | ContractRule[])[];
  /** A second task chained after the first (sequential). */
  chain?: HarnessNode;
}

export function composeSpec(base: HarnessSpec, plan: Plan): HarnessSpec {
  let env: HarnessNode = base.env;
  if (plan.stage && plan.stage.length > 0)
    env = {
      type: 'stage',
      actions: plan.stage,
      ...(plan.stageIntro ? { intro: plan.stageIntro } : {}),
      env,
    };
  if (plan.chain) env = { type: 'chain', mode: 'sequential', first: env, second: plan.chain };
  for (const c of plan.contracts ?? []) {
    env =
      typeof c === 'string'
        ? { type: 'contract', code: c, env }
        : { type: 'contract', rules: c, env };
  }
  return { version: 1, env };
}

/** Cuts the episode after `budget` agent steps; the verifier and the reward are untouched. */
export function budgetContract(budget: number): string {
  return `// Time pressure: the episode is cut after ${budget} agent steps (the verifier is untouched).
let used = 0;
export function modifyTransition(action, result) {
  used += 1;
  if (used >= ${budget} && !result.terminated && !result.truncated) {
    return {
      ...result,
      truncated: true,
      observation: { text: result.observation.text + '\\n[Out of time: ${budget} steps used.]' },
    };
  }
  if (used === ${Math.max(1, budget - 5)} && !result.terminated) {
    return { ...result, info: { ...result.info, stepsLeft: ${budget} - used } };
  }
  return result;
}
`;
}

/**
 * A budget under which about the middle of the band of `steps` (the successful episodes' lengths)
 * would still succeed; `below` caps it (a refinement only ever tightens an existing budget).
 */
export function tighterBudget(
  successSteps: number[],
  n: number,
  band: readonly [number, number],
  below?: number,
): number | undefined {
  const sorted = [...successSteps].sort((a, b) => a - b);
  if (sorted.length === 0) return undefined;
  // Aim at the lower middle of the band: fresh seeds scatter around what this sample suggests.
  const want = Math.max(
    1,
    Math.ceil(n * band[0] - 1e-9),
    Math.floor(n * ((band[0] + band[1]) / 2)),
  );
  let budget = sorted[Math.min(want, sorted.length) - 1] ?? sorted[0] ?? 1;
  if (below !== undefined && budget >= below) budget = below - Math.max(1, Math.round(below * 0.1));
  return budget >= 2 ? budget : undefined;
}

/** A looser budget halfway towards the run's own limit. */
export function looserBudget(current: number, maxSteps: number): number | undefined {
  if (current >= maxSteps) return undefined;
  return Math.min(maxSteps, current + Math.max(2, Math.ceil((maxSteps - current) / 2)));
}
