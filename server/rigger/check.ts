// Write's gate before any rollout: the candidate must parse, its hook code must compile and its
// Stage set-up must replay on every seed it will be validated on. The error comes back worded so a
// designer (rule-based or LLM) can repair the candidate.
import type { Action, BridgeResolver } from '../../bridges/core/types.ts';
import { type ComponentName, componentsText } from '../../contracts/rigs.ts';
import { nodePaths } from '../../contracts/spec.ts';
import { DomainError, HarnessCodeError, StageSetupError } from '../errors.ts';
import { createHarness, parseSpec } from '../harness/index.ts';
import type { HarnessSpec } from '../harness/spec.ts';
import type { TryResult } from './types.ts';

export function describeWriteError(e: unknown): string {
  if (e instanceof HarnessCodeError) {
    const where =
      e.line !== undefined
        ? ` at line ${e.line}${e.column !== undefined ? `, column ${e.column}` : ''}`
        : '';
    return `the Contract code does not compile or run${where}${e.hook ? ` (hook ${e.hook})` : ''}: ${e.message}. Fix the code and propose the candidate again.`;
  }
  if (e instanceof StageSetupError) {
    return `the environment rejected Stage set-up action #${e.actionIndex + 1}: ${e.message}. Use only commands that are admissible at that point of the set-up (the replayed actions run in order from the reset state).`;
  }
  if (e instanceof DomainError) return `${e.name}: ${e.message}`;
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

/** The components a spec uses (its Stage, Contract and Chain nodes). */
export function componentsOf(spec: HarnessSpec): ComponentName[] {
  const used = new Set<ComponentName>();
  for (const { node } of nodePaths(spec.env)) if (node.type !== 'base') used.add(node.type);
  return [...used];
}

/**
 * Why a candidate may not be validated under the rig's components (paper mode: Stage and Contract
 * only), worded for the designer, or undefined when it keeps to them.
 */
export function componentProblem(
  spec: HarnessSpec,
  allowed: readonly ComponentName[],
): string | undefined {
  const extra = componentsOf(spec).filter((c) => !allowed.includes(c));
  if (extra.length === 0) return undefined;
  return `the candidate uses ${extra.join(' and ')}, which this rig may not write (components: ${componentsText(allowed)}); propose a candidate made of ${allowed.join(' and ')} only.`;
}

/** Undefined when the candidate is sound on every seed, else the designer-facing error. */
export async function preflight(
  bridges: BridgeResolver,
  spec: HarnessSpec,
  taskId: string,
  seeds: number[],
): Promise<string | undefined> {
  let harness: Awaited<ReturnType<typeof createHarness>> | undefined;
  try {
    const parsed = parseSpec(spec);
    harness = await createHarness(parsed, { bridges });
    for (const seed of seeds) await harness.reset({ seed, taskId });
    return undefined;
  } catch (e) {
    return describeWriteError(e);
  } finally {
    await harness?.close().catch(() => {});
  }
}

/** Replays actions on a fresh environment of `spec` (reset with `seed`) and reports every reply. */
export async function tryActions(
  bridges: BridgeResolver,
  spec: HarnessSpec,
  taskId: string,
  seed: number,
  actions: Action[],
): Promise<TryResult[]> {
  const harness = await createHarness(parseSpec(spec), { bridges });
  try {
    await harness.reset({ seed, taskId });
    const out: TryResult[] = [];
    for (const a of actions) {
      const r = await harness.step(a);
      out.push({
        text: r.observation.text,
        invalid: r.record.invalid,
        ...(r.info.admissibleCommands ? { admissible: r.info.admissibleCommands } : {}),
      });
    }
    return out;
  } finally {
    await harness.close().catch(() => {});
  }
}

export async function initialState(
  bridges: BridgeResolver,
  spec: HarnessSpec,
  taskId: string,
  seed: number,
) {
  const harness = await createHarness(parseSpec(spec), { bridges });
  try {
    await harness.reset({ seed, taskId });
    return harness.getEnvState();
  } finally {
    await harness.close().catch(() => {});
  }
}
