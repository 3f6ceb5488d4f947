// The guest JavaScript comes from real files (guest/*.js), read once, and the hook argument table
// reaches it as data: any component can declare its own hooks without touching the sandbox.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HarnessCodeError } from '../../errors.ts';
import { LOCKDOWN, PRELUDE, RUNTIME } from './guest.ts';
import { SandboxHost } from './index.ts';

const file = (name: string) => readFileSync(new URL(`./guest/${name}`, import.meta.url), 'utf8');

describe('guest code', () => {
  it('is the content of guest/*.js', () => {
    expect(PRELUDE).toBe(file('prelude.js'));
    expect(RUNTIME).toBe(file('runtime.js'));
    expect(LOCKDOWN).toBe(file('lockdown.js'));
    for (const fn of ['__configure', '__begin', '__call', '__after', '__which'])
      expect(RUNTIME).toMatch(new RegExp(`function ${fn}\\(`));
    expect(PRELUDE).toMatch(/function __reseed\(/);
  });

  it('runs hooks of any signature table the host hands it', async () => {
    const host = new SandboxHost();
    await host.ready();
    const hooks = { pick: { primary: 1, state: 2 }, count: { primary: -1, state: 0 } };
    const set = host.load(
      `function pick(a, b, state) { if (state.swap) return a; if (state.touch) b.n += 1; }
       function count(state) { return Object.keys(state).length; }`,
      { hooks },
    );
    try {
      set.provideState(() => ({ swap: false, touch: false }));
      // Returning nothing means "the primary argument (b), unchanged".
      expect(set.call('pick', [{ n: 1 }, { n: 2 }])).toBeUndefined();
      set.provideState(() => ({ swap: true }));
      expect(set.call('pick', [{ n: 1 }, { n: 2 }])).toEqual({ n: 1 });
      set.provideState(() => ({ touch: true }));
      expect(set.call('pick', [{ n: 1 }, { n: 2 }])).toEqual({ n: 3 });
      set.provideState(() => ({ a: 1, b: 2, c: 3 }));
      expect(set.call('count', [])).toBe(3);
    } finally {
      set.destroy();
      host.dispose();
    }
  });

  it('keeps the user line numbers and freezes the globals after set-up', async () => {
    const host = new SandboxHost();
    await host.ready();
    const hooks = { f: { primary: 0, state: 1 } };
    try {
      expect(() => host.load('const x = 1;\nfunction f(a) { return a; }\nx(;', { hooks })).toThrow(
        /line 3/,
      );
      const set = host.load('function f(a) { Math.random = () => 4; return a; }', { hooks });
      expect(() => set.call('f', [1])).toThrow(HarnessCodeError);
      set.destroy();
    } finally {
      host.dispose();
    }
  });
});
