// The harnesses router and validation: the editor's `validate` answers per node, and `create` /
// `saveVersion` refuse a spec that cannot run (the same service), writing nothing.
import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HarnessNode, HarnessSpec } from '../../../contracts/spec.ts';
import type { Services } from '../../compose.ts';
import { type DbHandle, openDb } from '../../db/index.ts';
import { rowCounts } from '../../db/testing.ts';
import { callerFor, testServices } from '../../testing/services.ts';

let handle: DbHandle;
let services: Services;
let caller: ReturnType<typeof callerFor>;
beforeAll(async () => {
  handle = await openDb({ kind: 'pglite', memory: true });
  services = await testServices(handle);
  caller = callerFor(services);
});
afterAll(async () => {
  await services.close();
  await handle.close();
});

const base = (task = '4-7-8-8'): HarnessNode => ({ type: 'base', bridge: 'toy24', task });
const spec = (env: HarnessNode): HarnessSpec => ({ version: 1, env });
const broken = spec({
  type: 'contract',
  code: 'export function filterAction(a) {\n  return a +;\n}',
  env: base(),
});

/** The call fails with BAD_REQUEST and no table changes. */
async function refused(call: () => Promise<unknown>): Promise<string> {
  const before = await rowCounts(handle.db);
  const error = await call().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCError);
  expect((error as TRPCError).code).toBe('BAD_REQUEST');
  expect(await rowCounts(handle.db)).toEqual(before);
  return (error as Error).message;
}

describe('harnesses.validate', () => {
  it('reports a broken hook on its node with line and column, and a valid spec as valid', async () => {
    const result = await caller.harnesses.validate({ spec: broken });
    expect(result.valid).toBe(false);
    expect(result.problems).toEqual([
      expect.objectContaining({ path: 'env', line: 2, column: 13, check: 'compile' }),
    ]);
    const ok = await caller.harnesses.validate({ spec: spec(base()) });
    expect(ok).toMatchObject({ valid: true, problems: [], dryRun: { steps: 3 } });
  }, 120_000);
});

describe('create and saveVersion refuse a harness that cannot run', () => {
  it('a broken hook or an unknown task is refused; the fixed spec is saved', async () => {
    expect(await refused(() => caller.harnesses.create({ name: 'broken', spec: broken }))).toMatch(
      /^the harness cannot run: env 2:13: .*SyntaxError/,
    );
    const unknown = spec(base('99-99-99-99'));
    expect(await refused(() => caller.harnesses.create({ name: 'nope', spec: unknown }))).toBe(
      "the harness cannot run: env: unknown task '99-99-99-99' for bridge 'toy24'",
    );

    const created = await caller.harnesses.create({ name: 'fine', spec: spec(base()) });
    expect(created.version.version).toBe(1);
    await refused(() =>
      caller.harnesses.saveVersion({ harnessId: created.harnessId, name: 'v2', spec: broken }),
    );
    const saved = await caller.harnesses.saveVersion({
      harnessId: created.harnessId,
      name: 'v2',
      spec: spec({ type: 'stage', actions: [], env: base() }),
    });
    expect(saved.version).toBe(2);
  }, 120_000);
});
