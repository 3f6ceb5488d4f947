// Runs one corpus hook the way the Contract layer does — the engine's compile check, then one
// sandbox call of the hook on a small step — and classifies the outcome. Used on the test's own
// thread (the host whose globals an escape would touch) and inside IsolatedPool workers.
import type { Json } from '../../bridges/core/types.ts';
import { HarnessCodeError } from '../errors.ts';
import { CONTRACT_HOOKS } from '../harness/contract.ts';
import type { SandboxHost } from '../harness/sandbox/index.ts';
import type { CorpusHook } from './hook-corpus.ts';

export type HookOutcome =
  /**
   * The hook returned (benign programs may). Only the reply's size and whether it carries the
   * escape marker are kept: an oversize reply must not be held on to by the test itself.
   */
  | { status: 'returned'; bytes: number; escaped: boolean }
  /** Ended as a harness error (HarnessCodeError), the required end for every attack. */
  | { status: 'harness-error'; message: string }
  /** Any other exception reaching the host: a hardening defect. */
  | { status: 'other-error'; name: string; message: string };

const ACTION: Json = { name: 'act', args: { command: 'open box 1' } };
const STATE: Json = { agent: { location: 'kitchen', holding: null }, objects: ['box 1', 'key 1'] };
const STEP_REST: Json = {
  observation: { text: 'You open the box 1. It is empty.' },
  reward: 0,
  terminated: false,
  truncated: false,
};
const INFO: Record<string, Json> = { admissible: ['look', 'take key 1', 'close box 1'] };

export async function runHook(host: SandboxHost, h: CorpusHook): Promise<HookOutcome> {
  try {
    await host.ready();
    const set = host.load(h.code, { hooks: CONTRACT_HOOKS, seed: h.id });
    try {
      set.provideState(() => STATE);
      let value: Json | undefined;
      if (set.has('filterAction')) {
        value = set.call('filterAction', [ACTION]);
      } else if (set.has('modifyTransition') || set.has('filterObservation')) {
        const out = set.after(ACTION, STEP_REST, INFO);
        value = out.transition ?? out.observation(STEP_REST);
      }
      const json = JSON.stringify(value ?? null);
      return { status: 'returned', bytes: json.length, escaped: json.includes('ESCAPED') };
    } finally {
      set.dispose();
    }
  } catch (e) {
    if (e instanceof HarnessCodeError) return { status: 'harness-error', message: e.message };
    const err = e instanceof Error ? e : new Error(String(e));
    return { status: 'other-error', name: err.name, message: err.message.slice(0, 300) };
  }
}

/** A returned value that carries the attack marker means the attack reached a capability. */
export function reportsEscape(outcome: HookOutcome): boolean {
  return outcome.status === 'returned' && outcome.escaped;
}
