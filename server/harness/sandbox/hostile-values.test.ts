// Reading what a hook threw or returned runs hook code: it happens under the deadline, so a value
// that fights being read ends as a harness error in bounded time instead of hanging the thread; a
// thrown non-error is described without running its conversions; and a hook stopped by its
// deadline is reported at the loop that ran, not at line 1.
import { beforeAll, describe, expect, it } from 'vitest';
import { HarnessCodeError } from '../../errors.ts';
import { CONTRACT_HOOKS } from '../contract.ts';
import { HOSTILE_VALUE_HOOKS } from '../testing/hostile-values.ts';
import { SandboxHost } from './index.ts';

const ACTION = { name: 'act', args: { command: 'look' } };
const REST = {
  observation: { text: 'You see a box.' },
  reward: 0,
  terminated: false,
  truncated: false,
};

/** Loads `code` and calls its hooks the way the Contract does; the HarnessCodeError it ends with. */
async function failure(host: SandboxHost, code: string): Promise<HarnessCodeError> {
  await host.ready();
  try {
    const set = host.load(code, { hooks: CONTRACT_HOOKS });
    try {
      set.provideState(() => ({ room: 'kitchen' }));
      if (set.has('filterAction')) set.call('filterAction', [ACTION]);
      const after = set.after(ACTION, REST, {});
      after.observation(REST.observation);
    } finally {
      if (set.alive) set.dispose();
    }
  } catch (e) {
    expect(e).toBeInstanceOf(HarnessCodeError);
    return e as HarnessCodeError;
  }
  throw new Error('the hook did not fail');
}

describe('hostile thrown and returned values', () => {
  const host = new SandboxHost();
  // The wasm compile (once per thread) is not the hook's time.
  beforeAll(() => host.ready());

  for (const h of HOSTILE_VALUE_HOOKS.filter((x) => !x.builtin)) {
    it(`${h.name}: a harness error within 2 s`, async () => {
      const t0 = performance.now();
      const e = await failure(host, h.code);
      expect(performance.now() - t0).toBeLessThan(2000);
      expect(e.message).toMatch(/^hook /);
    });
  }

  it('the repro is stopped where its trap loops, and the host is usable afterwards', async () => {
    const repro = HOSTILE_VALUE_HOOKS[0]!;
    const e = await failure(host, repro.code);
    expect(e.message).toMatch(/hook filterObservation ran longer than its 250 ms limit/);
    expect(e.line).toBe(1);
    expect(repro.code.slice((e.column ?? 0) - 1)).toMatch(/^while\(true\)/);
    await host.ready();
    const ok = host.load('export function filterAction(a) { return { ...a, ok: 1 }; }', {
      hooks: CONTRACT_HOOKS,
    });
    expect(ok.call('filterAction', [ACTION])).toEqual({ ...ACTION, ok: 1 });
    ok.dispose();
  });

  it('describes thrown non-errors without running their conversions', async () => {
    const said = async (thrown: string) =>
      (await failure(host, `export function filterAction(a) { throw ${thrown}; }`)).message;
    expect(await said('{ notAnError: 5 }')).toContain('threw a non-error value: {"notAnError":5}');
    expect(await said('null')).toContain('threw a non-error value: null');
    expect(await said('Symbol("s")')).toContain('threw a non-error value: Symbol(s)');
    expect(await said('function f() {}')).toContain('threw a non-error value: a function');
    expect(await said('{ toString() { return "no" }, message: 7 }')).toContain(
      'threw a non-error value: {"message":7}',
    );
    expect(await said('new TypeError("plain")')).toMatch(/line 1, column \d+: TypeError: plain$/);
  });
});

describe('where a timeout is reported', () => {
  const host = new SandboxHost();
  const at = async (code: string) => {
    const e = await failure(host, code);
    expect(e.message).toContain('ran longer than its 250 ms limit');
    return { line: e.line, column: e.column, message: e.message };
  };

  it('at the loop that runs, for every kind of loop', async () => {
    expect(
      await at('export function filterAction(a) {\n  let i = 0;\n  while (true) { i++; }\n}'),
    ).toMatchObject({ line: 3, column: 3 });
    expect(
      await at('export function filterAction(a) {\n  let i = 0;\n  for (;;) i++;\n}'),
    ).toMatchObject({ line: 3, column: 3 });
    expect(
      await at(
        'export function filterAction(a) {\n  let i = 1;\n\n    do { i = -i; } while (i)\n}',
      ),
    ).toMatchObject({ line: 4, column: 5 });
    // The labelled outer loop or the inner one it keeps re-entering: either is where it loops.
    const labelled = await at(
      'export function filterAction(a) {\n  outer: for (let i = 0; ; i++) {\n    for (const c of [1]) continue outer;\n  }\n}',
    );
    expect([
      { line: 2, column: 3 },
      { line: 3, column: 5 },
    ]).toContainEqual({ line: labelled.line, column: labelled.column });
    const message = (await at('export function filterAction(a) {\n  for (;;) {}\n}')).message;
    expect(message).toContain('(line 2, column 3: interrupted)');
  });

  it('after bounded loops, in helpers, arrow functions and top-level code', async () => {
    const code = [
      'function helper(n) { let t = 0; for (let k = 0; k < n; k++) t += k; return t; }', // 1
      'export function filterObservation(o) {', // 2
      '  const spin = () => { while (o) {} };', // 3
      '  for (let i = 0; i < 3; i++) helper(i);', // 4
      '  spin();', // 5
      '}', // 6
    ].join('\n');
    expect(await at(code)).toMatchObject({ line: 3, column: 24 });
    expect(
      await at(
        'let n = 0;\nwhile (n >= 0) n = (n + 1) % 7;\nexport function filterAction(a) { return a; }',
      ),
    ).toMatchObject({ line: 2, column: 1 });
  });

  it('at the call QuickJS saw when a bounded loop is over (a catastrophic regular expression)', async () => {
    const r = await at(
      'export function filterAction(a) {\n  for (let i = 0; i < 3; i++) {}\n  return /(a+)+$/.test("a".repeat(40) + "!");\n}',
    );
    expect(r.line).toBe(3);
  });
});
