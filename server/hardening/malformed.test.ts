// Malformed input everywhere it enters: fuzzed HarnessSpec JSON, graphs with cycles or dangling
// inputs, set-up actions the environment rejects, oversize hook code, unknown bridges / tasks /
// policies, bad CLI flags and bad tRPC inputs. Each gives a clear error and writes NOTHING to the
// database (row counts of every table before == after).
import { PassThrough } from 'node:stream';
import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBridge } from '../../bridges/index.ts';
import { type Graph, graphToSpec } from '../../components/harness-graph/model.ts';
import type { CliIO } from '../cli/command.ts';
import { main as cli } from '../cli/main.ts';
import type { Services } from '../compose.ts';
import { createTestDb, rowCounts, type TestDb } from '../db/testing.ts';
import { DomainError, InvalidSpecError } from '../errors.ts';
import { type HarnessSpec, parseSpec } from '../harness/index.ts';
import { MAX_HOOK_CODE_CHARS } from '../harness/spec.ts';
import { callerFor, testServices } from '../testing/services.ts';
import { rng } from './hook-corpus.ts';

let handle: TestDb;
let services: Services;
let task = '';

beforeAll(async () => {
  handle = await createTestDb('pglite');
  services = await testServices(handle);
  const toy24 = await getBridge('toy24');
  task = (await toy24!.listTasks())[0]!.id;
}, 60_000);

afterAll(async () => {
  await services.close();
  await handle.close();
});

/** Runs `fn`, which must fail, and proves that no table changed. */
async function writesNothing(fn: () => Promise<unknown>): Promise<unknown> {
  const before = await rowCounts(handle.db);
  const error = await fn().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'the call should have failed').toBeDefined();
  expect(await rowCounts(handle.db)).toEqual(before);
  return error;
}

const base = (): HarnessSpec => ({ version: 1, env: { type: 'base', bridge: 'toy24', task } });
const valid = (): HarnessSpec[] => [
  base(),
  { version: 1, env: { type: 'stage', actions: [], env: base().env } },
  {
    version: 1,
    env: { type: 'contract', code: 'function filterAction(a) { return a; }', env: base().env },
  },
  {
    version: 1,
    env: { type: 'chain', mode: 'sequential', first: base().env, second: base().env },
  },
];

type JsonLike = null | boolean | number | string | JsonLike[] | { [k: string]: JsonLike };

/** One random structural mutation somewhere in the tree. */
function mutate(value: JsonLike, r: () => number, depth = 0): JsonLike {
  const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)]!;
  const junk = (): JsonLike =>
    pick<JsonLike>([
      null,
      0,
      -1,
      1e308,
      '',
      'x'.repeat(5000),
      [],
      {},
      true,
      { type: 'nope' },
      [[[]]],
    ]);
  if (value === null || typeof value !== 'object') return r() < 0.7 ? junk() : value;
  if (Array.isArray(value)) {
    if (value.length === 0 || r() < 0.3) return [...value, junk()];
    const i = Math.floor(r() * value.length);
    return value.map((v, j) => (j === i ? mutate(v, r, depth + 1) : v));
  }
  const keys = Object.keys(value);
  const roll = r();
  if (roll < 0.15 && keys.length > 0) {
    const { [pick(keys)]: _drop, ...rest } = value;
    return rest;
  }
  if (roll < 0.25)
    return { ...value, [pick(['extra', '__proto__', 'type', 'env', 'constructor'])]: junk() };
  if (roll < 0.3) return junk();
  if (keys.length === 0) return value;
  const key = pick(keys);
  return { ...value, [key]: mutate(value[key] as JsonLike, r, depth + 1) };
}

describe('fuzzed HarnessSpec JSON', () => {
  it('2,000 mutations: each parses or fails with a one-line InvalidSpecError, never anything else', () => {
    const r = rng(42);
    let rejected = 0;
    const seeds = valid() as unknown as JsonLike[];
    for (let i = 0; i < 2000; i++) {
      let spec: JsonLike = seeds[i % seeds.length] ?? null;
      for (let m = 0; m <= i % 3; m++) spec = mutate(spec, r);
      // Round-trip through text, as an imported file would arrive.
      const text = JSON.stringify(spec);
      try {
        parseSpec(JSON.parse(text));
      } catch (e) {
        rejected += 1;
        expect(e, text.slice(0, 200)).toBeInstanceOf(InvalidSpecError);
        const message = (e as Error).message;
        expect(message).not.toContain('\n');
        expect(message.length).toBeGreaterThan(10);
        expect(message.length).toBeLessThan(600);
      }
    }
    expect(rejected).toBeGreaterThan(1000);
    // Prototype pollution through spec keys reaches nothing.
    expect(Object.hasOwn(Object.prototype, 'type')).toBe(false);
  });

  it('deeply nested and oversize specs are refused with a clear reason', () => {
    let env: JsonLike = { type: 'base', bridge: 'toy24', task };
    for (let i = 0; i < 200; i++) env = { type: 'stage', actions: [], env };
    expect(() => parseSpec({ version: 1, env })).toThrow(InvalidSpecError);
    const code = `// ${'x'.repeat(MAX_HOOK_CODE_CHARS)}`;
    expect(() =>
      parseSpec({ version: 1, env: { type: 'contract', code, env: base().env } }),
    ).toThrow(/hook code is limited to 65536 characters/);
  });
});

describe('graphs that are not harnesses', () => {
  const node = (id: string, kind: 'base' | 'stage' | 'output'): Graph['nodes'][number] =>
    kind === 'base'
      ? { id, kind, position: { x: 0, y: 0 }, data: { bridge: 'toy24', task } }
      : kind === 'stage'
        ? { id, kind, position: { x: 0, y: 0 }, data: { actions: [] } }
        : { id, kind, position: { x: 0, y: 0 }, data: {} };
  const edge = (source: string, target: string) => ({
    id: `${source}-${target}`,
    source,
    target,
    targetHandle: 'env' as const,
  });

  it('a cycle is named, never looped on', () => {
    const g: Graph = {
      nodes: [node('s1', 'stage'), node('s2', 'stage'), node('out', 'output')],
      edges: [edge('s1', 's2'), edge('s2', 's1'), edge('s2', 'out')],
    };
    const r = graphToSpec(g);
    expect(r).toEqual({ ok: false, issues: [{ message: 'the graph has a cycle' }] });
  });

  it('a dangling input and a disconnected node are reported per node', () => {
    const g: Graph = {
      nodes: [node('s1', 'stage'), node('b', 'base'), node('out', 'output')],
      edges: [edge('s1', 'out')],
    };
    const r = graphToSpec(g);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.issues.map((i) => i.nodeId)).toEqual(expect.arrayContaining(['s1', 'b']));
    }
  });
});

describe('bad input through the API writes nothing', () => {
  const caller = () => callerFor(services);
  const launch = (input: Record<string, unknown>) =>
    writesNothing(() =>
      caller().runs.launch({ policy: 'scripted:toy24-exact', spec: base(), ...input } as never),
    );
  const code = (e: unknown) => (e instanceof TRPCError ? e.code : `not a TRPCError: ${String(e)}`);

  it('bad types, ranges and unknown enum values: BAD_REQUEST', async () => {
    for (const input of [
      { k: -1 },
      { k: 1e9 },
      { seeds: ['x'] },
      { maxSteps: 0 },
      { queue: 'carrier-pigeon' },
      { policy: '' },
      { taskIds: [] },
      { rewardParams: { bogus: 1 } },
    ]) {
      expect(code(await launch(input)), JSON.stringify(input)).toBe('BAD_REQUEST');
    }
  });

  it('unknown bridge, task and policy: NOT_FOUND, with the name in the message', async () => {
    const bridge = await launch({
      spec: { version: 1, env: { type: 'base', bridge: 'nope', task } },
    });
    expect(code(bridge)).toBe('NOT_FOUND');
    expect((bridge as Error).message).toContain('nope');
    const t = await launch({
      spec: { version: 1, env: { type: 'base', bridge: 'toy24', task: 'no-such-task' } },
    });
    expect(code(t)).toBe('NOT_FOUND');
    const p = await launch({ policy: 'scripted:does-not-exist' });
    expect(code(p)).toBe('NOT_FOUND');
  });

  it('hook code that does not compile, and oversize code: BAD_REQUEST with the line', async () => {
    const broken = await launch({
      spec: {
        version: 1,
        env: {
          type: 'contract',
          code: 'function filterAction(a) {\n  return a +;\n}',
          env: base().env,
        },
      },
    });
    expect(code(broken)).toBe('BAD_REQUEST');
    expect((broken as Error).message).toMatch(/line 2/);
    const big = await launch({
      spec: {
        version: 1,
        env: { type: 'contract', code: 'x'.repeat(MAX_HOOK_CODE_CHARS + 1), env: base().env },
      },
    });
    expect(code(big)).toBe('BAD_REQUEST');
  });

  it('a set-up action the environment rejects fails before any rollout', async () => {
    const e = await launch({
      spec: {
        version: 1,
        env: { type: 'stage', actions: [{ name: 'no-such-tool', args: {} }], env: base().env },
      },
    });
    expect(code(e)).toBe('BAD_REQUEST');
    expect((e as Error).message).toMatch(/set-up|stage|action/i);
  });

  it('fuzzed specs sent to harnesses.create and runs.launch are refused', async () => {
    const r = rng(7);
    let sent = 0;
    for (let i = 0; sent < 25 && i < 500; i++) {
      const spec = mutate(valid()[i % 4] as unknown as JsonLike, r);
      try {
        parseSpec(spec);
        continue; // a mutation that is still a valid spec would (rightly) be accepted
      } catch {
        sent += 1;
      }
      const a = await writesNothing(() =>
        caller().harnesses.create({ name: 'fuzz', spec } as never),
      );
      expect(code(a)).toBe('BAD_REQUEST');
      const b = await launch({ spec });
      expect(code(b)).toBe('BAD_REQUEST');
    }
    expect(sent).toBe(25);
  }, 60_000);

  it('ids that do not exist: NOT_FOUND, nothing written', async () => {
    expect(code(await writesNothing(() => caller().runs.cancel({ id: 'missing' })))).toBe(
      'NOT_FOUND',
    );
    expect(
      code(
        await writesNothing(() =>
          caller().harnesses.decide({
            harnessVersionId: 'missing',
            decision: 'approve',
            reason: '',
          }),
        ),
      ),
    ).toBe('NOT_FOUND');
  });
});

describe('bad CLI flags write nothing', () => {
  async function run(argv: string[]) {
    let err = '';
    const io: CliIO = {
      out: () => undefined,
      err: (t) => {
        err += t;
      },
      input: new PassThrough(),
      output: new PassThrough(),
    };
    let exit = -1;
    await writesNothing(async () => {
      // The CLI on this test's services (and database), which outlive the command.
      exit = await cli(argv, io, { compose: async () => ({ ...services, close: async () => {} }) });
      if (exit !== 0) throw new Error(err);
    });
    return { exit, err };
  }

  it('usage errors exit 2 with one line; unknown names exit 1', async () => {
    for (const argv of [
      ['rollout', '--spec', `toy24:${task}`],
      ['rollout', '--spec', `toy24:${task}`, '--policy', 'scripted:toy24-exact', '--episodes', '0'],
      ['rollout', '--spec', `toy24:${task}`, '--policy', 'scripted:toy24-exact', '--queue', 'nope'],
      ['no-such-command'],
    ]) {
      const { exit, err } = await run(argv);
      expect(exit, argv.join(' ')).toBe(2);
      expect(err.trim().split('\n')[0]!.length).toBeGreaterThan(5);
    }
    const unknown = await run([
      'rollout',
      '--spec',
      'toy24:no-such-task',
      '--policy',
      'scripted:toy24-exact',
    ]);
    expect(unknown.exit).toBe(1);
    expect(unknown.err).toContain('no-such-task');
  }, 60_000);
});

it('domain errors carry tRPC codes (the mapping the API relies on)', () => {
  expect(new InvalidSpecError('x')).toBeInstanceOf(DomainError);
});
