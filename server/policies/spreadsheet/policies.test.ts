// Scripted spreadsheet policies show their weaknesses; the bridge wraps under Stage/Contract/Chain.
import { describe, expect, it } from 'vitest';
import { builtInBridges } from '../../../bridges/index.ts';
import { allTasks, spreadsheetBridge } from '../../../bridges/spreadsheet/index.ts';
import { createHarness } from '../../harness/index.ts';
import { getPolicy, listPolicies } from '../index.ts';
import { play } from '../testing/play.ts';
import { parseRows } from './policies.ts';

const first = (family: string) => allTasks().find((t) => t.family === family)!.info.id;
const run = (policy: string, taskId: string) =>
  play(spreadsheetBridge, getPolicy(policy), { taskId, seed: 0 });

describe('scripted spreadsheet policies', () => {
  it('parse read_range rows', () => {
    expect(parseRows('S!A1:B2 (row | A | B)\n1 | x | 3 (=1+2)\n2 | y | ')).toEqual([
      ['x', '3'],
      ['y', ''],
    ]);
  });

  it('are listed; the formula writer solves one task of every family', async () => {
    expect(listPolicies('spreadsheet').map((d) => d.id)).toEqual(
      expect.arrayContaining([
        'scripted:spreadsheet-formulas',
        'scripted:spreadsheet-off-by-one',
        'scripted:spreadsheet-header-blind',
      ]),
    );
    for (const family of ['row-sum', 'aggregate', 'sort-desc', 'region-summary', 'share']) {
      const r = await run('scripted:spreadsheet-formulas', first(family));
      expect(r.success, family).toBe(true);
    }
  });

  it('off-by-one misses the last row; header-blind breaks sorting and summaries only', async () => {
    expect((await run('scripted:spreadsheet-off-by-one', first('row-sum'))).success).toBe(false);
    expect((await run('scripted:spreadsheet-header-blind', first('row-sum'))).success).toBe(true);
    expect((await run('scripted:spreadsheet-header-blind', first('sort-desc'))).success).toBe(
      false,
    );
    expect((await run('scripted:spreadsheet-header-blind', first('region-summary'))).success).toBe(
      false,
    );
  });
});

describe('spreadsheet under the harness engine', () => {
  const task = first('row-sum');
  const n = Number(/D2:D(\d+)/.exec(allTasks().find((t) => t.info.id === task)!.info.goal)![1]);
  const fill = {
    name: 'write_range',
    args: {
      start: 'Sales!D2',
      values: Array.from({ length: n - 1 }, (_, i) => [`=B${i + 2}+C${i + 2}`]),
    },
  };

  it('Stage pre-fills the totals; the agent only submits', async () => {
    const h = await createHarness(
      {
        version: 1,
        env: { type: 'stage', actions: [fill], env: { type: 'base', bridge: 'spreadsheet', task } },
      },
      { bridges: builtInBridges },
    );
    await h.reset({ seed: 0 });
    expect(h.agentSteps).toBe(0);
    await h.step({ name: 'submit', args: {} });
    expect((await h.evaluate()).success).toBe(true);
    await h.close();
  });

  it('Contract forbids typed values: only formulas may be written', async () => {
    const code = `export function filterAction(action) {
      if (action.name === 'write_cell' && action.args.value !== undefined && !String(action.args.value).startsWith('=')) {
        return { blocked: 'Write a formula, not a value.' };
      }
    }`;
    const h = await createHarness(
      {
        version: 1,
        env: { type: 'contract', code, env: { type: 'base', bridge: 'spreadsheet', task } },
      },
      { bridges: builtInBridges },
    );
    await h.reset({ seed: 0 });
    const r = await h.step({ name: 'write_cell', args: { cell: 'Sales!D2', value: 5 } });
    expect(r.observation.text).toBe('Write a formula, not a value.');
    expect(h.getEnvState()).toMatchObject({ writes: 0 });
    await h.close();
  });

  it('Chain: spreadsheet then toy24, verdict per leg', async () => {
    const h = await createHarness(
      {
        version: 1,
        env: {
          type: 'chain',
          mode: 'sequential',
          first: { type: 'base', bridge: 'spreadsheet', task },
          second: { type: 'base', bridge: 'toy24', task: '1-2-3-4' },
        },
      },
      { bridges: builtInBridges },
    );
    await h.reset({ seed: 0 });
    await h.step(fill);
    await h.step({ name: 'submit', args: {} });
    await h.step({ name: 'combine', args: { a: 1, op: '+', b: 2 } });
    await h.step({ name: 'combine', args: { a: 3, op: '+', b: 3 } });
    await h.step({ name: 'combine', args: { a: 6, op: '+', b: 4 } });
    const verdict = await h.evaluate();
    expect(verdict.success).toBe(false);
    expect(verdict.metrics).toMatchObject({ leg0_success: 1, leg1_success: 0 });
    await h.close();
  });
});

describe('policy seeds', () => {
  it('change the scripted spreadsheet agent’s choices (GRPO groups need them to)', async () => {
    const task = first('aggregate');
    const plays = [];
    for (const seed of [0, 1, 2, 3, 4, 5]) {
      plays.push(
        await play(spreadsheetBridge, getPolicy('scripted:spreadsheet-formulas'), {
          taskId: task,
          seed,
        }),
      );
    }
    expect(plays.every((p) => p.success)).toBe(true);
    expect(new Set(plays.map((p) => p.commands.join('|'))).size).toBeGreaterThan(1);
  });
});
