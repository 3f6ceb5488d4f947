import { InProcessEngine, WorkerEngine } from '../../serve/engine.ts';
import { RunRecorder } from '../../serve/record.ts';
import { startOpenEnvServer } from '../../serve/server.ts';
import { resolveServedSpec } from '../../serve/spec.ts';
import { type Command, flag, intOption, json, stringOption, UsageError } from '../command.ts';
import { loadSpec } from '../spec-input.ts';

export const command: Command = {
  name: 'serve',
  summary: 'Serve a harness as an OpenEnv environment (HTTP routes + WebSocket /ws) for trainers.',
  usage:
    'harness serve --spec FILE|bridge:task|bridge|harness:<id>[@version] --port N [--host 127.0.0.1]\n' +
    '              [--max-sessions K] [--idle-timeout SECONDS] [--max-steps M] [--record] [--json]\n' +
    '  OpenEnv routes: GET /health /schema /metadata /state, POST /reset /step, WebSocket /ws.\n' +
    '  Actions: {"message": "<command>"} for a text tool, or {"tool": name, "args": {…}}.\n' +
    '  reset: seed picks the episode exactly as `harness rollout`; task_id when --spec names a bridge.\n' +
    '  --record stores every served episode as a run (policy openenv-client), live in the studio.\n' +
    '  Runs until interrupted (Ctrl-C). --port 0 takes a free port (printed).',
  options: {
    spec: { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string' },
    'max-sessions': { type: 'string' },
    'idle-timeout': { type: 'string' },
    'max-steps': { type: 'string' },
    record: { type: 'boolean' },
    json: { type: 'boolean' },
    'in-process': { type: 'boolean' },
  },
  async run({ values, io, bridges, services }) {
    const specArg = stringOption(values, 'spec');
    if (!specArg)
      throw new UsageError(
        '--spec is required (a spec file, bridge:task, a bridge or harness:<id>[@version])',
      );
    if (stringOption(values, 'port') === undefined)
      throw new UsageError('--port is required (0: a free port)');
    const port = intOption(values, 'port', 0);
    if (port < 0 || port > 65535) throw new UsageError(`--port must be 0-65535, got ${port}`);
    const maxSessions = intOption(values, 'max-sessions', 64);
    if (maxSessions < 1) throw new UsageError('--max-sessions must be at least 1');
    const idle = intOption(values, 'idle-timeout', 600);
    if (idle < 1) throw new UsageError('--idle-timeout must be at least 1 second');
    const maxSteps = intOption(values, 'max-steps', 50);
    if (maxSteps < 1) throw new UsageError('--max-steps must be at least 1');
    const registry = bridges();
    const served = await resolveServedSpec(specArg, {
      bridges: registry,
      loadFile: (p) => loadSpec(p),
      db: async () => (await services()).db,
    });
    const record = flag(values, 'record');
    const s = record ? await services() : undefined;
    const engine = flag(values, 'in-process') ? new InProcessEngine(registry) : new WorkerEngine();
    const server = await startOpenEnvServer({
      spec: served.spec,
      label: served.label,
      bridgeMode: served.bridgeMode,
      engine,
      port,
      host: stringOption(values, 'host') ?? '127.0.0.1',
      maxSessions,
      idleTimeoutMs: idle * 1000,
      maxSteps,
      ...(s
        ? {
            recorder: new RunRecorder(s.db, s.events, {
              spec: served.spec,
              maxSteps,
              ...(served.harnessVersionId ? { harnessVersionId: served.harnessVersionId } : {}),
            }),
          }
        : {}),
    }).catch(async (e: unknown) => {
      await engine.shutdown();
      throw e;
    });
    if (flag(values, 'json'))
      io.out(
        json({ url: server.url, port: server.port, serving: served.label, record, maxSessions }),
      );
    else
      io.out(
        `Serving ${served.label} as an OpenEnv environment at ${server.url}\n` +
          `  routes: GET /health /schema /metadata /state · POST /reset /step · WebSocket ${server.url.replace(/^http/, 'ws')}/ws\n` +
          `  Python: GenericEnvClient(base_url="${server.url}")${record ? ' · recording every episode as a run' : ''}\n` +
          '  Ctrl-C stops.\n',
      );
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    const stats = server.stats();
    await server.close();
    await engine.shutdown();
    io.err(`served ${stats.episodes} episodes, ${stats.steps} steps\n`);
    return 0;
  },
};
