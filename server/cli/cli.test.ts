// End to end through bin/harness.mjs (tsx registration, exit codes, stdout/stderr separation).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../bin/harness.mjs', import.meta.url));

function harness(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { timeout: 20_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

describe('bin/harness.mjs', () => {
  it('runs commands and maps failures to one stderr line with a non-zero exit', async () => {
    const [bridges, unknown, badFlag, badSpec] = await Promise.all([
      harness('bridges', '--json'),
      harness('tasks', 'no-such-bridge', '--json'),
      harness('bridges', '--jsn'),
      harness('step', '--spec', 'toy24', '--actions', '-'),
    ]);
    expect(bridges.code).toBe(0);
    const list = JSON.parse(bridges.stdout) as { name: string; tasks: number; tools: unknown[] }[];
    expect(list.find((b) => b.name === 'toy24')).toMatchObject({ tasks: 1362 });

    expect(unknown).toMatchObject({ code: 1, stdout: '' });
    expect(unknown.stderr).toMatch(/^harness: unknown bridge 'no-such-bridge'.*\n$/);
    expect(badFlag).toMatchObject({ code: 2, stdout: '' });
    expect(badFlag.stderr).toMatch(/^harness: unknown option '--jsn'\n$/);
    expect(badSpec.code).toBe(1);
    expect(badSpec.stderr).toMatch(/^harness: spec file 'toy24' not found.*\n$/);
  });
});
