// The loop instrumentation: every loop is wrapped and ticks, the code means the same, and positions
// map back to the user's text.
import { describe, expect, it } from 'vitest';
import { instrumentLoops } from './loops.ts';

describe('instrumentLoops', () => {
  it('wraps every kind of loop and keeps line numbers', () => {
    const code = [
      'let n = 0;',
      'outer: for (let i = 0; i < 3; i++) {',
      '  for (const c of [1, 2]) { if (c === 2) continue outer; n += c; }',
      '}',
      'while (n < 10) n++;',
      'do n--; while (n > 5)',
      'for (const k in { a: 1 }) n += k.length;',
      'return n;',
    ].join('\n');
    const out = instrumentLoops(code);
    expect(out.code.split('\n')).toHaveLength(code.split('\n').length);
    expect(out.code.match(/__loopTick\(\d+\);/g)).toHaveLength(5);
    expect(out.code.match(/__loopEnter\(\)/g)).toHaveLength(5);
    // The label stays on its loop: the wrapper goes around the labelled statement.
    expect(out.code).toContain('{const __loop=__loopEnter();try{outer: for');
    const run = (src: string) => {
      const calls = { tick: 0 };
      const fn = new Function(
        '__loopTick',
        '__loopEnter',
        '__loopLeave',
        `'use strict';\n${src}`,
      ) as (t: () => void, e: () => number, l: () => void) => number;
      return {
        value: fn(
          () => {
            calls.tick += 1;
          },
          () => -1,
          () => undefined,
        ),
        calls,
      };
    };
    expect(run(out.code).value).toBe(run(code).value);
    expect(run(out.code).calls.tick).toBeGreaterThan(0);
  });

  it('maps columns after an insertion back, and inserted text to its loop', () => {
    const code = 'let a = 0; while (a < 1) { a++; } null.x;';
    const out = instrumentLoops(code);
    const original = code.indexOf('null') + 1;
    const shifted = out.code.indexOf('null') + 1;
    expect(out.toOriginal({ line: 1, column: shifted })).toEqual({ line: 1, column: original });
    const tick = out.code.indexOf('__loopTick') + 1;
    expect(out.toOriginal({ line: 1, column: tick })).toEqual({
      line: 1,
      column: code.indexOf('while') + 1,
    });
  });

  it('leaves code that does not parse alone', () => {
    const out = instrumentLoops('while (');
    expect(out.code).toBe('while (');
    expect(out.toOriginal({ line: 1, column: 3 })).toEqual({ line: 1, column: 3 });
  });

  it('reports an interrupt at the running loop unless QuickJS saw another function', () => {
    const code = [
      'function f() {', // 1
      '  const g = () => /(a+)+$/.test(s);', // 2
      '  for (;;) {', // 3
      '    g();', // 4
      '  }', // 5
      '}', // 6
    ].join('\n');
    const out = instrumentLoops(code);
    // Stale (the function's first line): the loop.
    expect(out.interruptAt({ line: 1, column: 1 }, 0)).toEqual({ line: 3, column: 3 });
    // No position at all: the loop.
    expect(out.interruptAt(undefined, 0)).toEqual({ line: 3, column: 3 });
    // Anywhere in the loop's own function: the loop.
    expect(out.interruptAt({ line: 4, column: 5 }, 0)).toEqual({ line: 3, column: 3 });
    // In another function the loop called: QuickJS's own.
    expect(out.interruptAt({ line: 2, column: 20 }, 0)).toEqual({ line: 2, column: 20 });
    // No loop running: QuickJS's own.
    expect(out.interruptAt({ line: 2, column: 20 }, -1)).toEqual({ line: 2, column: 20 });
  });
});
