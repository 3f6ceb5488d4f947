// The CLI's output path: a closed pipe ends a printing command quietly (a real child process piped
// to `head`), control characters in printed values are escaped, negative numbers are option values,
// and a 20,000-deep spec file is a clear exit 1, not exit 70 "Maximum call stack".
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { joinNegativeValues } from './main.ts';
import { terminalText } from './output.ts';
import { runCli } from './testing.ts';

const BIN = fileURLToPath(new URL('../../bin/harness.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'harness-output-'));

/** `harness ARGS | head -c 100` in a shell: the CLI's exit status and stderr. */
function pipedToHead(args: string[]): Promise<{ status: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    const quoted = args.map((a) => `'${a}'`).join(' ');
    const child = spawn(
      'bash',
      ['-c', `set -o pipefail; "${process.execPath}" "${BIN}" ${quoted} | head -c 100 >/dev/null`],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status: status ?? -1, stderr }));
  });
}

function harness(args: string[]): Promise<{ status: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status: status ?? -1, stderr }));
  });
}

describe('the CLI output path', () => {
  it('a printing command piped to head ends quietly: exit 0, nothing on stderr', async () => {
    // 1,362 tasks as JSON is ~250 KB: far more than head reads before it closes the pipe.
    const r = await pipedToHead(['tasks', 'toy24', '--json']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  }, 60_000);

  it('escapes control characters in what it prints, raw ESC never reaches the terminal', async () => {
    const r = await harness(['tasks', '\u001b[2J\u001b]0;pwned\u0007']);
    expect(r.status).toBe(1);
    expect([...r.stderr].filter((c) => c < ' ' && c !== '\n')).toEqual([]);
    expect(r.stderr).toContain("unknown bridge '\\u001b[2J\\u001b]0;pwned\\u0007'");
  }, 60_000);

  it('terminalText keeps newlines, tabs and a leading progress carriage return', () => {
    expect(terminalText('a\tb\nc')).toBe('a\tb\nc');
    expect(terminalText('\r[###...] 3/10')).toBe('\r[###...] 3/10');
    expect(terminalText('name\rfake\u009b\u202e')).toBe('name\\u000dfake\\u009b\\u202e');
    // Inside JSON strings the escapes stay valid JSON.
    expect(JSON.parse(terminalText(JSON.stringify({ n: 'x\u202ey' })))).toEqual({ n: 'x\u202ey' });
  });
});

describe('negative numbers as option values', () => {
  const options = { episodes: { type: 'string', short: 'k' }, seed: { type: 'string' } } as const;

  it('joins them to their option; other arguments pass as they are', () => {
    expect(joinNegativeValues(['-k', '-5', '--seed', '-3', '--', '-1'], options)).toEqual([
      '--episodes=-5',
      '--seed=-3',
      '--',
      '-1',
    ]);
    expect(joinNegativeValues(['--seed', '-x'], options)).toEqual(['--seed', '-x']);
  });

  it('-k -5 is validated with a clear message; --seed -3 is a seed', async () => {
    const k = await runCli(['rollout', '--spec', 'toy24:1-1-1-8', '--policy', 'p', '-k', '-5']);
    expect(k.code).toBe(2);
    expect(k.err).toBe('harness: --episodes must be at least 1\n');
    const actions = join(dir, 'actions.txt');
    writeFileSync(actions, '1 + 1\n');
    const seed = await runCli([
      'step',
      '--spec',
      'toy24:1-1-1-8',
      '--seed',
      '-3',
      '--actions',
      actions,
      '--json',
      '--in-process',
    ]);
    expect(seed.err).toBe('');
    expect(seed.code).toBe(0);
    expect(JSON.parse(seed.out)).toMatchObject({ seed: -3 });
  }, 60_000);
});

describe('a hostile spec file', () => {
  it('a 20,000-deep spec file is a one-line exit 1, not exit 70 "Maximum call stack"', async () => {
    const spec = join(dir, 'deep.json');
    writeFileSync(
      spec,
      `{"version":1,"env":${'{"type":"stage","actions":[],"env":'.repeat(20_000)}{"type":"base","bridge":"toy24","task":"1-1-1-8"}${'}'.repeat(20_001)}`,
    );
    const r = await runCli(['step', '--spec', spec, '--actions', spec, '--in-process']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      /^harness: .*deep\.json: invalid harness spec: .*nested deeper than 100 levels.*\n$/,
    );
  });
});
