import { describe, expect, it } from 'vitest';
import { listStateOf, nextSort, sortPatch } from './list-state.ts';

const params = (qs: string) => new URLSearchParams(qs);

describe('runs list view state in the URL', () => {
  it('reads filters, search and sort, and drops what the server would refuse', () => {
    expect(
      listStateOf(
        params(
          'bridge=household&policy=scripted:household-looper&status=completed&outcome=all_errors&q=eval&sort=success&dir=asc',
        ),
      ),
    ).toEqual({
      filter: {
        bridge: 'household',
        policy: 'scripted:household-looper',
        status: 'completed',
        outcome: 'all_errors',
        q: 'eval',
      },
      sort: 'success',
      dir: 'asc',
    });
    expect(listStateOf(params('status=exploded&outcome=meh&sort=colour&dir=up'))).toEqual({
      filter: {},
      sort: 'started',
      dir: 'desc',
    });
  });

  it('sorts a new column in its natural direction and flips the same column', () => {
    const start = { sort: 'started', dir: 'desc' } as const;
    expect(nextSort(start, 'task')).toEqual({ sort: 'task', dir: 'asc' });
    expect(nextSort(start, 'success')).toEqual({ sort: 'success', dir: 'desc' });
    expect(nextSort({ sort: 'success', dir: 'desc' }, 'success')).toEqual({
      sort: 'success',
      dir: 'asc',
    });
    expect(nextSort(start, 'started')).toEqual({ sort: 'started', dir: 'asc' });
  });

  it('keeps the URL clean for the default sort', () => {
    expect(sortPatch({ sort: 'started', dir: 'desc' })).toEqual({ sort: null, dir: null });
    expect(sortPatch({ sort: 'errors', dir: 'desc' })).toEqual({ sort: 'errors', dir: 'desc' });
  });
});
