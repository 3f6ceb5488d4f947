// Hooks whose thrown or returned values fight being read (a looping Proxy, looping getters,
// toString, valueOf, Symbol.toPrimitive, toJSON; harness/testing/hostile-values.ts) through every
// surface that runs hook code: `harness step` (the CLI's isolated episode), a run launched through
// the API, try-it play and "test on a trajectory". Each ends as a harness error within 2 s of the
// call that ran the hook; nothing hangs, and the next call works.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtInBridges } from '../../bridges/index.ts';
import { IsolatedEpisode } from '../cli/episode.ts';
import { runCli } from '../cli/testing.ts';
import type { Services } from '../compose.ts';
import { type DbHandle, openDb } from '../db/index.ts';
import { HarnessCodeError } from '../errors.ts';
import type { HarnessSpec } from '../harness/spec.ts';
import { HOSTILE_VALUE_HOOKS, type HostileHook } from '../harness/testing/hostile-values.ts';
import { defaultEngine } from '../rollouts/default-engine.ts';
import { callerFor, testServices } from '../testing/services.ts';

const LIMIT_MS = 2000;
const base = { type: 'base', bridge: 'toy24', task: '4-7-8-8' } as const;
const specOf = (h: HostileHook): HarnessSpec => ({
  version: 1,
  env: { type: 'contract', code: h.code, env: base },
});
const move = { name: 'combine', args: { a: '7', op: '-', b: '4' } };
/** Loads the sandbox in the studio's worker (its wasm compile is not a hook's time). */
const BENIGN: HarnessSpec = {
  version: 1,
  env: { type: 'contract', code: 'export function filterAction(a) { return a; }', env: base },
};

/** How long `p` takes, and what it resolved with or rejected with. */
async function timed<T>(p: Promise<T>): Promise<{ ms: number; value?: T; error?: unknown }> {
  const t0 = performance.now();
  const out = await p.then(
    (value) => ({ value }),
    (error: unknown) => ({ error: error ?? new Error('rejected') }),
  );
  return { ms: performance.now() - t0, ...out };
}

/** A tRPC error's domain cause, or the error itself. */
const causeOf = (e: unknown) => (e as { cause?: unknown })?.cause ?? e;

let handle: DbHandle;
let services: Services;
let caller: ReturnType<typeof callerFor>;

beforeAll(async () => {
  handle = await openDb({ kind: 'pglite', memory: true });
  services = await testServices(handle, { engine: defaultEngine(builtInBridges) });
  caller = callerFor(services);
});

afterAll(async () => {
  await services.close();
  await handle.close();
});

describe('hostile values, surface by surface', () => {
  it('harness step: the episode ends as a harness error, the step within 2 s', async () => {
    for (const h of HOSTILE_VALUE_HOOKS) {
      const client = new IsolatedEpisode();
      try {
        // A failing filterObservation already fails the reset; the others fail the first step.
        const opened = await timed(client.open({ spec: specOf(h), seed: 0, state: false }));
        if (opened.error) {
          expect(opened.error, h.name).toBeInstanceOf(HarnessCodeError);
          continue;
        }
        const t0 = performance.now();
        const outcome = await client.step({ action: move, line: 1 }, false);
        expect(performance.now() - t0, h.name).toBeLessThan(LIMIT_MS);
        expect('harnessError' in outcome, h.name).toBe(true);
      } finally {
        await client.close();
      }
    }
  }, 300_000);

  it('harness step through the command line: exit 1 with the harness error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hostile-'));
    const spec = join(dir, 'spec.json');
    const actions = join(dir, 'actions.txt');
    writeFileSync(spec, JSON.stringify(specOf(HOSTILE_VALUE_HOOKS[0]!)));
    writeFileSync(actions, '7 - 4\n');
    const r = await runCli(['step', '--spec', spec, '--actions', actions, '--json']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^harness: .*hook filterObservation ran longer than its 250 ms limit/);
  }, 120_000);

  it('runs.launch: every episode ends as a harness error within 2 s, and the run completes', async () => {
    // Start and warm every worker thread (sandbox loaded): a worker's start-up is not a hook's time.
    const workers = services.config.ROLLOUT_MAX_WORKERS;
    const warm = await caller.runs.launch({
      spec: BENIGN,
      policy: 'scripted:toy24-exact',
      k: workers,
      concurrency: workers,
    });
    await services.rollouts.waitForRun(warm.runId);
    // The hook only the watchdog stops runs alone: its time is measured from its hand-over to the
    // pool, which must not include waiting behind the others.
    const launch = (h: HostileHook) =>
      timed(caller.runs.launch({ spec: specOf(h), policy: 'scripted:toy24-exact', k: 1 }));
    const interruptible = HOSTILE_VALUE_HOOKS.filter((h) => !h.builtin);
    const launched = await Promise.all(interruptible.map(launch));
    for (const h of HOSTILE_VALUE_HOOKS.filter((x) => x.builtin)) {
      await Promise.all(
        launched.map((l) => (l.value ? services.rollouts.waitForRun(l.value.runId) : undefined)),
      );
      interruptible.push(h);
      launched.push(await launch(h));
    }
    for (const [i, l] of launched.entries()) {
      const name = interruptible[i]!.name;
      if (!l.value) {
        // Hook code that fails at load is refused at launch, as a harness error.
        expect(causeOf(l.error), name).toBeInstanceOf(HarnessCodeError);
        continue;
      }
      const { runId } = l.value;
      const summary = await services.rollouts.waitForRun(runId);
      expect(summary.status, name).toBe('completed');
      const { items } = await services.rollouts.listEpisodes(runId);
      expect(items, name).toHaveLength(1);
      expect(items[0]!.errorKind, name).toBe('harness');
      expect(items[0]!.durationMs, name).toBeLessThan(LIMIT_MS);
    }
  }, 300_000);

  it('try-it play: the session ends as a harness error within 2 s; the next session works', async () => {
    // Warm the studio's worker first: its start-up is not the hook's time.
    await caller.harnesses.validate({ spec: BENIGN });
    for (const h of HOSTILE_VALUE_HOOKS) {
      const started = await timed(caller.play.start({ spec: specOf(h) }));
      let result: { ms: number; error?: unknown } = started;
      if (started.value) {
        const { sessionId } = started.value;
        result = await timed(caller.play.step({ sessionId, action: move }));
      }
      expect(causeOf(result.error), h.name).toBeInstanceOf(HarnessCodeError);
      expect(result.ms, h.name).toBeLessThan(LIMIT_MS);
      // A watchdog kill replaced the worker: warm the new one before timing the next hook.
      if (h.builtin) await caller.harnesses.validate({ spec: BENIGN });
    }
  }, 300_000);

  it('test on a trajectory: a harness error within 2 s for every hook', async () => {
    const { runId } = await caller.runs.launch({
      spec: { version: 1, env: base },
      policy: 'scripted:toy24-exact',
      k: 1,
    });
    await services.rollouts.waitForRun(runId);
    const { items } = await services.rollouts.listEpisodes(runId);
    const episodeId = items[0]!.id;
    await caller.harnesses.validate({ spec: BENIGN });
    for (const h of HOSTILE_VALUE_HOOKS) {
      const r = await timed(caller.harnesses.testOnTrajectory({ spec: specOf(h), episodeId }));
      expect(causeOf(r.error), h.name).toBeInstanceOf(HarnessCodeError);
      expect(r.ms, h.name).toBeLessThan(LIMIT_MS);
      if (h.builtin) await caller.harnesses.validate({ spec: BENIGN });
    }
  }, 300_000);
});
