// Throw-away servers for the fault tests: a redis-server and a PostgreSQL cluster of the test's
// own, on spare ports, that the test may kill and restart. The shared servers of the machine
// (Redis on 6379, PostgreSQL on 5432) are never touched.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A TCP port nobody listens on right now. */
export function sparePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      s.close(() => resolve(port));
    });
  });
}

async function waitFor(what: string, probe: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface ThrowawayRedis {
  readonly url: string;
  /** SIGKILLs the server: its jobs are gone (no persistence). */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** A redis-server without persistence on a spare port (`start: false`: the port only, for now). */
export async function startRedis(o: { start?: boolean } = {}): Promise<ThrowawayRedis> {
  const port = await sparePort();
  let child: ChildProcess | undefined;
  const ping = () => {
    try {
      return execFileSync('redis-cli', ['-p', String(port), 'ping'], { stdio: 'pipe' })
        .toString()
        .includes('PONG');
    } catch {
      return false;
    }
  };
  const start = async () => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    await waitFor(`redis-server on ${port}`, ping);
  };
  const kill = async () => {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGKILL');
    await exited;
  };
  if (o.start !== false) await start();
  return { url: `redis://127.0.0.1:${port}`, kill, start, stop: kill };
}

export interface ThrowawayPostgres {
  /** The cluster's `postgres` database (trust auth on loopback). */
  readonly url: string;
  /** Stops the server the way a restart does (`pg_ctl stop -m fast`: sessions get 57P01). */
  stop(): void;
  start(): void;
  /** Stops it and removes its folder. */
  destroy(): void;
}

function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) throw new Error(`no PostgreSQL binaries under ${root}`);
  return path.join(root, versions[0]!, 'bin');
}

/**
 * A PostgreSQL cluster in a temp folder on a spare port (initdb ≈ 1.5 s). PostgreSQL refuses to run
 * as root: as root, its commands run as the `postgres` user, who owns the folder.
 */
export async function startPostgres(): Promise<ThrowawayPostgres> {
  const bin = postgresBin();
  const port = await sparePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'envharness-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const run = (tool: string, args: string[]) => {
    const [cmd, argv] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args]]
      : [path.join(bin, tool), args];
    execFileSync(cmd, argv, { stdio: 'pipe', cwd: dir });
  };
  const data = path.join(dir, 'data');
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = () =>
    run('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']);
  const stop = (mode: 'fast' | 'immediate') =>
    run('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']);
  let running = false;
  // A test process that dies must not leave a server behind.
  const onExit = () => {
    if (running) {
      try {
        stop('immediate');
      } catch {}
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', onExit);
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  start();
  running = true;
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      stop('fast');
      running = false;
    },
    start() {
      start();
      running = true;
    },
    destroy() {
      process.off('exit', onExit);
      onExit();
      running = false;
    },
  };
}
