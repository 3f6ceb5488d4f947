// The paper's code-repair harness templates behave as described through the harness engine, and
// code-repair can be wrapped by Stage and Chain like any bridge.
import { describe, expect, it } from 'vitest';
import { allTasks } from '../../../bridges/code-repair/index.ts';
import { codeRepairTemplateSpec } from '../../../bridges/code-repair/templates/index.ts';
import { builtInBridges } from '../../../bridges/index.ts';
import { createHarness, type HarnessSpec } from '../../harness/index.ts';

const task = allTasks().find((t) => t.id === 'interval__wrong-function-L98')!;
const fix = { path: task.file, old: task.after[0]!, new: task.before[0]! };

describe('code-repair harness templates', () => {
  it('require-failing-test-run blocks submit until the failing test ran', async () => {
    const h = await createHarness(codeRepairTemplateSpec(task.id, ['require-failing-test-run']), {
      bridges: builtInBridges,
    });
    await h.reset({ seed: 0 });
    const early = await h.step({ name: 'submit', args: {} });
    expect(early.observation.text).toBe(
      'Submit is blocked: run the failing test first (run_tests).',
    );
    expect(early.record.executedAction).toBeNull();
    expect(early.terminated).toBe(false);
    // A run that does not include the failing test is not enough.
    await h.step({ name: 'run_tests', args: { name: 'length of an interval' } });
    const still = await h.step({ name: 'submit', args: {} });
    expect(still.observation.text).toContain(
      `run the failing test first: ${task.visibleFailing[0]}`,
    );
    await h.step({ name: 'edit', args: fix });
    await h.step({ name: 'run_tests', args: { file: 'test/interval.test.js' } });
    const done = await h.step({ name: 'submit', args: {} });
    expect(done.terminated).toBe(true);
    expect((await h.evaluate()).success).toBe(true);
    await h.close();
  });

  it('broken-test-entry-point fails run_tests without a file; with a file it works', async () => {
    const h = await createHarness(codeRepairTemplateSpec(task.id, ['broken-test-entry-point']), {
      bridges: builtInBridges,
    });
    await h.reset({ seed: 0 });
    const broken = await h.step({ name: 'run_tests', args: {} });
    expect(broken.observation.text).toMatch(/Cannot find module '.\/test\/index.js'/);
    expect(h.getEnvState()).toMatchObject({ testRunCount: 0 });
    const direct = await h.step({ name: 'run_tests', args: { file: 'test/interval.test.js' } });
    expect(direct.observation.text).toMatch(/^12 tests: 11 passed, 1 failed\./);
    await h.close();
  });

  it('no-bulk-edits refuses replace_all and multi-line rewrites, allows a one-line fix', async () => {
    const h = await createHarness(
      codeRepairTemplateSpec(task.id, ['no-bulk-edits', 'require-failing-test-run']),
      { bridges: builtInBridges },
    );
    await h.reset({ seed: 0 });
    const all = await h.step({
      name: 'edit',
      args: { path: 'src/index.js', old: 'interval', new: 'iv', replace_all: true },
    });
    expect(all.observation.text).toMatch(/^Bulk edits are disabled: replace_all/);
    const many = await h.step({
      name: 'edit',
      args: { path: 'src/index.js', old: 'a\nb\nc\nd', new: '' },
    });
    expect(many.observation.text).toMatch(/at most 3 lines per edit \(this one replaces 4\)/);
    const one = await h.step({ name: 'edit', args: fix });
    expect(one.observation.text).toMatch(/^Edited src\/index.js/);
    expect(h.getEnvState()).toMatchObject({ edits: 1, filesChanged: ['src/index.js'] });
    await h.close();
  });

  it('Stage pre-runs the tests without counting the step', async () => {
    const spec: HarnessSpec = {
      version: 1,
      env: {
        type: 'stage',
        actions: [{ name: 'run_tests', args: { file: 'test/interval.test.js' } }],
        env: { type: 'base', bridge: 'code-repair', task: task.id },
      },
    };
    const h = await createHarness(spec, { bridges: builtInBridges });
    await h.reset({ seed: 0 });
    expect(h.agentSteps).toBe(0);
    // The set-up's test run leaves no trace in the counters (Stage's afterSetup); what it found stays.
    expect(h.getEnvState()).toMatchObject({ testRunCount: 0, failingTests: task.visibleFailing });
    expect((await h.evaluate()).metrics.testRuns).toBe(0);
    await h.close();
  });

  it('Chain: a repair then a toy24 game; the composite needs both verdicts', async () => {
    const h = await createHarness(
      {
        version: 1,
        env: {
          type: 'chain',
          mode: 'sequential',
          first: { type: 'base', bridge: 'code-repair', task: task.id },
          second: { type: 'base', bridge: 'toy24', task: '1-2-3-4' },
        },
      },
      { bridges: builtInBridges },
    );
    await h.reset({ seed: 0 });
    await h.step({ name: 'edit', args: fix });
    await h.step({ name: 'submit', args: {} });
    expect(h.getEnvState()).toMatchObject({ task: '1-2-3-4' });
    for (const [a, op, b] of [
      [1, '*', 2],
      [2, '*', 3],
      [6, '*', 4],
    ] as const)
      await h.step({ name: 'combine', args: { a, op, b } });
    const verdict = await h.evaluate();
    expect(verdict).toMatchObject({ success: true, metrics: { leg0_success: 1, leg1_success: 1 } });
    await h.close();
  });
});
