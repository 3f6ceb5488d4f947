// Auto mode's memory: once an episode finds that an endpoint cannot do tool calling (it refused
// tools, or the model answered in ReAct text), the rest of the run speaks ReAct. Episodes run in
// worker threads of one process, so what one thread learns is told to the others over a
// BroadcastChannel; a thread that has not heard yet learns it itself at the cost of one refused
// request (no step). Keyed by run, endpoint and model, so another run starts fresh.
import '#server-only';
import { BroadcastChannel } from 'node:worker_threads';

export interface Fallback {
  reason: string;
}

const MAX_ENTRIES = 1000;
const memo = new Map<string, Fallback>();
let channel: BroadcastChannel | undefined;

function remember(key: string, fallback: Fallback): void {
  memo.delete(key);
  memo.set(key, fallback);
  if (memo.size > MAX_ENTRIES) {
    const oldest = memo.keys().next().value;
    if (oldest !== undefined) memo.delete(oldest);
  }
}

function listen(): BroadcastChannel {
  if (!channel) {
    channel = new BroadcastChannel('envharness:openai-mode');
    // Listening must not keep a finished process or thread alive.
    channel.unref();
    channel.onmessage = (event: unknown) => {
      const data = (event as { data?: unknown }).data as { key?: unknown; reason?: unknown };
      if (typeof data?.key === 'string' && typeof data.reason === 'string') {
        remember(data.key, { reason: data.reason });
      }
    };
  }
  return channel;
}

export function modeKey(runId: string | undefined, baseURL: string, model: string) {
  return runId ? `${runId}\n${baseURL}\n${model}` : undefined;
}

/** The fallback an earlier episode of this run found, if any. */
export function knownFallback(key: string | undefined): Fallback | undefined {
  if (!key) return undefined;
  listen();
  return memo.get(key);
}

export function shareFallback(key: string | undefined, fallback: Fallback): void {
  if (!key) return;
  remember(key, fallback);
  listen().postMessage({ key, reason: fallback.reason });
}
