// Hook code in the sandbox: compile errors with their line, hostile hooks ending as harness errors
// within about a second with the host's memory intact, and the next episode running.
import { describe, expect, it } from 'vitest';
import { HarnessCodeError } from '../errors.ts';
import { compileHooks, compileWhen, createHarness, type HarnessSpec } from './index.ts';
import { MAX_HOOK_REPLY_BYTES, prepareHookSource } from './sandbox/index.ts';
import { act, fakeBridges } from './testing/fake-bridges.ts';

const contract = (code: string): HarnessSpec => ({
  version: 1,
  env: { type: 'contract', code, env: { type: 'base', bridge: 'room', task: 'key-in-box' } },
});

async function harnessFor(code: string) {
  return createHarness(contract(code), { bridges: fakeBridges().bridges });
}

async function codeError(p: Promise<unknown>): Promise<HarnessCodeError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(HarnessCodeError);
  return e as HarnessCodeError;
}

describe('compileHooks', () => {
  it('accepts ES-module exports and plain declarations, and lists the hooks', async () => {
    expect(
      (
        await compileHooks(
          'export function filterAction(a, s) { return a; }\nfunction filterObservation(o) { return o; }',
        )
      ).hooks,
    ).toEqual(['filterAction', 'filterObservation']);
    expect((await compileHooks('export const modifyTransition = (a, r) => r;')).hooks).toEqual([
      'modifyTransition',
    ]);
    expect((await compileHooks('// nothing yet')).hooks).toEqual([]);
  });

  it('keeps line and column of the user text when blanking `export`', () => {
    const src = '  export function filterAction(a) {}\nexport const x = 1;';
    const out = prepareHookSource(src);
    expect(out.length).toBe(src.length);
    expect(out.split('\n').map((l) => l.indexOf('function'))).toEqual([
      src.indexOf('function'),
      -1,
    ]);
  });

  it('reports syntax errors with line and column', async () => {
    const e = await codeError(compileHooks('function filterAction(a) {\n  const x = ;\n}'));
    expect(e.line).toBe(2);
    expect(e.column).toBeGreaterThan(0);
    expect(e.message).toMatch(
      /^hook code does not compile or failed while loading: line 2, column \d+: SyntaxError/,
    );
    expect(e.message).not.toContain('\n');
  });

  it('rejects a hook name bound to something that is not a function', async () => {
    const e = await codeError(compileHooks('export const filterAction = 42;'));
    expect(e.message).toContain('filterAction must be a function, not number');
  });

  it('rejects import statements and top-level errors, with their line', async () => {
    expect((await codeError(compileHooks('\nimport fs from "node:fs";'))).line).toBe(2);
    const e = await codeError(compileHooks('const a = 1;\nnull.boom;'));
    expect(e.line).toBe(2);
    expect(e.message).toContain('TypeError');
  });

  it('checks switch conditions', async () => {
    await compileWhen('state.holding !== null');
    const e = await codeError(compileWhen('state.holding ==='));
    expect(e.line).toBe(1);
  });
});

describe('hook semantics', () => {
  it('passes a read-only, lazily fetched state view', async () => {
    const h = await harnessFor(`export function filterAction(action, state) {
  if (action.args.command === 'peek') return { blocked: 'holding=' + state.holding + ' keys=' + Object.keys(state).join(',') };
  if (action.args.command === 'poke') { state.holding = 'x'; }
}`);
    await h.reset({ seed: 0 });
    await h.step(act('take key'));
    expect((await h.step(act('peek'))).record.blocked).toBe(
      'holding=key keys=holding,box,table,clean,seed',
    );
    const e = await codeError(h.step(act('poke')));
    expect(e.line).toBe(3);
    expect(e.hook).toBe('filterAction');
  });

  it('runs the top-level code afresh every episode, so module state does not leak', async () => {
    const h = await harnessFor(`let seen = 0;
export function filterObservation(o) { seen += 1; return o.text.slice(0, 10) + ' #' + seen; }`);
    expect((await h.reset({ seed: 0 })).observation.text).toBe('You are in #1');
    expect((await h.step(act('look'))).observation.text).toBe('On the tab #2');
    expect((await h.reset({ seed: 0 })).observation.text).toBe('You are in #1');
  });

  it('freezes globals and built-ins, so an episode cannot tamper with the next', async () => {
    const h = await harnessFor(`export function filterAction(action) {
  if (action.args.command === 'global') globalThis.leak = 1;
  if (action.args.command === 'proto') Array.prototype.sum = () => 0;
  if (action.args.command === 'json') JSON.parse = () => ({});
  return action;
}`);
    for (const [command, line] of [
      ['global', 2],
      ['proto', 3],
      ['json', 4],
    ] as const) {
      await h.reset({ seed: 0 });
      const e = await codeError(h.step(act(command)));
      expect(e.line).toBe(line);
      expect(e.message).toContain('TypeError');
    }
  });

  it('seeds Math.random from the episode seed', async () => {
    const h = await harnessFor(
      'export function filterObservation(o) { return o.text + " " + Math.random().toFixed(6); }',
    );
    const a = (await h.reset({ seed: 5 })).observation.text;
    const b = (await h.reset({ seed: 5 })).observation.text;
    const c = (await h.reset({ seed: 6 })).observation.text;
    expect(a).toBe(b);
    expect(a).not.toBe(c);
  });

  it('refuses a hook reply over the size cap, naming the hook and the sizes', async () => {
    for (const [hook, body, size] of [
      ['filterObservation', "return { text: 'x'.repeat(1 << 24) };", '16.0 MiB'],
      [
        'filterAction',
        "return { name: 'act', args: { command: 'y'.repeat(300 * 1024) } };",
        '301 KiB',
      ],
      [
        'modifyTransition',
        "return { ...r, observation: { text: 'z'.repeat(1 << 20) } };",
        '1.0 MiB',
      ],
    ] as const) {
      const args = hook === 'modifyTransition' ? 'a, r' : 'o';
      const h = await harnessFor(`export function ${hook}(${args}) { ${body} }`);
      // filterObservation already runs on the reset's observation.
      const e = await codeError(
        hook === 'filterObservation'
          ? h.reset({ seed: 0 })
          : h.reset({ seed: 0 }).then(() => h.step(act('look'))),
      );
      expect(e.hook).toBe(hook);
      expect(e.message).toContain(`hook ${hook} returned ${size}; the limit is 256 KiB`);
    }
    // Just under the cap passes.
    const h = await harnessFor(
      `export function filterObservation(o) { return { text: 'x'.repeat(${MAX_HOOK_REPLY_BYTES - 64}) }; }`,
    );
    await h.reset({ seed: 0 });
    expect((await h.step(act('look'))).observation.text).toHaveLength(MAX_HOOK_REPLY_BYTES - 64);
  });

  it('names the failing hook when both after-step hooks run in one crossing', async () => {
    const h = await harnessFor(`export function modifyTransition(action, result) {
  result.observation.text += ' (checked)';
}
export function filterObservation(observation) {
  if (observation.text.startsWith('You pick up')) throw new RangeError('too long: ' + observation.text);
  return observation;
}`);
    await h.reset({ seed: 0 });
    // In-place changes without a return value count.
    const r = await h.step(act('look'));
    expect(r.observation.text).toMatch(/You are fine\. \(checked\)$/);
    const e = await codeError(h.step(act('take key')));
    expect(e.hook).toBe('filterObservation');
    expect(e.line).toBe(5);
    expect(e.message).toContain(
      'RangeError: too long: You pick up the key. It feels light. Nothing else. (checked)',
    );
  });

  it('rejects wrong return shapes with a message a model can act on', async () => {
    const h = await harnessFor('export function filterAction(a) { return { command: "look" }; }');
    await h.reset({ seed: 0 });
    const e = await codeError(h.step(act('look')));
    expect(e.message).toMatch(
      /hook filterAction returned \{"command":"look"\}: expected an action \{ name, args \} or \{ blocked: "reason" \}/,
    );
  });
});

describe('hostile hooks end as harness errors, the host survives, the next episode runs', () => {
  // Each hostile path only triggers on the command 'boom', so the same harness can run again.
  const hostile: [string, string, RegExp][] = [
    ['endless loop', 'for (;;) {}', /ran longer than its 250 ms limit/],
    [
      'memory bomb',
      'const a = []; for (;;) a.push(new Array(100000).fill(7));',
      /ran out of memory \(limit 64 MiB\)/,
    ],
    [
      'string bomb',
      'let s = "x"; for (;;) s += s;',
      /ran out of memory|Invalid string length|RangeError|InternalError/,
    ],
    [
      'throw',
      'throw new Error("nope");',
      /hook filterAction failed: line 3, column \d+: Error: nope/,
    ],
    ['deep recursion', 'const f = (n) => f(n + 1) + 1; f(0);', /overflowed the stack/],
    ['deep JSON', 'JSON.parse("[".repeat(200000));', /overflowed the stack|SyntaxError/],
    ['process', 'process.exit(1);', /ReferenceError: 'process' is not defined/],
    ['require', 'require("node:fs");', /ReferenceError: 'require' is not defined/],
    ['fetch', 'fetch("http://127.0.0.1:9");', /ReferenceError: 'fetch' is not defined/],
    [
      'dynamic import',
      'return import("node:fs");',
      /returned a Promise|not JSON|could not load module/,
    ],
    [
      'globalThis escape',
      'return globalThis.constructor.constructor("return process")().exit(1);',
      /ReferenceError: 'process' is not defined/,
    ],
  ];

  for (const [name, body, message] of hostile) {
    it(name, async () => {
      const h = await harnessFor(`export function filterAction(action, state) {
  if (action.args.command === 'boom') {
    ${body}
  }
  return action;
}`);
      await h.reset({ seed: 0 });
      const rss = process.memoryUsage().rss;
      // CPU time of this test's process: the hook is stopped by its limits, not by the wall clock,
      // and a busy machine stretches wall time (a memory bomb took 1.7 s of it at load 10).
      const cpu = process.cpuUsage();
      const e = await codeError(h.step(act('boom')));
      const used = process.cpuUsage(cpu);
      expect((used.user + used.system) / 1000).toBeLessThan(1500);
      expect(e.message).toMatch(message);
      expect(e.hook).toBe('filterAction');
      // The episode is over: further steps refuse until reset.
      await codeError(h.step(act('look')));
      // The next episode runs (a fatal error rebuilt the sandbox instance).
      await h.reset({ seed: 1 });
      const ok = await h.step(act('take key'));
      expect(ok.observation.text).toContain('You pick up the key');
      expect(process.memoryUsage().rss - rss).toBeLessThan(256 * 1024 * 1024);
      await h.close();
    });
  }

  it('a harness closed after a fatal error hands no broken sandbox to the next harness', async () => {
    const code = `export function filterAction(action) {
  if (action.args.command === 'boom') { const a = []; for (;;) a.push(new Array(100000).fill(1)); }
  return action;
}`;
    const first = await harnessFor(code);
    await first.reset({ seed: 0 });
    await codeError(first.step(act('boom')));
    await first.close();
    await first.close();
    const second = await harnessFor(code);
    await second.reset({ seed: 0 });
    expect((await second.step(act('take key'))).observation.text).toContain('You pick up the key');
    await second.close();
  });

  it('a broken hook never becomes a task failure: evaluate() still reflects the env', async () => {
    const h = await harnessFor(
      'export function filterObservation(o) { if (o.text.startsWith("You put")) throw new Error("bad"); return o; }',
    );
    await h.reset({ seed: 0 });
    await h.step(act('take key'));
    await h.step(act('open box'));
    await codeError(h.step(act('put key in box')));
    expect((await h.evaluate()).success).toBe(true);
  });

  it('many memory bombs in a row leave the host memory bounded', async () => {
    const h = await harnessFor(
      'export function filterAction(a) { const x = []; for (;;) x.push("y".repeat(1000) + x.length); }',
    );
    const before = process.memoryUsage().rss;
    for (let i = 0; i < 6; i++) {
      await h.reset({ seed: i });
      await codeError(h.step(act('look')));
    }
    expect(process.memoryUsage().rss - before).toBeLessThan(400 * 1024 * 1024);
    await h.close();
  });
});
