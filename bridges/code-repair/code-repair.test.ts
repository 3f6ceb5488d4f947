import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { ActionableEnv, StepResult } from '../core/types.ts';
import { CHECKOUT_ROOT } from './cleanup.ts';
import { allTasks, codeRepairBridge, findTask, liveResources, mutationsOf } from './index.ts';
import { PACKAGE_NAMES, packageHash } from './packages.ts';
import { taskPackages } from './tasks.ts';

const envs: ActionableEnv[] = [];
afterEach(async () => {
  await Promise.all(envs.splice(0).map((e) => e.close()));
});

async function open(taskId: string) {
  const env = await codeRepairBridge.create();
  envs.push(env);
  const reset = await env.reset({ taskId, seed: 0 });
  return { env, reset };
}

const step = (
  env: ActionableEnv,
  name: string,
  args: Record<string, string | number | boolean> = {},
) => env.step({ name, args });

/** A task whose bug the visible tests show, in the given package. */
const visibleTask = (pkg: string) =>
  allTasks().find((t) => t.package === pkg && t.visibleFailing.length > 0 && t.after.length === 1)!;

describe('the task set', () => {
  it('has at least 100 tasks over at least 5 packages, each with FAIL_TO_PASS tests', () => {
    const tasks = allTasks();
    expect(tasks.length).toBeGreaterThanOrEqual(100);
    expect(new Set(tasks.map((t) => t.package)).size).toBeGreaterThanOrEqual(5);
    for (const t of tasks) {
      expect(t.FAIL_TO_PASS.length).toBeGreaterThan(0);
      expect(t.FAIL_TO_PASS.some((id) => t.PASS_TO_PASS.includes(id))).toBe(false);
    }
    expect(new Set(tasks.map((t) => t.operator)).size).toBeGreaterThanOrEqual(6);
    expect(tasks.some((t) => t.visibleFailing.length === 0)).toBe(true);
  });

  it('was generated from the packages as they are now (regenerate with generate.ts)', () => {
    const hashes = taskPackages();
    for (const pkg of PACKAGE_NAMES) expect(hashes[pkg], pkg).toBe(packageHash(pkg));
  });

  it('mutation operators skip strings and comments', () => {
    const ms = mutationsOf('x.js', "const a = 'x < y'; // a + b\nif (n < 1) return 0;");
    expect(ms.every((m) => m.line === 2)).toBe(true);
    expect(ms.map((m) => m.operator)).toEqual(
      expect.arrayContaining(['flip-comparison', 'off-by-one', 'missing-guard']),
    );
  });
});

describe('tools', () => {
  it('the checkout has the bug and no hidden tests', async () => {
    const task = visibleTask('csv');
    const { env, reset } = await open(task.id);
    expect(reset.observation.text).toContain('Bug report for the `csv` package');
    const list = await step(env, 'list_files');
    expect(list.observation.text.split('\n')).toEqual([
      'package.json',
      'src/index.js',
      'test/csv.test.js',
    ]);
    const read = await step(env, 'read_file', {
      path: task.file,
      start: task.line,
      end: task.line,
    });
    expect(read.observation.text).toContain(`${task.line} | ${task.after[0]}`);
  });

  it('edit: exact replace, with clear errors when absent or ambiguous', async () => {
    const { env } = await open(visibleTask('money').id);
    const absent = await step(env, 'edit', { path: 'src/index.js', old: 'no such text', new: 'x' });
    expect(absent.info.invalid).toBe(true);
    expect(absent.observation.text).toMatch(/was not found in src\/index.js/);
    const ambiguous = await step(env, 'edit', {
      path: 'src/index.js',
      old: 'sameCurrency(a, b);',
      new: '',
    });
    expect(ambiguous.observation.text).toMatch(/occurs [2-9] times in src\/index.js; include more/);
    const outside = await step(env, 'read_file', { path: '../../etc/passwd' });
    expect(outside.observation.text).toMatch(/outside the repository/);
    const ok = await step(env, 'edit', {
      path: 'src/index.js',
      old: 'export function fromCents',
      new: 'export function fromCents',
    });
    expect(ok.observation.text).toMatch(/^Edited src\/index.js: replaced 1 occurrence/);
    expect(env.getEnvState()).toMatchObject({ edits: 1, filesChanged: [] });
  });

  it('search prints path:line matches and rejects a bad pattern', async () => {
    const { env } = await open(visibleTask('semver').id);
    const found = await step(env, 'search', { pattern: 'export function (gt|lt)\\b' });
    expect(found.observation.text).toMatch(
      /^2 matches .*\nsrc\/index.js:\d+: export function gt\(a, b\) \{/,
    );
    const bad = await step(env, 'search', { pattern: '(' });
    expect(bad.info.invalid).toBe(true);
  });
});

describe('episodes end to end (spawns node)', () => {
  it('inverting the mutation fixes the bug; the hidden tests agree; the checkout is removed', async () => {
    const task = visibleTask('lru');
    const { env } = await open(task.id);
    const before = await step(env, 'run_tests');
    expect(before.observation.text).toMatch(/\d+ tests: \d+ passed, [1-9]\d* failed\./);
    await step(env, 'edit', { path: task.file, old: task.after[0]!, new: task.before[0]! });
    const after = (await step(env, 'run_tests', { file: 'test/lru.test.js' })) as StepResult;
    expect(after.observation.text).toMatch(/ 0 failed\./);
    const done = await step(env, 'submit');
    expect(done).toMatchObject({ reward: 1, terminated: true });
    const verdict = await env.evaluate();
    expect(verdict.success).toBe(true);
    expect(verdict.metrics.failToPassPassed).toBe(task.FAIL_TO_PASS.length);
    await env.close();
    expect(liveResources()).toEqual({ dirs: [], groups: [] });
  });

  it('submitting the untouched checkout fails, and editing the tests does not help', async () => {
    const task = visibleTask('strfmt');
    const { env } = await open(task.id);
    const failing = findTask(task.id)!.visibleFailing[0]!.split('::')[1]!;
    // Deleting the failing test from the visible copy changes nothing: the verifier uses its own.
    await step(env, 'edit', {
      path: 'test/strfmt.test.js',
      old: `test('${failing}'`,
      new: `test.skip('${failing}'`,
    });
    const done = await step(env, 'submit');
    expect(done.reward).toBe(0);
    expect((await env.evaluate()).success).toBe(false);
  });

  it('a test run that never ends is killed at the limit, leaving no process', async () => {
    const task = visibleTask('interval');
    const { env } = await open(task.id);
    const { LIMITS } = await import('./env.ts');
    const saved = LIMITS.testTimeoutMs;
    LIMITS.testTimeoutMs = 1500;
    try {
      await step(env, 'edit', {
        path: 'src/index.js',
        old: 'export function length(interval) {',
        new: 'export function length(interval) {\n  while (interval) {}',
      });
      const r = await step(env, 'run_tests', { name: 'length of an interval' });
      expect(r.observation.text).toMatch(/killed after 1.5 s/);
      expect(liveResources().groups).toEqual([]);
    } finally {
      LIMITS.testTimeoutMs = saved;
    }
  });

  it('a crashing host leaves no checkout behind', () => {
    const script = fileURLToPath(new URL('./testing/crash.mts', import.meta.url));
    const run = spawnSync(process.execPath, ['--import', 'tsx', script, visibleTask('csv').id], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).not.toBe(0);
    const dir = /CHECKOUT (\S+)/.exec(run.stdout)?.[1];
    expect(dir, run.stderr).toBeDefined();
    expect(dir!.startsWith(CHECKOUT_ROOT)).toBe(true);
    expect(existsSync(dir!)).toBe(false);
    const pid = /PID (\d+)/.exec(run.stdout)?.[1];
    expect(readdirSync(CHECKOUT_ROOT).some((n) => n.startsWith(`${pid}-`))).toBe(false);
  });

  it('a terminated worker thread leaves no checkout once the process exits', () => {
    const script = fileURLToPath(new URL('./testing/worker-terminated.mts', import.meta.url));
    const run = spawnSync(process.execPath, ['--import', 'tsx', script, visibleTask('money').id], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    const dir = /CHECKOUT (\S+)/.exec(run.stdout)?.[1];
    expect(dir, run.stderr).toBeDefined();
    expect(existsSync(dir!)).toBe(false);
  });
});
