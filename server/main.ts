// The studio server: one Node process (run with tsx) that owns the database, the rollout engine and
// the tRPC API, and hands every other request to Next, which only renders pages. Server code is
// therefore never bundled by Next, and worker threads / the sandbox run exactly once.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import next from 'next';
import { modeLine } from './auth/mode.ts';
import { composeServices, type Services } from './compose.ts';
import { config } from './config.ts';
import { loadDemo } from './demo.ts';
import { studioRequestHandler } from './http.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The longest a SIGTERM / SIGINT shutdown may take before the process exits anyway. */
const SHUTDOWN_MS = 15_000;

async function startServices(): Promise<Services> {
  // Opening the database applies pending migrations.
  const services = await composeServices({ config: config() });
  // Team mode's first start: the configured admin and a default project.
  await services.accounts.ensureAdmin();
  console.log(await modeLine(services.accounts));
  // Runs and rigs a previous process left unfinished are dispatched again: each episode is recorded
  // once, and each rig goes on from the rows it wrote.
  const resumed = await services.resumeUnfinished();
  if (resumed.runs.length > 0) console.log(`resumed ${resumed.runs.length} unfinished run(s)`);
  if (resumed.rigs.length > 0) console.log(`resumed ${resumed.rigs.length} unfinished rig(s)`);
  // Said once, here, rather than deep inside the first episode that needs the missing runtime.
  for (const b of await services.catalogue.unavailable()) {
    console.warn(
      `bridge ${b.name} unavailable: ${b.reason}. Fix: ${b.fix} (every other bridge works)`,
    );
  }
  if (!services.config.NO_DEMO) {
    const loaded = await loadDemo(services);
    if (loaded) console.log(`demo content: ${loaded}`);
  }
  return services;
}

/** Where this process reaches itself: a wildcard bind address is reached on loopback. */
function loopbackHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::' || host === '[::]') return '[::1]';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

async function main(): Promise<void> {
  const dev = process.argv.includes('--dev');
  const { HOST, PORT } = config();

  const started = Date.now();
  const services = await startServices();

  const nextApp = next({ dev, dir: ROOT, hostname: HOST, port: PORT });
  const handleNext = nextApp.getRequestHandler();
  await nextApp.prepare();

  // Security headers, CSRF-safe mutations and the body limit wrap both handlers (server/hardening/web.ts).
  const server = createServer(
    studioRequestHandler(services, {
      dev,
      selfOrigin: `http://${loopbackHost(HOST)}:${PORT}`,
      next: (req: IncomingMessage, res: ServerResponse) => {
        handleNext(req, res).catch((err: unknown) => {
          console.error('next:', err);
          if (!res.headersSent) res.statusCode = 500;
          res.end();
        });
      },
    }),
  );
  // Keep idle connections longer than clients' own idle timers, so a client does not reuse a socket
  // at the moment the server closes it (Node's 5 s default races with busy pages and API clients).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(PORT, HOST, resolve);
  });
  console.log(
    `EnvHarness Studio ready on http://${HOST}:${PORT} (${dev ? 'dev' : 'production'}, ${Date.now() - started} ms)`,
  );

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) {
      // A second signal: stop now.
      process.exit(1);
    }
    stopping = true;
    console.log(`${signal}: shutting down`);
    // Nothing may keep the process alive past this (a stuck worker thread, a hung connection):
    // episodes in flight are aborted after a grace period and resumed at the next start.
    setTimeout(() => {
      console.error(`${signal}: shutdown took longer than ${SHUTDOWN_MS / 1000} s; exiting`);
      process.exit(1);
    }, SHUTDOWN_MS).unref();
    // Open SSE streams would keep server.close() waiting forever.
    server.closeAllConnections();
    await Promise.allSettled([
      new Promise<void>((resolve) => server.close(() => resolve())),
      nextApp.close(),
    ]);
    await services.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
