// `harness validate` in-process (its jobs still run in a worker pool): the JSON shape of the
// studio's validation, exit 1 when the harness cannot run, and a human summary otherwise.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SpecValidation } from '../../../contracts/validation.ts';
import { runCli } from '../testing.ts';

const dir = mkdtempSync(join(tmpdir(), 'harness-validate-'));
function file(name: string, value: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
}

const base = { type: 'base', bridge: 'toy24', task: '4-7-8-8' };

describe('harness validate', () => {
  it('prints {valid, problems} with the hook line and column, and exits 1 when invalid', async () => {
    const spec = file('broken.json', {
      version: 1,
      env: {
        type: 'chain',
        mode: 'sequential',
        first: {
          type: 'contract',
          code: 'function filterAction(a) {\n  return a +;\n}',
          env: base,
        },
        second: { type: 'base', bridge: 'toy24', task: '99-99-99-99' },
      },
    });
    const { code, out, err } = await runCli(['validate', '--spec', spec, '--json']);
    expect({ code, err }).toEqual({ code: 1, err: '' });
    const result = JSON.parse(out) as SpecValidation;
    expect(result.valid).toBe(false);
    expect(result.problems).toEqual([
      {
        path: 'env.second',
        message: "unknown task '99-99-99-99' for bridge 'toy24'",
        check: 'resolve',
      },
      expect.objectContaining({ path: 'env.first', line: 2, column: 13, check: 'compile' }),
    ]);
  }, 120_000);

  it('exits 0 on a harness that runs; a file that is not JSON is a problem, not a crash', async () => {
    const ok = await runCli(['validate', '--spec', 'toy24:4-7-8-8']);
    expect(ok.code).toBe(0);
    expect(ok.out).toMatch(/^valid: .*a dry episode of 3 steps \(seed 0\)/);

    const notJson = await runCli(['validate', '--spec', file('bad.json', '{ nope'), '--json']);
    expect(notJson.code).toBe(1);
    expect(JSON.parse(notJson.out)).toMatchObject({
      valid: false,
      problems: [{ path: '(spec)', message: expect.stringMatching(/is not valid JSON/) }],
    });
    const missing = await runCli(['validate']);
    expect(missing).toMatchObject({
      code: 2,
      err: 'harness: --spec is required (a spec file or bridge:task)\n',
    });
  }, 120_000);
});
