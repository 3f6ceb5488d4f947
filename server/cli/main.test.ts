// The CLI in-process: commands, output shapes and error mapping (spawned end-to-end runs: cli.test.ts).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliIO } from './command.ts';
import { main } from './main.ts';

async function run(argv: string[], input = '') {
  let out = '';
  let err = '';
  const stdin = new PassThrough();
  stdin.end(input);
  const io: CliIO = {
    out: (t) => {
      out += t;
    },
    err: (t) => {
      err += t;
    },
    input: stdin,
    output: new PassThrough(),
  };
  const code = await main(argv, io);
  return { code, out, err };
}

const dir = mkdtempSync(join(tmpdir(), 'harness-cli-'));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('harness CLI', () => {
  it('lists bridges as JSON with task counts and tool schemas', async () => {
    const { code, out } = await run(['bridges', '--json']);
    expect(code).toBe(0);
    const toy = (JSON.parse(out) as { name: string }[]).find((b) => b.name === 'toy24');
    expect(toy).toMatchObject({
      tasks: 1362,
      splits: ['train', 'test'],
      tools: [{ name: 'combine', parameters: { type: 'object' } }],
    });
  });

  it('lists tasks of a split and type', async () => {
    const { code, out } = await run([
      'tasks',
      'toy24',
      '--split',
      'test',
      '--type',
      'easy',
      '--json',
    ]);
    expect(code).toBe(0);
    const tasks = JSON.parse(out) as { id: string; type: string; goal: string; split: string }[];
    expect(tasks.length).toBeGreaterThan(10);
    for (const t of tasks)
      expect(t).toMatchObject({
        id: expect.any(String),
        type: 'easy',
        split: 'test',
        goal: expect.stringContaining('24'),
      });
  });

  it('maps unknown names, bad flags and missing arguments to one stderr line and a non-zero exit', async () => {
    const cases: [string[], number, RegExp][] = [
      [['tasks', 'nope'], 1, /^harness: unknown bridge 'nope' \(known: toy24/],
      [['tasks', 'toy24', '--split', 'dev'], 2, /^harness: unknown split 'dev'/],
      [['tasks', 'toy24', '--bogus'], 2, /^harness: unknown option '--bogus'/],
      [['tasks'], 2, /^harness: tasks: missing <bridge>/],
      [['frobnicate'], 2, /^harness: unknown command 'frobnicate'/],
      [[], 2, /^harness: missing command/],
      [['check', 'toy24', '--steps', 'many'], 2, /^harness: --steps must be an integer/],
      [
        ['step', '--spec', 'toy24:1-1-1-1', '--actions', file('none.txt', '')],
        1,
        /^harness: env: unknown task '1-1-1-1'/,
      ],
      [
        ['step', '--spec', join(dir, 'missing.json'), '--actions', file('none.txt', '')],
        1,
        /^harness: spec file .* not found/,
      ],
      [
        [
          'step',
          '--spec',
          file('bad.json', '{"version": 1, "env": {"type": "base"}}'),
          '--actions',
          file('none.txt', ''),
        ],
        1,
        /invalid harness spec: env\.bridge/,
      ],
      [
        ['step', '--spec', 'toy24:4-7-8-8', '--actions', file('bad-actions.txt', '{"name": 3}\n')],
        1,
        /bad-actions\.txt:1: not an action/,
      ],
      [['step', '--spec', 'toy24:4-7-8-8'], 2, /^harness: --actions is required/],
    ];
    for (const [argv, code, message] of cases) {
      const r = await run(argv);
      expect({ argv, code: r.code }).toEqual({ argv, code });
      expect(r.err).toMatch(message);
      expect(r.err.trim().split('\n')).toHaveLength(1);
    }
  });

  it('prints help', async () => {
    const all = await run(['--help']);
    expect(all.code).toBe(0);
    expect(all.out).toMatch(/bridges[\s\S]*tasks[\s\S]*check[\s\S]*step[\s\S]*play/);
    const step = await run(['step', '--help']);
    expect(step.out).toContain('--actions');
  });

  it('check reports every contract check and exits 0 for toy24', async () => {
    const { code, out } = await run(['check', 'toy24', '--json', '--tasks', '1', '--steps', '3']);
    expect(code).toBe(0);
    const report = JSON.parse(out) as { ok: boolean; results: { ok: boolean }[] };
    expect(report.ok).toBe(true);
    expect(report.results.length).toBeGreaterThanOrEqual(12);
  });

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
