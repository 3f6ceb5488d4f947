// Rate limits (HTTP 429) are an endpoint's, not an episode's: one gate per endpoint (base URL +
// model), shared by every request of this process. A 429 closes the gate for the server's
// Retry-After (or an exponential back-off that grows with each 429 in a row, the larger of the
// two); while it is closed no request is sent; when it opens one request goes first as a probe
// and the others follow only once it has succeeded. A success resets the back-off. Episodes waiting
// on a gate do not spend their own retries; an episode gives up after `patienceMs` of waiting.
//
// Gate changes are announced to `onGateChange` listeners (the rollout side reports them to the run
// page: "Rate limited by <endpoint>: waiting 4 s, 12 retries so far"). Worker threads of the process
// (episodes under Contract code) keep gates of their own, kept in step over a BroadcastChannel: a
// 429 seen in one thread closes the endpoint's gate in every thread, and the main thread announces it.
import { setMaxListeners } from 'node:events';
import { BroadcastChannel } from 'node:worker_threads';

export interface GateState {
  /** Base URL + model, as shown to a person. */
  endpoint: string;
  /** Closed until this time (epoch ms); 0 when open. */
  until: number;
  /** The back-off the last 429 set, in ms (0 when open). */
  waitMs: number;
  /** 429 answers since the last success. */
  retries: number;
  /** Runs with requests waiting on (or answered 429 by) this endpoint. */
  runIds: string[];
}

type Listener = (state: GateState) => void;
const listeners = new Set<Listener>();

/** Every gate change of this process (a 429, a success after 429s); returns the unsubscribe. */
export function onGateChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export interface GateOptions {
  baseMs?: number;
  maxMs?: number;
}

/** A request's pass through the gate: which back-off round it was sent in. */
interface Ticket {
  round: number;
  probe: boolean;
}

export class EndpointGate {
  private until = 0;
  private waitMs = 0;
  private retries = 0;
  /** 429 rounds in a row (each escalates the back-off once, however many requests it caught). */
  private streak = 0;
  private round = 0;
  private probing = false;
  private wakers: (() => void)[] = [];
  private readonly waiting = new Map<string, number>();
  private readonly baseMs: number;
  private readonly maxMs: number;

  constructor(
    readonly endpoint: string,
    o: GateOptions = {},
  ) {
    this.baseMs = o.baseMs ?? 1000;
    this.maxMs = o.maxMs ?? 60_000;
  }

  get state(): GateState {
    const open = this.until <= Date.now() && this.streak === 0;
    return {
      endpoint: this.endpoint,
      until: open ? 0 : this.until,
      waitMs: open ? 0 : this.waitMs,
      retries: this.retries,
      runIds: [...this.waiting.keys()].sort(),
    };
  }

  /** Resolves when a request may go; rejects with the signal's reason when it is aborted. */
  async enter(runId: string | undefined, signal?: AbortSignal): Promise<Ticket> {
    const key = runId ?? '';
    this.waiting.set(key, (this.waiting.get(key) ?? 0) + 1);
    try {
      for (;;) {
        signal?.throwIfAborted();
        const now = Date.now();
        if (this.until > now) {
          await this.pause(this.until - now, signal);
          continue;
        }
        if (this.streak === 0) return { round: this.round, probe: false };
        if (!this.probing) {
          this.probing = true;
          return { round: this.round, probe: true };
        }
        await this.pause(undefined, signal);
      }
    } finally {
      const n = (this.waiting.get(key) ?? 1) - 1;
      if (n > 0) this.waiting.set(key, n);
      else this.waiting.delete(key);
    }
  }

  /** The request was answered 429: close the gate (once per round) for retry-after or longer. */
  rateLimited(ticket: Ticket, retryAfterMs: number | undefined, runId?: string): void {
    this.retries += 1;
    if (ticket.probe) this.probing = false;
    if (ticket.round === this.round) {
      // Requests sent before the gate closed answer 429 too: they do not escalate it again.
      this.round += 1;
      this.streak += 1;
      const exp = Math.min(this.baseMs * 2 ** (this.streak - 1), this.maxMs);
      this.waitMs = Math.max(exp, retryAfterMs ?? 0);
      this.until = Date.now() + this.waitMs;
    }
    this.announce(runId);
    this.wake();
  }

  /** The request was answered (not 429): the gate is open, the back-off starts again from scratch. */
  succeeded(ticket: Ticket): void {
    if (ticket.probe) this.probing = false;
    if (this.streak === 0 && this.retries === 0) return;
    this.streak = 0;
    this.retries = 0;
    this.waitMs = 0;
    this.until = 0;
    this.round += 1;
    this.announce();
    this.wake();
  }

  /** Another failure (network, 5xx): the next waiting request may probe instead. */
  failed(ticket: Ticket): void {
    if (!ticket.probe) return;
    this.probing = false;
    this.wake();
  }

  /** Another thread's gate of this endpoint changed: this one follows (and says so, but no further). */
  adopt(peer: PeerState): void {
    if (peer.retries > 0) {
      if (peer.until > this.until) {
        this.until = peer.until;
        this.waitMs = peer.waitMs;
      }
      this.streak = Math.max(this.streak, peer.streak);
      this.retries = Math.max(this.retries, peer.retries);
    } else {
      if (this.streak === 0 && this.retries === 0) return;
      this.streak = 0;
      this.retries = 0;
      this.waitMs = 0;
      this.until = 0;
    }
    this.round += 1;
    this.announce(undefined, peer.runIds);
    this.wake();
  }

  private announce(runId?: string, peerRunIds?: string[]): void {
    const state = this.state;
    const runs = new Set([...state.runIds, ...(runId !== undefined ? [runId] : [])]);
    for (const id of peerRunIds ?? []) runs.add(id);
    runs.delete('');
    state.runIds = [...runs].sort();
    for (const l of listeners) l(state);
    if (peerRunIds === undefined) {
      const peer: PeerState = { ...state, streak: this.streak };
      channel?.postMessage(peer);
    }
  }

  private wake(): void {
    const w = this.wakers;
    this.wakers = [];
    for (const f of w) f();
  }

  /** Until `ms` pass (or, without ms, until the gate changes), or the signal aborts. */
  private pause(ms: number | undefined, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      if (ms !== undefined) timer = setTimeout(done, ms);
      this.wakers.push(done);
      if (signal) setMaxListeners(0, signal); // every waiting episode of a run listens to its signal
      signal?.addEventListener('abort', done, { once: true });
    });
  }
}

/** What a gate tells the other threads' gates of its endpoint. */
interface PeerState extends GateState {
  streak: number;
}

const gates = new Map<string, EndpointGate>();

const channel = new BroadcastChannel('harness:llm-gates');
channel.unref();
channel.onmessage = (event: unknown) => {
  const peer = (event as { data?: PeerState }).data;
  if (!peer || typeof peer.endpoint !== 'string') return;
  let gate = gates.get(peer.endpoint);
  if (!gate) {
    if (peer.retries === 0) return;
    gate = new EndpointGate(peer.endpoint);
    gates.set(peer.endpoint, gate);
  }
  gate.adopt(peer);
};

/** The gate of an endpoint, one per base URL + model in this process. */
export function gateFor(baseURL: string, model: string, o?: GateOptions): EndpointGate {
  const endpoint = `${baseURL.replace(/\/+$/, '')} ${model}`;
  let gate = gates.get(endpoint);
  if (!gate) {
    gate = new EndpointGate(endpoint, o);
    gates.set(endpoint, gate);
  }
  return gate;
}

/** The server's Retry-After (retry-after-ms, or retry-after in seconds or as an HTTP date), in ms. */
export function retryAfterMs(headers: Headers | undefined): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Number(ms);
  const after = headers.get('retry-after');
  if (after === null) return undefined;
  const s = Number(after);
  if (Number.isFinite(s) && s >= 0) return s * 1000;
  const date = Date.parse(after);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}

/** Rate limited for longer than the caller would wait: PolicyInfraError's cause. */
export class RateLimitedError extends Error {
  override name = 'RateLimitedError';
}

/**
 * Sends one request through the endpoint's gate: waits while it is closed, and on a 429 waits again
 * and resends — never counted as the caller's retry — until `patienceMs` of rate limiting have passed
 * (then throws RateLimitedError). Other errors go to the caller as they are.
 */
export async function throughGate<T>(
  gate: EndpointGate,
  send: () => Promise<T>,
  o: { runId?: string | undefined; patienceMs: number; signal?: AbortSignal },
): Promise<T> {
  let limitedSince: number | undefined;
  for (;;) {
    const ticket = await gate.enter(o.runId, o.signal);
    try {
      const value = await send();
      gate.succeeded(ticket);
      return value;
    } catch (error) {
      // The SDK is loaded here, not with this module: the rollout engine imports the gate for its
      // back-off reports on every run, LLM or not (a 429 comes only once a client has loaded it).
      const { APIError } = await import('openai');
      if (!(error instanceof APIError) || error.status !== 429) {
        gate.failed(ticket);
        throw error;
      }
      gate.rateLimited(ticket, retryAfterMs(error.headers), o.runId);
      limitedSince ??= Date.now();
      if (Date.now() - limitedSince >= o.patienceMs) {
        throw new RateLimitedError(
          `rate limited by ${gate.endpoint} for ${Math.round((Date.now() - limitedSince) / 1000)} s (${gate.state.retries} retries)`,
          { cause: error },
        );
      }
    }
  }
}
