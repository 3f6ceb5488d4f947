// The validation service on a real worker pool and the real household bridge: every problem lands
// on the node it belongs to, and a hook that loops is a problem within two seconds, not a hang.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HarnessNode, HarnessSpec } from '../../contracts/spec.ts';
import { HarnessCodeError, InvalidSpecError } from '../errors.ts';
import { describeProblem, killedProblems, runnableSpec, validateSpec } from './validate.ts';
import { type ValidationPool, validationPool } from './validate-pool.ts';
import { specMessageProblem } from './validate-problems.ts';

const base = (task = 'train-0001'): HarnessNode => ({ type: 'base', bridge: 'household', task });
const contract = (code: string, env: HarnessNode = base()): HarnessNode => ({
  type: 'contract',
  code,
  env,
});
const spec = (env: HarnessNode): HarnessSpec => ({ version: 1, env });

let pool: ValidationPool;
beforeAll(async () => {
  pool = validationPool();
  // The worker's first job loads the bridges: keep that out of the timed cases below.
  await validateSpec(spec(base()), pool.runner);
}, 120_000);
afterAll(() => pool.close());

describe('validateSpec', () => {
  it('a spec that runs is valid, after a dry episode of a few steps', async () => {
    const result = await validateSpec(
      spec(contract("export function filterObservation(o) { return o.text + ' [h]'; }")),
      pool.runner,
    );
    expect(result).toMatchObject({ valid: true, problems: [] });
    expect(result.dryRun).toMatchObject({ seed: 0, steps: 3 });
  });

  it('a hook with a syntax error is a problem on its node, with line and column', async () => {
    const broken = 'export function filterAction(a) {\n  return a +;\n}';
    const result = await validateSpec(
      spec({ type: 'stage', actions: [], env: contract(broken) }),
      pool.runner,
    );
    expect(result.valid).toBe(false);
    expect(result.problems).toEqual([
      expect.objectContaining({ path: 'env.env', line: 2, column: 13, check: 'compile' }),
    ]);
    expect(result.problems[0]?.message).toMatch(/SyntaxError/);
  });

  it('every unknown task and bridge is reported on its leaf', async () => {
    const result = await validateSpec(
      spec({
        type: 'chain',
        mode: 'sequential',
        first: { type: 'base', bridge: 'nope', task: 'x' },
        second: base('train-99999'),
      }),
      pool.runner,
    );
    expect(result.valid).toBe(false);
    expect(result.problems.map((p) => [p.path, p.check])).toEqual([
      ['env.first', 'resolve'],
      ['env.second', 'resolve'],
    ]);
    expect(result.problems[1]?.message).toBe("unknown task 'train-99999' for bridge 'household'");
  });

  it('a set-up action the environment rejects is a problem on that Stage', async () => {
    const stage: HarnessNode = {
      type: 'stage',
      actions: [{ name: 'act', args: { command: 'fly to the moon' } }],
      env: base(),
    };
    const result = await validateSpec(
      spec({ type: 'chain', mode: 'sequential', first: base(), second: stage }),
      pool.runner,
    );
    expect(result.valid).toBe(false);
    expect(result.problems).toEqual([
      expect.objectContaining({ path: 'env.second', check: 'setup' }),
    ]);
    expect(result.problems[0]?.message).toMatch(/set-up action 1 of 1 \("fly to the moon"\)/);
  });

  it('a spec that does not parse names the node and the field', async () => {
    const result = await validateSpec(
      { version: 1, env: { type: 'stage', actions: [{ name: '', args: {} }], env: base() } },
      pool.runner,
    );
    expect(result.problems).toEqual([expect.objectContaining({ path: 'env', check: 'spec' })]);
    expect(result.problems[0]?.message).toMatch(/^actions\[0\]\.name: /);
  });

  it('a hook that loops is caught within about two seconds', async () => {
    const t0 = Date.now();
    const result = await validateSpec(
      spec(contract('export function filterAction(a) {\n  while (true) {}\n}')),
      pool.runner,
    );
    expect(Date.now() - t0).toBeLessThan(2_500);
    expect(result.valid).toBe(false);
    expect(result.problems).toEqual([expect.objectContaining({ path: 'env', check: 'dry-run' })]);
    expect(result.problems[0]?.message).toMatch(/filterAction ran longer than its 250 ms limit/);
  });

  // Last: the watchdog terminates the worker, and its replacement loads the bridges again.
  it('a hook stuck in a built-in is stopped by the watchdog, on the node that defines it', async () => {
    const stuck = "export function filterAction(a) {\n  for (;;) 'x'.repeat(1e7);\n}";
    const t0 = Date.now();
    const result = await validateSpec(
      spec(contract('export function filterObservation(o) { return o; }', contract(stuck))),
      pool.runner,
    );
    expect(Date.now() - t0).toBeLessThan(2_500);
    expect(result.problems).toEqual([
      expect.objectContaining({ path: 'env.env', check: 'dry-run' }),
    ]);
    expect(result.problems[0]?.message).toMatch(/filterAction exceeded its time limit/);
  }, 60_000);
});

describe('runnableSpec (the create / save guard)', () => {
  it('refuses what validation refuses, naming every problem', async () => {
    const error = await runnableSpec(spec(base('train-99999')), pool.runner).catch((e) => e);
    expect(error).toBeInstanceOf(InvalidSpecError);
    expect((error as Error).message).toBe(
      "the harness cannot run: env: unknown task 'train-99999' for bridge 'household'",
    );
  }, 60_000);
});

describe('problems without a pool', () => {
  it('a parser message becomes the node path and the field inside it', () => {
    expect(
      specMessageProblem('invalid harness spec: env.first.env.code: hook code is limited'),
    ).toEqual({ path: 'env.first.env', message: 'code: hook code is limited', check: 'spec' });
    expect(specMessageProblem('invalid harness spec: version: Invalid input')).toEqual({
      path: 'version',
      message: 'Invalid input',
      check: 'spec',
    });
  });

  it('a watchdog kill goes on the contracts that define the hook', () => {
    const hooks = new Map([
      ['env', ['filterObservation']],
      ['env.env', ['filterAction', 'modifyTransition']],
      ['env.env.env', ['filterAction']],
    ]);
    const kill = (hook: string) =>
      killedProblems(new HarnessCodeError(`hook ${hook} exceeded its time limit`, hook), hooks);
    expect(kill('filterObservation').map((p) => p.path)).toEqual(['env']);
    expect(kill('modifyTransition or filterObservation').map((p) => p.path)).toEqual([
      'env',
      'env.env',
    ]);
    expect(kill('filterAction')[0]?.message).toMatch(/one of the 2 nodes that define it/);
    expect(describeProblem({ path: 'env.env', message: 'x', line: 2, column: 5 })).toBe(
      'env.env 2:5: x',
    );
  });
});
