import { describe, expect, it } from 'vitest';
import { backoffText } from './backoff-text.ts';

describe('backoffText', () => {
  const b = { endpoint: 'http://127.0.0.1:8000/v1 qwen', leftMs: 4_000, retries: 12 };
  it('counts the wait down in whole seconds', () => {
    expect(backoffText(b, 200)).toBe(
      'Rate limited by http://127.0.0.1:8000/v1 qwen: waiting 4 s, 12 retries so far',
    );
  });
  it('says it is retrying once the wait is over', () => {
    expect(backoffText({ ...b, retries: 1 }, 4_000)).toBe(
      'Rate limited by http://127.0.0.1:8000/v1 qwen: retrying now, 1 retry so far',
    );
  });
});
