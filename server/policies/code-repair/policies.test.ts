// The scripted code-repair policies show their documented behaviour (few node spawns: test runs
// are cached by file content inside the bridge).
import { describe, expect, it } from 'vitest';
import { allTasks, codeRepairBridge, findTask } from '../../../bridges/code-repair/index.ts';
import { getPolicy, listPolicies } from '../index.ts';
import { play } from '../testing/play.ts';
import { candidates, functionBody, numberedLines, parseTestRun, reportedSymbol } from './agent.ts';

const DAYS = 'interval__wrong-function-L98';

describe('agent parsing', () => {
  it('reads test summaries, symbols and function bodies', () => {
    expect(parseTestRun('3 tests: 2 passed, 1 failed.\nFAIL test/a.test.js::x y\n  msg')).toEqual({
      total: 3,
      failed: 1,
      failing: ['test/a.test.js'],
    });
    expect(reportedSymbol('... The behaviour involves `LRUCache.get`. ...')).toBe('LRUCache.get');
    const lines = numberedLines(
      'f (lines 1-5 of 5)\n1 | function f(a) {\n2 |   if (a < 1) {\n3 |     return 0;\n4 |   }\n5 | }',
    );
    expect(functionBody(lines, 1)).toEqual([1, 2, 3, 4, 5]);
    expect(candidates(lines, [2]).map((c) => c.to)).toContain('  if (a <= 1) {');
  });
});

describe('scripted code-repair policies', () => {
  it('are listed for code-repair', () => {
    expect(listPolicies('code-repair').map((d) => d.id)).toEqual(
      expect.arrayContaining([
        'scripted:code-repair-careful',
        'scripted:code-repair-hasty',
        'scripted:code-repair-first-match',
      ]),
    );
  });

  it('careful runs the failing tests, tries fixes and succeeds on a visible bug', async () => {
    expect(findTask(DAYS)).toBeDefined();
    const r = await play(codeRepairBridge, getPolicy('scripted:code-repair-careful'), {
      taskId: DAYS,
      seed: 0,
    });
    expect(r.success).toBe(true);
    expect(r.commands[0]).toMatch(/^run_tests/);
    expect(r.commands.at(-1)).toMatch(/^submit/);
    expect(r.commands.filter((c) => c.startsWith('run_tests')).length).toBeGreaterThanOrEqual(2);
  });

  it('careful trusts passing visible tests and submits a hidden-only bug unchanged', async () => {
    const hidden = allTasks().find((t) => t.visibleFailing.length === 0)!;
    const r = await play(codeRepairBridge, getPolicy('scripted:code-repair-careful'), {
      taskId: hidden.id,
      seed: 0,
    });
    expect(r.success).toBe(false);
    expect(r.commands.map((c) => c.split(' ')[0])).toEqual(['run_tests', 'submit']);
  });

  it('hasty submits without running a single test', async () => {
    const r = await play(codeRepairBridge, getPolicy('scripted:code-repair-hasty'), {
      taskId: DAYS,
      seed: 0,
    });
    expect(r.commands.some((c) => c.startsWith('run_tests'))).toBe(false);
    expect(r.commands.map((c) => c.split(' ')[0])).toEqual([
      'search',
      'read_file',
      'edit',
      'submit',
    ]);
  });

  it('first-match edits at the first search hit and submits even when tests fail', async () => {
    const r = await play(codeRepairBridge, getPolicy('scripted:code-repair-first-match'), {
      taskId: DAYS,
      seed: 0,
    });
    expect(r.commands.map((c) => c.split(' ')[0])).toEqual([
      'run_tests',
      'search',
      'read_file',
      'edit',
      'run_tests',
      'submit',
    ]);
    expect(r.observations.at(-2)).toMatch(/[1-9]\d* failed\./);
    expect(r.success).toBe(false);
  });

  it('policy seeds change the order of candidate fixes (GRPO groups need G different plays)', async () => {
    const plays = [];
    for (const seed of [0, 1, 2, 3]) {
      plays.push(
        await play(codeRepairBridge, getPolicy('scripted:code-repair-careful'), {
          taskId: DAYS,
          seed,
        }),
      );
    }
    expect(plays.every((p) => p.success)).toBe(true);
    expect(new Set(plays.map((p) => p.commands.join('|'))).size).toBeGreaterThan(1);
  });
});
