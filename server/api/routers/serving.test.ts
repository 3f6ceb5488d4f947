// "Serve to a trainer" through the real router on a real database: a saved harness version served
// from the studio process answers OpenEnv's /health and /ws, its live session count is read back,
// a second start is a conflict, and stopping frees it.
import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Services } from '../../compose.ts';
import { createTestDb, type TestDb } from '../../db/testing.ts';
import { resolveServedSpec } from '../../serve/spec.ts';
import { callerFor, testServices } from '../../testing/services.ts';

describe('serving router', () => {
  let handle: TestDb;
  let services: Services;
  let caller: ReturnType<typeof callerFor>;

  beforeAll(async () => {
    handle = await createTestDb('pglite');
    services = await testServices(handle);
    caller = callerFor(services);
  }, 60_000);
  afterAll(async () => {
    await services.close();
    await handle.close();
  });

  it('serves a version, counts its sessions live, refuses a second start, stops', async () => {
    const created = await caller.harnesses.create({
      name: 'served',
      spec: { version: 1, env: { type: 'base', bridge: 'toy24', task: '1-2-3-4' } },
    });
    const harnessVersionId = created.version.id;
    expect(await caller.serving.byVersion({ harnessVersionId })).toBeNull();
    const endpoint = await caller.serving.start({ harnessVersionId });
    expect(endpoint.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const health = await (await fetch(`${endpoint.url}/health`)).json();
    expect(health).toEqual({ status: 'healthy' });

    const ws = new WebSocket(`${endpoint.url.replace('http', 'ws')}/ws`);
    const reply = new Promise<string>((r) => ws.once('message', (d) => r(d.toString())));
    await new Promise((r) => ws.once('open', r));
    ws.send(JSON.stringify({ type: 'reset', data: { seed: 0 } }));
    expect(JSON.parse(await reply)).toMatchObject({ type: 'observation' });
    expect(await caller.serving.byVersion({ harnessVersionId })).toMatchObject({
      sessions: 1,
      episodes: 1,
    });

    const again = await caller.serving.start({ harnessVersionId }).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(TRPCError);
    expect((again as TRPCError).code).toBe('CONFLICT');

    expect(await caller.serving.stop({ harnessVersionId })).toEqual({ stopped: true });
    expect(await caller.serving.byVersion({ harnessVersionId })).toBeNull();
    ws.terminate();

    // What `harness serve --spec harness:<id>[@version]` resolves to.
    const o = {
      bridges: services.bridges,
      loadFile: () => {
        throw new Error('no file here');
      },
      db: async () => services.db,
    };
    const latest = await resolveServedSpec(`harness:${created.harnessId}`, o);
    expect(latest).toMatchObject({
      harnessVersionId,
      label: 'harness served v1',
      bridgeMode: false,
    });
    await expect(resolveServedSpec(`harness:${created.harnessId}@7`, o)).rejects.toThrow(
      /has no version 7 \(versions: 1\)/,
    );
    expect(await resolveServedSpec('toy24', o)).toMatchObject({ bridgeMode: true });
  });
});
