import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../auth/caller.ts';
import type { Services } from '../../compose.ts';
import { type DbHandle, openDb } from '../../db/index.ts';
import { HarnessCodeError } from '../../errors.ts';
import type { HarnessSpec } from '../../harness/spec.ts';
import { callerFor, testServices } from '../../testing/services.ts';

let handle: DbHandle;
let services: Services;
let caller: ReturnType<typeof callerFor>;
beforeAll(async () => {
  handle = await openDb({ kind: 'pglite', memory: true });
  services = await testServices(handle);
  caller = callerFor(services);
});
const base = { type: 'base', bridge: 'toy24', task: '4-7-8-8' } as const;
const withHook = (code: string): HarnessSpec => ({
  version: 1,
  env: { type: 'contract', code, env: base },
});
const combine = (a: string, op: string, b: string) => ({ name: 'combine', args: { a, op, b } });

afterAll(async () => {
  await services.close();
  await handle.close();
});

describe('try it (play router)', () => {
  it('plays a harnessed task to the verifier, the hooks applied', async () => {
    const started = await caller.play.start({
      spec: withHook(
        "export function filterObservation(o) { return { ...o, text: '[harnessed] ' + o.text }; }",
      ),
    });
    expect(started.observation.text).toMatch(/^\[harnessed\] /);
    let last = await caller.play.step({
      sessionId: started.sessionId,
      action: combine('7', '-', '4'),
    });
    expect(last.record.observation.text).toMatch(/^\[harnessed\] /);
    last = await caller.play.step({ sessionId: started.sessionId, action: combine('8', '*', '3') });
    last = await caller.play.step({
      sessionId: started.sessionId,
      action: combine('24', '*', '8'),
    });
    expect(last.done).toBe(true);
    expect(last.evaluation?.success).toBe(false);
    await caller.play.close({ sessionId: started.sessionId });
    await expect(
      caller.play.step({ sessionId: started.sessionId, action: combine('1', '+', '1') }),
    ).rejects.toThrow(/session ended/);
  });

  it('a hook stuck in a built-in ends that session as a harness error; the server goes on', async () => {
    const stuck = await caller.play.start({
      spec: withHook("export function filterAction(a) { for (;;) 'x'.repeat(1e7); }"),
    });
    const t0 = Date.now();
    const error = await caller.play
      .step({ sessionId: stuck.sessionId, action: combine('7', '-', '4') })
      .catch((e: unknown) => e);
    expect((error as { cause?: unknown }).cause).toBeInstanceOf(HarnessCodeError);
    expect(Date.now() - t0).toBeLessThan(10_000);
    // The next step still names the cause, not only "session ended".
    await expect(
      caller.play.step({ sessionId: stuck.sessionId, action: combine('7', '-', '4') }),
    ).rejects.toThrow(/already ended: hook filterAction exceeded its time limit/);
    // A fresh session works on the replaced worker.
    const next = await caller.play.start({ spec: { version: 1, env: base } });
    const step = await caller.play.step({
      sessionId: next.sessionId,
      action: combine('8', '/', '8'),
    });
    expect(step.record.invalid).toBe(false);
  });

  it('after a hook overran its 250 ms deadline, the next step repeats that cause', async () => {
    const looping = await caller.play.start({
      spec: withHook('export function filterAction(a) {\n  while (true) {}\n}'),
    });
    const action = combine('7', '-', '4');
    await expect(caller.play.step({ sessionId: looping.sessionId, action })).rejects.toThrow(
      /ran longer than its 250 ms limit/,
    );
    const again = (await caller.play.step({ sessionId: looping.sessionId, action }).then(
      () => new Error('the step should have failed'),
      (e: unknown) => e,
    )) as Error;
    expect(again.message).toMatch(/already ended: .*ran longer than its 250 ms limit/);
    expect(again.message).toMatch(/restart/);
    expect(again.cause).toBeInstanceOf(HarnessCodeError);
  });

  it("closing another user's session answers NOT_FOUND, as step does, and the session goes on", async () => {
    const member = (userId: string): Caller => ({
      kind: 'member',
      userId,
      role: 'researcher',
      projectId: 'p1',
    });
    const alice = callerFor(services, member('alice'));
    const bob = callerFor(services, member('bob'));
    const { sessionId } = await alice.play.start({ spec: { version: 1, env: base } });
    const closing = await bob.play.close({ sessionId }).catch((e: unknown) => e);
    expect((closing as { code?: string }).code).toBe('NOT_FOUND');
    const stepping = await bob.play
      .step({ sessionId, action: combine('8', '/', '8') })
      .catch((e: unknown) => e);
    expect((stepping as { code?: string }).code).toBe('NOT_FOUND');
    // Alice's session was not closed.
    const step = await alice.play.step({ sessionId, action: combine('8', '/', '8') });
    expect(step.record.invalid).toBe(false);
    expect(await alice.play.close({ sessionId })).toEqual({ closed: true });
    const twice = await alice.play.close({ sessionId }).catch((e: unknown) => e);
    expect((twice as { code?: string }).code).toBe('NOT_FOUND');
  });
});
