import { describe, expect, it } from 'vitest';
import { countOf } from './plural.ts';
import { otherProblems, problemsAt, problemsOfError, sentence } from './problems.ts';

describe('errors as sentences', () => {
  it("reads the server's problems, and never shows a zod dump as the message", () => {
    const fromServer = {
      message: 'band: the low end must not be above the high end',
      data: { issues: [{ path: 'band', message: 'the low end must not be above the high end' }] },
    };
    expect(problemsOfError(fromServer)).toEqual([
      { path: 'band', message: 'the low end must not be above the high end' },
    ]);
    // What the old server sent: zod's issues as JSON in the message.
    const dump = new Error(
      JSON.stringify(
        [{ code: 'custom', path: ['band'], message: 'band: lo must not exceed hi' }],
        null,
        2,
      ),
    );
    expect(problemsOfError(dump)).toEqual([
      { path: 'band', message: 'band: lo must not exceed hi' },
    ]);
    expect(problemsOfError(new Error('unknown policy'))).toEqual([
      { path: '', message: 'unknown policy' },
    ]);
    expect(problemsOfError(null)).toEqual([]);
  });

  it('hands each field its problems and the form the rest', () => {
    const list = [
      { path: 'band', message: 'a' },
      { path: 'band.1', message: 'b' },
      { path: 'k', message: 'c' },
      { path: 'taskIds', message: 'd' },
    ];
    expect(problemsAt(list, 'band').map((p) => p.message)).toEqual(['a', 'b']);
    expect(otherProblems(list, ['band', 'k']).map((p) => p.message)).toEqual(['d']);
  });

  it('writes one sentence per problem', () => {
    expect(sentence({ path: 'k', message: 'must be at most 100' })).toBe('Must be at most 100.');
    expect(sentence({ path: 'k', message: 'must be at most 100' }, true)).toBe(
      'k: must be at most 100.',
    );
    expect(sentence({ path: '', message: "unknown bridge 'x' (known: a)" }, true)).toBe(
      "Unknown bridge 'x' (known: a)",
    );
  });

  it('counts with the right number', () => {
    expect(countOf(1, 'version')).toBe('1 version');
    expect(countOf(2, 'version')).toBe('2 versions');
    expect(countOf(1362, 'task')).toBe('1,362 tasks');
  });
});
