// bin/fresh-bundle.mjs: the CLI runs its bundle only while no source it was built from is newer.
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freshBundle } from '../../bin/fresh-bundle.mjs';

function checkout(builtAt: number, sourceMtime: number) {
  const dir = mkdtempSync(join(tmpdir(), 'harness-bundle-'));
  mkdirSync(join(dir, 'dist/cli'), { recursive: true });
  mkdirSync(join(dir, 'server'));
  writeFileSync(join(dir, 'server/a.ts'), 'export {};\n');
  utimesSync(join(dir, 'server/a.ts'), sourceMtime / 1000, sourceMtime / 1000);
  writeFileSync(
    join(dir, 'dist/cli/inputs.json'),
    JSON.stringify({ builtAt, inputs: ['server/a.ts'] }),
  );
  return { dir, root: pathToFileURL(`${dir}/`) };
}

describe('freshBundle', () => {
  const built = Date.parse('2026-01-02T00:00:00Z');

  it('is the bundle when every source is older than the build', () => {
    const { root } = checkout(built, built - 60_000);
    expect(freshBundle(root, {})?.href).toBe(new URL('dist/cli/main.mjs', root).href);
  });

  it('is nothing when a source changed after the build, is gone, or HARNESS_DEV=1', () => {
    expect(freshBundle(checkout(built, built + 1000).root, {})).toBeUndefined();
    const { dir, root } = checkout(built, built - 60_000);
    expect(freshBundle(root, { HARNESS_DEV: '1' })).toBeUndefined();
    writeFileSync(
      join(dir, 'dist/cli/inputs.json'),
      JSON.stringify({ builtAt: built, inputs: ['server/gone.ts'] }),
    );
    expect(freshBundle(root, {})).toBeUndefined();
  });

  it('is nothing without a build', () => {
    const dir = mkdtempSync(join(tmpdir(), 'harness-bundle-'));
    expect(freshBundle(pathToFileURL(`${dir}/`), {})).toBeUndefined();
  });
});
