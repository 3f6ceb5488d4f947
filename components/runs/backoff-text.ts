// The run page's line for a rate-limit back-off (server/rollouts/events.ts RunBackoff).

export interface BackoffView {
  endpoint: string;
  /** Time left when the server answered, in ms. */
  leftMs: number;
  retries: number;
}

/**
 * "Rate limited by <endpoint>: waiting 4 s, 12 retries so far" (retrying now once the wait is over);
 * `elapsedMs` since the server answered.
 */
export function backoffText(b: BackoffView, elapsedMs: number): string {
  const left = Math.ceil((b.leftMs - elapsedMs) / 1000);
  const retries = `${b.retries} ${b.retries === 1 ? 'retry' : 'retries'} so far`;
  const wait = left > 0 ? `waiting ${left} s` : 'retrying now';
  return `Rate limited by ${b.endpoint}: ${wait}, ${retries}`;
}
