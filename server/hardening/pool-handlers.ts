// IsolatedPool handlers for the hook corpus: batches run here in parallel, and long built-ins run
// here too, where the pool's watchdog can terminate the thread. Each worker reports whether its
// own globals or prototypes were touched (the escape canary for hooks run off the main thread).
import { SandboxHost } from '../harness/sandbox/index.ts';
import type { CorpusHook } from './hook-corpus.ts';
import { type HookOutcome, runHook } from './hook-runner.ts';

let host: SandboxHost | undefined;

function snapshot(): string {
  const names = (o: object) => Object.getOwnPropertyNames(o).sort().join(',');
  return [
    names(globalThis),
    names(Object.prototype),
    names(Array.prototype),
    names(Function.prototype),
    names(String.prototype),
  ].join('|');
}

export interface BatchResult {
  outcomes: { id: number; outcome: HookOutcome }[];
  hostTouched: boolean;
}

export const handlers = {
  async batch(input: unknown): Promise<BatchResult> {
    host ??= new SandboxHost({ hookTimeoutMs: 30 });
    const before = snapshot();
    const outcomes: BatchResult['outcomes'] = [];
    for (const h of input as CorpusHook[])
      outcomes.push({ id: h.id, outcome: await runHook(host, h) });
    return { outcomes, hostTouched: snapshot() !== before };
  },
};
