// The CLI in-process: commands, output shapes and error mapping (spawned end-to-end runs: cli.test.ts).
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
});
