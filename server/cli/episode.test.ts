// `harness step` and `harness play` in-process through main(), and through the worker pool.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './testing.ts';

const run = (argv: string[], input = '') => runCli(argv, {}, input);

const dir = mkdtempSync(join(tmpdir(), 'harness-cli-'));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('harness step and play', () => {
  it('step replays text and JSON actions and prints every step', async () => {
    const actions = file(
      'solve.txt',
      '8 / 3\n# comment\n{"name": "combine", "args": {"a": 3, "op": "-", "b": "8/3"}}\n8 / 1/3\n1 + 1\n',
    );
    const { code, out, err } = await run([
      'step',
      '--spec',
      'toy24:3-3-8-8',
      '--seed',
      '2',
      '--actions',
      actions,
      '--state',
      '--json',
    ]);
    expect(err).toBe('');
    expect(code).toBe(0);
    const result = JSON.parse(out);
    expect(result.initial.observation.text).toMatch(/^Numbers: 3 3 8 8\./);
    expect(result.initial.state).toMatchObject({ numbers: ['3', '3', '8', '8'] });
    expect(result.steps).toHaveLength(3);
    expect(result.steps[0]).toMatchObject({
      action: { name: 'combine', args: { expression: '8 / 3' } },
      reward: 0,
      terminated: false,
      truncated: false,
      state: { numbers: ['3', '8', '8/3'] },
    });
    expect(result.steps[2]).toMatchObject({ reward: 1, terminated: true });
    expect(result).toMatchObject({
      evaluation: { success: true, score: 1 },
      agentSteps: 3,
      ignoredActions: 1,
    });
  });

  it('step shows blocked actions and hook failures as harness errors', async () => {
    const block = file(
      'block.json',
      JSON.stringify({
        version: 1,
        env: {
          type: 'contract',
          code: 'export function filterAction(action) { return action.args.op === "+" ? { blocked: "no addition" } : action; }',
          env: { type: 'base', bridge: 'toy24', task: '4-7-8-8' },
        },
      }),
    );
    const actions = file('plus.txt', '{"name": "combine", "args": {"a": 4, "op": "+", "b": 7}}\n');
    const blocked = await run([
      'step',
      '--spec',
      block,
      '--actions',
      actions,
      '--json',
      '--in-process',
    ]);
    expect(blocked.code).toBe(0);
    expect(JSON.parse(blocked.out).steps[0]).toMatchObject({ blocked: 'no addition' });

    const throwing = file(
      'throw.json',
      JSON.stringify({
        version: 1,
        env: {
          type: 'contract',
          code: 'export function filterAction() {\n  throw new Error("nope");\n}',
          env: { type: 'base', bridge: 'toy24', task: '4-7-8-8' },
        },
      }),
    );
    const failed = await run([
      'step',
      '--spec',
      throwing,
      '--actions',
      actions,
      '--json',
      '--in-process',
    ]);
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.out).harnessError).toMatchObject({ hook: 'filterAction', line: 2 });
    expect(failed.err).toMatch(/^harness: the episode ended with a harness error: .*nope/);
  });

  it('play reads moves from input and ends with the evaluation', async () => {
    const { code, out } = await run(
      ['play', '--spec', 'toy24:3-3-8-8'],
      'bogus\n:state\n8 / 3\n3 - 8/3\n8 / 1/3\n',
    );
    expect(code).toBe(0);
    expect(out).toContain('Admissible: 3 + 3');
    expect(out).toContain("Cannot read 'bogus'");
    expect(out).toContain('"invalidActions": 1');
    expect(out).toContain('You made 24!');
    expect(out).toMatch(/Episode over: SUCCESS .* after 4 agent steps/);
  });

  it('step runs the episode in a worker by default, and a hook stuck in a built-in cannot hang it', async () => {
    const actions = file('two.txt', '8 / 3\n3 - 8/3\n');
    const ok = await run(['step', '--spec', 'toy24:3-3-8-8', '--actions', actions, '--json']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.out)).toMatchObject({ agentSteps: 2, evaluation: { success: false } });

    // QuickJS cannot interrupt String.prototype.repeat: only terminating the worker stops this.
    const stuck = file(
      'stuck.json',
      JSON.stringify({
        version: 1,
        env: {
          type: 'contract',
          code: 'export function filterAction(a) { let n = 0; for (let i = 0; i < 1e6; i++) n += "x".repeat(1e7).length; return a; }',
          env: { type: 'base', bridge: 'toy24', task: '3-3-8-8' },
        },
      }),
    );
    const started = Date.now();
    const killed = await run(['step', '--spec', stuck, '--actions', actions, '--json']);
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(killed.code).toBe(1);
    expect(JSON.parse(killed.out)).toMatchObject({
      steps: [],
      evaluation: null,
      harnessError: { hook: 'filterAction' },
    });
    expect(killed.err).toMatch(
      /^harness: the episode ended with a harness error: hook filterAction exceeded its time limit/,
    );
  });
});
