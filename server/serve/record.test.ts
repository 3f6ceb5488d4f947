// harness serve --record: served episodes become run episodes a person can review — judged ones,
// ones the trainer cut short, a repeated seed (next run) — and the runs complete when serving stops.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { builtInBridges } from '../../bridges/index.ts';
import { createTestDb, type TestDb } from '../db/testing.ts';
import { parseSpec } from '../harness/index.ts';
import { RunEvents } from '../rollouts/events.ts';
import { InProcessEngine } from './engine.ts';
import { RunRecorder, SERVED_POLICY } from './record.ts';
import { startOpenEnvServer } from './server.ts';

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb('pglite');
});
afterAll(() => db.close());

function session(url: string) {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/ws`);
  const opened = new Promise((r) => ws.once('open', r));
  const replies: ((v: unknown) => void)[] = [];
  ws.on('message', (d) => replies.shift()?.(JSON.parse(d.toString())));
  return {
    ws,
    async ask(msg: unknown) {
      await opened;
      const reply = new Promise((r) => replies.push(r));
      ws.send(JSON.stringify(msg));
      return reply as Promise<{ type: string; data: { done?: boolean } }>;
    },
  };
}

describe('recording served episodes', () => {
  it('stores each as a run episode, a repeated seed in the next run, and completes the runs', async () => {
    const spec = parseSpec({ version: 1, env: { type: 'base', bridge: 'toy24', task: '1-2-3-4' } });
    const events = new RunEvents(db.db);
    const recorder = new RunRecorder(db.db, events, { spec, maxSteps: 2 });
    const server = await startOpenEnvServer({
      spec,
      label: 'toy24',
      engine: new InProcessEngine(builtInBridges),
      maxSteps: 2,
      recorder,
    });
    const c = session(server.url);
    const move = { type: 'step', data: { tool: 'combine', args: { a: 1, op: '+', b: 2 } } };
    await c.ask({ type: 'reset', data: { seed: 1 } });
    await c.ask(move);
    const second = await c.ask({
      type: 'step',
      data: { tool: 'combine', args: { a: 3, op: '+', b: 3 } },
    });
    expect(second.data.done).toBe(true);
    await c.ask({ type: 'reset', data: { seed: 1 } }); // the same seed again: the next run
    await c.ask(move);
    await c.ask({ type: 'reset', data: { seed: 2 } }); // cuts the episode before
    c.ws.terminate(); // and drops this one mid-episode
    for (let t = 0; t < 50 && server.stats().sessions > 0; t++)
      await new Promise((r) => setTimeout(r, 20));
    await server.close();

    const runIds = recorder.runIds();
    expect(runIds).toHaveLength(2);
    const runs = await db.db.run.findMany({
      where: { id: { in: runIds } },
      include: { episodes: { orderBy: { ordinal: 'asc' } } },
      orderBy: { createdAt: 'asc' },
    });
    for (const run of runs) {
      expect(run.policy).toBe(SERVED_POLICY);
      expect(run.status).toBe('completed');
      expect(run.episodesDone).toBe(run.episodesTotal);
    }
    const [first, next] = runs;
    expect(
      first!.episodes.map((e) => [e.seed, e.status, e.outcome, e.failureCategory, e.steps]),
    ).toEqual([
      [1, 'done', 'failure', 'step_budget_exhausted', 2],
      [2, 'done', 'failure', 'gave_up', 0],
    ]);
    expect(next!.episodes.map((e) => [e.seed, e.outcome, e.failureCategory, e.steps])).toEqual([
      [1, 'failure', 'gave_up', 1],
    ]);
    const steps = await db.db.step.count({ where: { episodeId: first!.episodes[0]!.id } });
    expect(steps).toBe(2);
    const types = (await db.db.runEvent.findMany({ where: { runId: first!.id } })).map(
      (e) => e.type,
    );
    expect(types).toEqual(
      expect.arrayContaining(['episode_started', 'episode_ended', 'run_completed']),
    );
    await events.close();
  });
});
