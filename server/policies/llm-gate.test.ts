import { BroadcastChannel } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { llmClient } from './llm-endpoint.ts';
import {
  EndpointGate,
  type GateState,
  gateFor,
  onGateChange,
  RateLimitedError,
  retryAfterMs,
  throughGate,
} from './llm-gate.ts';

const ok = () =>
  new Response(
    JSON.stringify({
      id: 'c',
      object: 'chat.completion',
      created: 0,
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
    }),
    { status: 200, headers: { 'content-type': 'application/json' } },
  );

const limited = (headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ error: { message: 'slow down', type: 'rate_limit' } }), {
    status: 429,
    headers: { 'content-type': 'application/json', ...headers },
  });

/**
 * A fake fetch answering from a script, noting whether the gate was closed when each request came.
 * With `together`, the first that many requests are answered only once all of them were sent.
 */
function fakeFetch(gate: EndpointGate, script: (n: number) => Response, together = 0) {
  const log = { calls: 0, sentWhileClosed: 0, inFlight: 0, inFlightAtSend: [] as number[] };
  let arrived!: () => void;
  const all = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const fetch = (async () => {
    const n = log.calls++;
    if (gate.state.until > Date.now()) log.sentWhileClosed += 1;
    log.inFlightAtSend.push(log.inFlight);
    log.inFlight += 1;
    if (log.calls === together) arrived();
    if (n < together) await all;
    await new Promise((r) => setTimeout(r, 2));
    log.inFlight -= 1;
    return script(n);
  }) as typeof globalThis.fetch;
  return { fetch, log };
}

function ask(
  gate: EndpointGate,
  fetch: typeof globalThis.fetch,
  runId = 'run-1',
  patienceMs = 5000,
) {
  const client = llmClient({ baseURL: 'http://llm.test/v1', fetch });
  return throughGate(
    gate,
    () =>
      client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] }),
    { runId, patienceMs },
  );
}

let stop: (() => void) | undefined;
afterEach(() => stop?.());

describe('endpoint gate (429 back-off per endpoint)', () => {
  it('a 429 holds back an episode of another run that asks later, until the gate opens', async () => {
    const gate = new EndpointGate('http://llm.test/v1 m', { baseMs: 5 });
    const { fetch, log } = fakeFetch(gate, (n) =>
      n === 0 ? limited({ 'retry-after-ms': '40' }) : ok(),
    );
    const a = ask(gate, fetch, 'run-a');
    while (gate.state.retries === 0) await new Promise((r) => setTimeout(r, 1));
    const b = ask(gate, fetch, 'run-b');
    await Promise.all([a, b]);
    expect(log.sentWhileClosed).toBe(0);
    expect(log.calls).toBe(3);
    // A probe went alone first (run-a's retry), then run-b.
    expect(log.inFlightAtSend).toEqual([0, 0, 0]);
    expect(gate.state).toMatchObject({ until: 0, waitMs: 0, retries: 0 });
  });

  it('sends nothing while closed and lets a single probe through before the rest', async () => {
    const gate = new EndpointGate('e', { baseMs: 20 });
    const { fetch, log } = fakeFetch(gate, (n) => (n < 3 ? limited() : ok()), 3);
    // Three sent together are all answered 429: one round, one escalation.
    const changes: GateState[] = [];
    stop = onGateChange((s) => {
      if (s.endpoint === 'e') changes.push(s);
    });
    await Promise.all([ask(gate, fetch), ask(gate, fetch), ask(gate, fetch)]);
    expect(log.sentWhileClosed).toBe(0);
    expect(log.calls).toBe(6);
    // After the three 429s, the probe goes alone.
    expect(log.inFlightAtSend[3]).toBe(0);
    expect(changes.slice(0, 3).map((c) => c.waitMs)).toEqual([20, 20, 20]);
    expect(changes.slice(0, 3).map((c) => c.retries)).toEqual([1, 2, 3]);
    expect(changes.at(-1)).toMatchObject({ waitMs: 0, retries: 0, until: 0 });
  });

  it('grows the back-off on repeated 429s, honours a longer Retry-After, resets on success', async () => {
    const gate = new EndpointGate('e2', { baseMs: 5 });
    const { fetch } = fakeFetch(gate, (n) =>
      n < 3 ? limited() : n === 3 ? limited({ 'retry-after-ms': '70' }) : ok(),
    );
    const waits: number[] = [];
    stop = onGateChange((s) => {
      if (s.endpoint === 'e2') waits.push(s.waitMs);
    });
    await ask(gate, fetch, 'run-9');
    expect(waits).toEqual([5, 10, 20, 70, 0]);
  });

  it('names the runs waiting on it', async () => {
    const gate = new EndpointGate('e3', { baseMs: 30 });
    const { fetch } = fakeFetch(gate, (n) => (n === 0 ? limited() : ok()));
    const seen: string[][] = [];
    stop = onGateChange((s) => {
      if (s.endpoint === 'e3') seen.push(s.runIds);
    });
    const first = ask(gate, fetch, 'run-a');
    await new Promise((r) => setTimeout(r, 1));
    await Promise.all([first, ask(gate, fetch, 'run-b')]);
    expect(seen[0]).toEqual(expect.arrayContaining(['run-a']));
  });

  it('gives up after its patience with the endpoint and the retries in the message', async () => {
    const gate = new EndpointGate('http://llm.test/v1 m', { baseMs: 5 });
    const { fetch, log } = fakeFetch(gate, () => limited());
    const err = await ask(gate, fetch, 'r', 30).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as Error).message).toMatch(
      /^rate limited by http:\/\/llm\.test\/v1 m for \d+ s \(\d+ retries\)$/,
    );
    expect(log.calls).toBeGreaterThanOrEqual(2);
  });

  it('passes other errors on at once and lets another request probe', async () => {
    const gate = new EndpointGate('e4', { baseMs: 5 });
    const { fetch, log } = fakeFetch(
      gate,
      () => new Response('{"error":{"message":"no"}}', { status: 401 }),
    );
    await expect(ask(gate, fetch)).rejects.toThrow(/no/);
    expect(log.calls).toBe(1);
  });

  it('stops waiting when the caller aborts', async () => {
    const gate = new EndpointGate('e5', { baseMs: 60_000 });
    gate.rateLimited({ round: 0, probe: false }, undefined);
    const abort = new AbortController();
    const waiting = gate.enter('r', abort.signal);
    abort.abort(new Error('cancelled'));
    await expect(waiting).rejects.toThrow('cancelled');
  });

  it("follows another thread's gate of the endpoint, and tells the other threads its own", async () => {
    // Another thread's gates speak on this channel (a channel never hears its own messages).
    const peer = new BroadcastChannel('harness:llm-gates');
    try {
      const gate = gateFor('http://peer.test/v1', 'm', { baseMs: 5 });
      const changes: GateState[] = [];
      stop = onGateChange((s) => {
        if (s.endpoint === 'http://peer.test/v1 m') changes.push(s);
      });
      const heard = new Promise<GateState>((resolve) => {
        peer.onmessage = (e: unknown) => resolve((e as { data: GateState }).data);
      });
      const until = Date.now() + 60_000;
      peer.postMessage({
        endpoint: 'http://peer.test/v1 m',
        until,
        waitMs: 60_000,
        retries: 3,
        runIds: ['run-in-a-thread'],
        streak: 2,
      });
      while (changes.length === 0) await new Promise((r) => setTimeout(r, 1));
      expect(gate.state).toMatchObject({ until, waitMs: 60_000, retries: 3 });
      expect(changes[0]?.runIds).toEqual(['run-in-a-thread']);
      // This thread's own change (the endpoint answered) goes to the others.
      gate.succeeded({ round: 0, probe: false });
      expect(await heard).toMatchObject({
        endpoint: 'http://peer.test/v1 m',
        retries: 0,
        until: 0,
      });
    } finally {
      peer.close();
    }
  });

  it('reads Retry-After in ms, seconds or as a date', () => {
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250' }))).toBe(250);
    expect(retryAfterMs(new Headers({ 'retry-after': '4' }))).toBe(4000);
    const later = new Date(Date.now() + 10_000).toUTCString();
    expect(retryAfterMs(new Headers({ 'retry-after': later }))).toBeGreaterThan(8000);
    expect(retryAfterMs(new Headers({}))).toBeUndefined();
  });
});
