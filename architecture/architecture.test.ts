// The dependency direction of DESIGN.md, enforced: the repository breaks no rule, and a fixture
// tree that breaks each rule once is caught rule by rule (so the rules themselves cannot rot).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { describeViolation, SOURCE_ROOTS, violations } from './check.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURE = path.join(ROOT, 'architecture', 'fixtures', 'forbidden');

describe('import direction', () => {
  it('the repository has no import circle and no forbidden import', async () => {
    const found = await violations(ROOT, SOURCE_ROOTS, { tsConfig: 'tsconfig.json' });
    expect(found.map(describeViolation)).toEqual([]);
  }, 120_000);

  it('fails on each kind of forbidden import (fixture tree)', async () => {
    const found = (
      await violations(FIXTURE, ['bridges', 'server', 'components', 'contracts'], {
        tsConfig: path.join(ROOT, 'tsconfig.json'),
      })
    ).map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
    expect(found.filter((f) => !f.startsWith('no-circular')).sort()).toEqual(
      [
        'bridges-stand-alone: bridges/leak.ts → server/db/index.ts',
        'engine-pure: server/harness/impure.ts → server/db/index.ts',
        'client-through-contracts: components/peek.ts → server/db/index.ts',
        'client-app-router-type-only: components/router-value.ts → server/api/root.ts',
        'contracts-pure: contracts/leak.ts → server/db/index.ts',
      ].sort(),
    );
    // An `await import()` does not hide a circle.
    expect(found.filter((f) => f.startsWith('no-circular'))).toEqual([
      'no-circular: server/loop/a.ts → server/loop/b.ts',
    ]);
    // The AppRouter imported for its type only is allowed.
    expect(found.some((f) => f.includes('components/router-type.ts'))).toBe(false);
  }, 60_000);
});
