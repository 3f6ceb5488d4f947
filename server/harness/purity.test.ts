// The engine is pure (DESIGN.md): it receives a bridge resolver and imports no registry,
// configuration, database, rollouts or API code — not directly, not through another module.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { resolverOf } from '../../bridges/core/capabilities.ts';
import { createHarness, type HarnessOptions } from './index.ts';
import { fakeBridges } from './testing/fake-bridges.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '../..');
const FORBIDDEN = [
  /^bridges\/index\.ts$/,
  /^server\/bridges\.ts$/,
  /^server\/config\.ts$/,
  /^server\/db\//,
  /^server\/rollouts\//,
  /^server\/api\//,
];

/** The engine's own modules: everything in server/harness except tests and test helpers. */
function engineFiles(dir = HERE): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'testing' ? [] : engineFiles(path);
    return /\.(ts|mjs|js)$/.test(e.name) && !/\.test\.ts$/.test(e.name) ? [path] : [];
  });
}

/** Relative module specifiers a file imports at run time (static, re-export and dynamic). */
function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  const re =
    /(?:^|\n)\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;
  for (const m of text.matchAll(re)) out.push(resolve(dirname(file), (m[1] ?? m[2])!));
  return out;
}

describe('engine purity', () => {
  it('no engine module reaches the registry, config, db, rollouts or api', () => {
    const files = engineFiles();
    expect(files.length).toBeGreaterThan(10);
    const seen = new Set<string>();
    const offences: string[] = [];
    const visit = (file: string, via: string[]) => {
      if (seen.has(file)) return;
      seen.add(file);
      const rel = relative(ROOT, file);
      if (FORBIDDEN.some((re) => re.test(rel))) offences.push([...via, rel].join(' -> '));
      else if (/\.(ts|mjs|js)$/.test(file))
        for (const next of imports(file)) visit(next, [...via, rel]);
    };
    for (const file of files) visit(file, []);
    expect(offences).toEqual([]);
  });

  it('createHarness requires a bridge resolver and names its bridges in errors', async () => {
    const spec = {
      version: 1 as const,
      env: { type: 'base' as const, bridge: 'room', task: 'key-in-box' },
    };
    await expect(createHarness(spec, undefined as unknown as HarnessOptions)).rejects.toThrow(
      /needs a bridge resolver/,
    );
    await expect(
      createHarness(
        { version: 1, env: { type: 'base', bridge: 'nope', task: 'x' } },
        {
          bridges: fakeBridges().bridges,
        },
      ),
    ).rejects.toThrow("unknown bridge 'nope' (known: room, counter)");
    const { room } = fakeBridges();
    const h = await createHarness(spec, { bridges: resolverOf([room]) });
    await h.reset({ seed: 0 });
    expect(room.created).toHaveLength(1);
    await h.close();
  });
});
