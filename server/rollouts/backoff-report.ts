// From the model endpoints' gates (server/policies/llm-gate.ts) to the run page: each gate change
// becomes a RunBackoff of every run of ours waiting on that endpoint (RunEvents.publishBackoff),
// and its end (the endpoint answered again) clears it for every run that was told.
import { onGateChange } from '../policies/llm-gate.ts';
import type { RunEvents } from './events.ts';

/** A run's updates while the back-off lasts are sent at most this often (its end always is). */
const EVERY_MS = 250;

/** Reports back-offs of the runs `owns` accepts; returns the unsubscribe. */
export function reportBackoffs(events: RunEvents, owns: (runId: string) => boolean): () => void {
  const told = new Map<string, Set<string>>();
  const sent = new Map<string, { at: number; until: number }>();
  return onGateChange((state) => {
    const now = Date.now();
    const active = state.retries > 0;
    const runs = active ? state.runIds.filter(owns) : [...(told.get(state.endpoint) ?? [])];
    if (active) {
      const set = told.get(state.endpoint) ?? new Set<string>();
      for (const r of runs) set.add(r);
      told.set(state.endpoint, set);
    } else {
      told.delete(state.endpoint);
    }
    for (const runId of runs) {
      const key = `${runId} ${state.endpoint}`;
      const last = sent.get(key);
      if (active && last && last.until === state.until && now - last.at < EVERY_MS) continue;
      if (active) sent.set(key, { at: now, until: state.until });
      else sent.delete(key);
      events.publishBackoff({
        runId,
        endpoint: state.endpoint,
        until: state.until,
        waitMs: state.waitMs,
        retries: state.retries,
        at: now,
      });
    }
  });
}
