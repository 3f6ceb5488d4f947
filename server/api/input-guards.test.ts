import { describe, expect, it } from 'vitest';
import { resourceRefs, stringProblem, textProblem } from './input-guards.ts';

describe('clean text', () => {
  it('accepts well-formed text with tabs, line breaks, emoji and other scripts', () => {
    for (const s of [
      '',
      'plain',
      'tab\there',
      'a\r\nb\n',
      '🚀 surrogate pair',
      'Ünïcödé 中文 عربى',
    ])
      expect(stringProblem(s), JSON.stringify(s)).toBeUndefined();
  });

  it('refuses lone surrogates, NUL, other C0 controls, DEL and C1 controls, saying where', () => {
    expect(stringProblem('x\ud800')).toMatch(/^has a lone surrogate \(U\+D800\) at character 2/);
    expect(stringProblem('\udfffx')).toMatch(/U\+DFFF\) at character 1/);
    expect(stringProblem('ab\u0000')).toMatch(/^has NUL at character 3/);
    expect(stringProblem('\u001b[31m')).toMatch(/control character U\+001B at character 1/);
    expect(stringProblem('del\u007f')).toMatch(/U\+007F/);
    expect(stringProblem('\u0085')).toMatch(/U\+0085/);
  });

  it('names the path of the first bad string, keys included', () => {
    expect(textProblem({ a: [{ b: 'ok' }, { c: 'x\u0000' }] })).toBe(
      'a[1].c has NUL at character 2: only tab and line breaks are allowed among control characters',
    );
    expect(textProblem({ opts: { 'k\u0007': 1 } })).toMatch(
      /^opts\.k\\u0007 \(a key\) has the control/,
    );
    expect(textProblem('\ud800')).toMatch(/^\(input\) has a lone surrogate/);
    expect(textProblem({ n: 1, b: true, z: null, s: 'fine' })).toBeUndefined();
  });

  it('walks a 20,000-deep input without overflowing the stack', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 20_000; i++) deep = { d: deep };
    expect(textProblem(deep)).toMatch(/has NUL/);
  });
});

describe('resource references', () => {
  it('finds reserved keys anywhere: nested options, arrays, id lists; ignores other keys', () => {
    const refs = resourceRefs({
      runId: 'r1',
      policyOptions: { skillBankId: 'b1', tags: ['x'] },
      spec: { env: { actions: [{ args: { harnessVersionId: 'v1' } }] } },
      runIds: ['r2', 'r1', 7],
      taskId: 't',
      id: 'not-reserved',
      episodeId: '',
    });
    expect(refs).toEqual(
      expect.arrayContaining([
        { kind: 'run', id: 'r1' },
        { kind: 'bank', id: 'b1' },
        { kind: 'harnessVersion', id: 'v1' },
        { kind: 'run', id: 'r2' },
      ]),
    );
    expect(refs).toHaveLength(4);
  });
});
