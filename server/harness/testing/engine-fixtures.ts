// Shared fixtures of the engine tests (engine.test.ts, chain.test.ts, spec-stack.test.ts): specs over
// the fake bridges, two contracts, a harness builder and the raw-env verdict the paper's invariant
// compares against.
import type { Action, ActionableEnv, Evaluation } from '../../../bridges/core/types.ts';
import { createHarness, type Harness, type HarnessNode, type HarnessSpec } from '../index.ts';
import { act, fakeBridges } from './fake-bridges.ts';

export { act };

export const room = (task = 'key-in-box'): HarnessNode => ({ type: 'base', bridge: 'room', task });
export const counter: HarnessNode = { type: 'base', bridge: 'counter', task: 'reach-5' };
export const spec = (env: HarnessNode): HarnessSpec => ({ version: 1, env });
export const add = (n: number): Action => ({ name: 'add', args: { n } });

export const BLOCK_TAKE = `export function filterAction(action) {
  if (String(action.args.command).startsWith('take')) return { blocked: 'Taking is not allowed here.' };
}`;

/** Hooks that change everything they may change (action, transition, observation, reward). */
export const BUSY_CONTRACT = `
export function filterAction(action, state) {
  if (action.args.command === 'grab key') return { name: 'act', args: { command: 'take key' } };
  return action;
}
export function modifyTransition(action, result, state) {
  return { ...result, reward: 1000, observation: { text: result.observation.text + ' [seen]' } };
}
export function filterObservation(observation, state) {
  return observation.text.toUpperCase();
}`;

export async function build(s: HarnessSpec) {
  const fakes = fakeBridges();
  const harness = await createHarness(s, { bridges: fakes.bridges });
  return { harness, fakes };
}

/** Replays what actually reached the base env on a fresh raw env: the verifier must agree. */
export async function rawVerdict(
  fakes: ReturnType<typeof fakeBridges>,
  bridge: 'room' | 'counter',
  taskId: string,
  seed: number,
  executed: Action[],
): Promise<Evaluation> {
  const env: ActionableEnv = await fakes[bridge].create();
  await env.reset({ taskId, seed });
  for (const a of executed) await env.step(a);
  return env.evaluate();
}

export async function run(h: Harness, actions: Action[]) {
  const records = [];
  for (const a of actions) records.push((await h.step(a)).record);
  return records;
}
