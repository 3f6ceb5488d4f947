// `harness serve` as a trainer meets it: the real CLI in its own process, played by a Python
// standard-library client that sends exactly what OpenEnv's EnvClient sends (testing/openenv_client.py).
// Then, on a server in this process: seeds equal `harness rollout`'s, capacity, idle timeout,
// harness layers, and 200 dropped sessions leaving nothing behind.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { builtInBridges, getBridge } from '../../bridges/index.ts';
import { createHarness, type HarnessSpec, parseSpec } from '../harness/index.ts';
import { getPolicy } from '../policies/index.ts';
import { play } from '../policies/testing/play.ts';
import { InProcessEngine, WorkerEngine } from './engine.ts';
import { type OpenEnvServerHandle, startOpenEnvServer } from './server.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLIENT = fileURLToPath(new URL('./testing/openenv_client.py', import.meta.url));
const TASK = 'eval_seen-003';

type Reply = {
  type: string;
  data: {
    observation?: { text: string; legal_actions?: string[] };
    reward?: number | null;
    done?: boolean;
    metadata?: Record<string, unknown>;
    code?: string;
    message?: string;
  };
};

function python(url: string, ops: unknown[]): unknown[] {
  const r = spawnSync('python3', [CLIENT], {
    input: JSON.stringify({ url, ops }),
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (r.status !== 0) throw new Error(`client failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as unknown[];
}

/** A known winning command list: the competent scripted player on a seed where it wins. */
async function winningCommands(): Promise<{ seed: number; commands: string[] }> {
  const household = (await getBridge('household'))!;
  for (let seed = 0; seed < 20; seed++) {
    const r = await play(household, getPolicy('scripted:household-explorer'), {
      taskId: TASK,
      seed,
    });
    if (r.success) return { seed, commands: r.commands };
  }
  throw new Error('no winning seed');
}

describe('harness serve, played by a Python OpenEnv client', () => {
  let child: ChildProcess;
  let url: string;

  beforeAll(async () => {
    child = spawn(
      process.execPath,
      ['bin/harness.mjs', 'serve', '--spec', `household:${TASK}`, '--port', '0', '--json'],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    url = await new Promise<string>((resolve, reject) => {
      let out = '';
      let err = '';
      child.stderr?.on('data', (d) => {
        err += d;
      });
      child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
      child.stdout?.on('data', (d) => {
        out += d;
        const m = /"url": "([^"]+)"/.exec(out);
        if (m) resolve(m[1]!);
      });
    });
  }, 60_000);

  afterAll(async () => {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  });

  it('a known winning command list, sent as {"message": …}, ends done with a positive reward', async () => {
    const { seed, commands } = await winningCommands();
    const [session] = python(url, [
      {
        session: [
          { type: 'reset', data: { seed } },
          ...commands.map((message) => ({ type: 'step', data: { message } })),
        ],
      },
    ]) as { session: Reply[] }[];
    const replies = session!.session;
    expect(replies.every((r) => r.type === 'observation')).toBe(true);
    const last = replies.at(-1)!;
    expect(last.data.done).toBe(true);
    expect(last.data.reward).toBeGreaterThan(0);
    expect(last.data.metadata?.evaluation).toMatchObject({ success: true });
    expect(last.data.metadata?.step).toBe(commands.length);
  });

  it('answers every OpenEnv HTTP route; /reset and /step are stateless', () => {
    const [health, metadata, state, reset, step, bad] = python(url, [
      { http: { method: 'GET', path: '/health' } },
      { http: { method: 'GET', path: '/metadata' } },
      { http: { method: 'GET', path: '/state' } },
      { http: { method: 'POST', path: '/reset', body: { seed: 4 } } },
      { http: { method: 'POST', path: '/step', body: { action: { message: 'look' } } } },
      { http: { method: 'POST', path: '/step', body: { action: { message: 7 } } } },
    ]) as { status: number; body: Record<string, unknown> }[];
    expect(health).toEqual({ status: 200, body: { status: 'healthy' } });
    expect(metadata?.body.name).toBe(`EnvHarness: household:${TASK}`);
    expect(state?.body).toEqual({ episode_id: null, step_count: 0 });
    expect(reset?.body).toMatchObject({ done: false, metadata: { seed: 4, task_id: TASK } });
    expect(step?.body).toMatchObject({ done: false, reward: 0 });
    expect(bad?.status).toBe(422);
    expect(bad?.body.detail).toEqual([
      expect.objectContaining({ loc: ['body', 'action', 'message'], type: 'string_type' }),
    ]);
  });

  it('a random walk ends or hits the step limit; bogus messages and actions get error replies', () => {
    const [schema, session] = python(url, [
      { http: { method: 'GET', path: '/schema' } },
      {
        session: [
          { type: 'bogus' },
          { type: 'reset', data: { seed: 5 } },
          { type: 'step', data: { mesage: 'look' } },
          { type: 'step', data: { tool: 'act', args: { command: 'look' } } },
          { walk: { seed: 2, max: 500 } },
          { type: 'state' },
        ],
      },
    ]) as [{ status: number; body: Record<string, unknown> }, { session: Reply[] }];
    expect(schema.status).toBe(200);
    expect(Object.keys(schema.body).sort()).toEqual(['action', 'observation', 'state']);
    const [bogus, reset, malformed, tool, walked, state] = session.session as [
      Reply,
      Reply,
      Reply,
      Reply,
      { walk: { steps: number; last: Reply } },
      Reply,
    ];
    expect(bogus).toMatchObject({ type: 'error', data: { code: 'UNKNOWN_TYPE' } });
    expect(reset.type).toBe('observation');
    expect(reset.data.observation?.legal_actions?.length).toBeGreaterThan(0);
    expect(malformed).toMatchObject({ type: 'error', data: { code: 'VALIDATION_ERROR' } });
    // The session stays usable after a VALIDATION_ERROR.
    expect(tool.type).toBe('observation');
    expect(walked.walk.last.data.done).toBe(true);
    // 50 agent steps at most, as `harness rollout --max-steps` (one was the tool call above).
    expect(walked.walk.steps).toBeLessThanOrEqual(49);
    expect(walked.walk.last.data.metadata?.evaluation).toBeDefined();
    expect(state).toMatchObject({ type: 'state', data: { task_id: TASK, seed: 5 } });
  });
});

describe('a served harness', () => {
  const bridges = builtInBridges;
  const servers: OpenEnvServerHandle[] = [];
  afterAll(async () => {
    for (const s of servers) await s.close();
  });

  async function serve(
    spec: HarnessSpec,
    o: Partial<Parameters<typeof startOpenEnvServer>[0]> = {},
  ) {
    const server = await startOpenEnvServer({
      spec,
      label: 'test',
      engine: new InProcessEngine(bridges),
      ...o,
    });
    servers.push(server);
    return server;
  }

  function connect(server: OpenEnvServerHandle) {
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/ws`);
    const inbox: Reply[] = [];
    const waiting: ((r: Reply) => void)[] = [];
    ws.on('message', (d) => {
      const r = JSON.parse(d.toString()) as Reply;
      const w = waiting.shift();
      if (w) w(r);
      else inbox.push(r);
    });
    const opened = new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    const ask = async (msg: unknown): Promise<Reply> => {
      await opened;
      ws.send(JSON.stringify(msg));
      return inbox.shift() ?? new Promise<Reply>((resolve) => waiting.push(resolve));
    };
    const next = (): Promise<Reply> =>
      Promise.resolve(inbox.shift() ?? new Promise<Reply>((resolve) => waiting.push(resolve)));
    return { ws, ask, next, opened, closed };
  }

  it('seed picks the episode as harness rollout does: same start state, same first observation', async () => {
    const spec = parseSpec({ version: 1, env: { type: 'base', bridge: 'household', task: TASK } });
    const server = await serve(spec);
    const c = connect(server);
    for (const seed of [0, 11]) {
      const served = await c.ask({ type: 'reset', data: { seed } });
      const h = await createHarness(spec, { bridges });
      const own = await h.reset({ seed });
      expect(served.data.observation?.text).toBe(own.observation.text);
      const state = await c.ask({ type: 'state' });
      expect((state.data as { state: unknown }).state).toEqual(h.getEnvState());
      await h.close();
    }
    c.ws.close();
  });

  it('applies the harness: Stage set-up is not counted, a Contract blocks, the verdict rides on done', async () => {
    const spec = parseSpec({
      version: 1,
      env: {
        type: 'contract',
        code: "export function filterAction(a) { if (a.args.command === 'inventory') return { blocked: 'No inventory here.' }; }",
        env: {
          type: 'stage',
          actions: [{ name: 'act', args: { command: 'look' } }],
          env: { type: 'base', bridge: 'household', task: TASK },
        },
      },
    });
    const server = await serve(spec, { maxSteps: 2 });
    const c = connect(server);
    await c.ask({ type: 'reset', data: { seed: 1 } });
    const blocked = await c.ask({ type: 'step', data: { message: 'inventory' } });
    expect(blocked.data.observation?.text).toContain('No inventory here.');
    expect(blocked.data.metadata).toMatchObject({
      step: 1,
      blocked: 'No inventory here.',
      invalid: true,
    });
    const last = await c.ask({ type: 'step', data: { message: 'look' } });
    expect(last.data.done).toBe(true);
    expect(last.data.metadata).toMatchObject({ step: 2, truncated: true });
    expect(last.data.metadata?.evaluation).toMatchObject({ success: false });
    const after = await c.ask({ type: 'step', data: { message: 'look' } });
    expect(after).toMatchObject({ type: 'error', data: { code: 'EXECUTION_ERROR' } });
    c.ws.close();
  });

  it('task_id picks the task when a bridge is served, and is refused when one task is', async () => {
    const spec = parseSpec({ version: 1, env: { type: 'base', bridge: 'toy24', task: '1-2-3-4' } });
    const bridgeServer = await serve(spec, { bridgeMode: true });
    const a = connect(bridgeServer);
    const picked = await a.ask({ type: 'reset', data: { seed: 0, task_id: '4-7-8-8' } });
    expect(picked.data.metadata).toMatchObject({ task_id: '4-7-8-8' });
    a.ws.close();
    const taskServer = await serve(spec);
    const b = connect(taskServer);
    const refused = await b.ask({ type: 'reset', data: { seed: 0, task_id: '4-7-8-8' } });
    expect(refused).toMatchObject({ type: 'error', data: { code: 'VALIDATION_ERROR' } });
    expect(refused.data.message).toContain('serves one task (1-2-3-4)');
    b.ws.close();
  });

  it('keeps sessions independent: each has its own hook sandbox', async () => {
    const spec = parseSpec({
      version: 1,
      env: {
        type: 'contract',
        code: [
          'let n = 0;',
          "export function filterObservation(o) { n += 1; return { ...o, text: '#' + n }; }",
        ].join('\n'),
        env: { type: 'base', bridge: 'toy24', task: '1-2-3-4' },
      },
    });
    const server = await serve(spec);
    const a = connect(server);
    const b = connect(server);
    const combine = { tool: 'combine', args: { a: 1, op: '+', b: 2 } };
    const a0 = await a.ask({ type: 'reset', data: { seed: 0 } });
    const a1 = await a.ask({ type: 'step', data: combine });
    const b0 = await b.ask({ type: 'reset', data: { seed: 0 } });
    const a2 = await a.ask({
      type: 'step',
      data: { tool: 'combine', args: { a: 3, op: '+', b: 3 } },
    });
    const b1 = await b.ask({ type: 'step', data: combine });
    const text = (r: Reply) => r.data.observation?.text;
    expect([a0, a1, a2].map(text)).toEqual(['#1', '#2', '#3']);
    expect([b0, b1].map(text)).toEqual(['#1', '#2']);
    a.ws.close();
    b.ws.close();
  });

  it('says in one sentence that a port is taken', async () => {
    const spec = parseSpec({ version: 1, env: { type: 'base', bridge: 'toy24', task: '1-2-3-4' } });
    const first = await serve(spec);
    await expect(serve(spec, { port: first.port })).rejects.toThrow(
      `port ${first.port} is in use on 127.0.0.1; pick another (0 takes a free one)`,
    );
  });

  it('refuses sessions over --max-sessions with CAPACITY_REACHED, and closes idle ones', async () => {
    const spec = parseSpec({ version: 1, env: { type: 'base', bridge: 'toy24', task: '1-2-3-4' } });
    const server = await serve(spec, { maxSessions: 1, idleTimeoutMs: 300 });
    const first = connect(server);
    await first.ask({ type: 'reset', data: { seed: 0 } });
    const second = connect(server);
    const refused = await second.next();
    expect(refused).toMatchObject({
      type: 'error',
      data: { code: 'CAPACITY_REACHED', max_sessions: 1 },
    });
    expect(await second.closed).toBe(1000);
    // No message for longer than the idle timeout: the server closes the session.
    expect(await first.closed).toBe(1001);
    for (let t = 0; t < 50 && server.stats().sessions > 0; t++)
      await new Promise((r) => setTimeout(r, 20));
    expect(server.stats().sessions).toBe(0);
  });

  it('200 sessions opened and dropped mid-episode leak nothing: sessions, environments, workers, memory', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const engine = new WorkerEngine({ threads: 2, idleMs: 300 });
    const spec = parseSpec({ version: 1, env: { type: 'base', bridge: 'household', task: TASK } });
    const server = await startOpenEnvServer({ spec, label: 'drop', engine, maxSessions: 300 });
    const round = async (n: number) => {
      for (let i = 0; i < n; i += 20) {
        await Promise.all(
          Array.from({ length: Math.min(20, n - i) }, async (_, j) => {
            const c = connect(server);
            await c.ask({ type: 'reset', data: { seed: i + j } });
            await c.ask({ type: 'step', data: { message: 'look' } });
            c.ws.terminate(); // dropped: no close message, no close frame
          }),
        );
      }
    };
    const settle = async () => {
      for (let t = 0; t < 100 && (server.stats().sessions > 0 || engine.workers() > 0); t++)
        await new Promise((r) => setTimeout(r, 100));
    };
    await round(20); // warm up: modules, caches
    await settle();
    gc();
    const baseline = process.memoryUsage().heapUsed;
    expect(engine.workers()).toBe(0);
    await round(200);
    await new Promise((r) => setTimeout(r, 200));
    expect(await engine.environments()).toBe(0);
    await settle();
    expect(server.stats().sessions).toBe(0);
    expect(engine.workers()).toBe(0);
    gc();
    const grown = process.memoryUsage().heapUsed - baseline;
    expect(grown).toBeLessThan(8 * 1024 * 1024);
    await server.close();
    await engine.shutdown();
  }, 120_000);
});
