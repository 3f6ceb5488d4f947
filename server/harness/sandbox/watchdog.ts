// The watchdog protocol between a worker thread and its IsolatedPool (worker-pool.ts). Long
// built-ins ('x'.repeat(1e7) in a loop) escape QuickJS's interrupt handler; the only hard stop is
// terminating the thread. The sandbox marks "hook N started at t" in shared memory (an Int32 slot
// for the hook, a Float64 for the start time); the host reads it and kills overruns.

export const WATCHDOG_BYTES = 16;

/** The names a mark can carry (index + 1 in the Int32 slot; 0 is idle). */
export const WATCHED_NAMES = [
  'filterAction',
  'modifyTransition',
  'filterObservation',
  'when',
  '(load)',
  'modifyTransition or filterObservation',
] as const;

let watchdog: { status: Int32Array; started: Float64Array } | undefined;

/** Called inside a worker thread with the SharedArrayBuffer the pool gave it. */
export function attachWatchdog(buffer: SharedArrayBuffer): void {
  watchdog = { status: new Int32Array(buffer, 0, 2), started: new Float64Array(buffer, 8, 1) };
}

/** Host side: which hook is running and since when (ms since epoch), or undefined when idle. */
export function readWatchdog(
  buffer: SharedArrayBuffer,
): { hook: string; startedAt: number } | undefined {
  const status = new Int32Array(buffer, 0, 2);
  const id = Atomics.load(status, 0);
  if (id === 0) return undefined;
  const startedAt = new Float64Array(buffer, 8, 1)[0] ?? 0;
  return { hook: WATCHED_NAMES[id - 1] ?? 'hook', startedAt };
}

/** Guest code for `name` starts now (a no-op outside a pool worker). */
export function markStart(name: string): void {
  if (!watchdog) return;
  watchdog.started[0] = Date.now();
  Atomics.store(
    watchdog.status,
    0,
    WATCHED_NAMES.indexOf(name as never) + 1 || WATCHED_NAMES.length,
  );
}

/** No guest code runs any more. */
export function markEnd(): void {
  if (watchdog) Atomics.store(watchdog.status, 0, 0);
}
