// Starts the OpenEnv-protocol fixture server (openenv_fixture_server.py, Python standard library)
// on a free loopback port for tests and benches, and counts the routes it served (its `EVENT`
// lines), so a test can show that episodes went over /ws.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const OPENENV_FIXTURE_SERVER = fileURLToPath(
  new URL('./openenv_fixture_server.py', import.meta.url),
);

export interface OpenEnvFixture {
  url: string;
  port: number;
  pid: number;
  /** How many times each route was served so far (`ws_open`, `ws_reset`, `ws_step`, `http_reset` …). */
  events(): Record<string, number>;
  /** Resolves when the process has exited (e.g. after a fault that kills it). */
  exited: Promise<void>;
  close(): Promise<void>;
}

export async function startOpenEnvFixture(
  o: { maxSessions?: number; port?: number } = {},
): Promise<OpenEnvFixture> {
  const args = [OPENENV_FIXTURE_SERVER, '--port', String(o.port ?? 0), '--watch-stdin'];
  if (o.maxSessions !== undefined) args.push('--max-sessions', String(o.maxSessions));
  const child: ChildProcess = spawn('python3', args, { stdio: ['pipe', 'pipe', 'pipe'] });
  child.unref();
  for (const stream of [child.stdin, child.stdout, child.stderr])
    (stream as unknown as { unref?: () => void } | null)?.unref?.();
  const counts: Record<string, number> = {};
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    stderr = (stderr + d).slice(-2000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('fixture server did not start')), 15_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`fixture server exited (${code}): ${stderr}`));
    });
    child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      let nl = out.indexOf('\n');
      while (nl >= 0) {
        const line = out.slice(0, nl);
        out = out.slice(nl + 1);
        const listening = /^LISTENING (\d+)/.exec(line);
        if (listening) {
          clearTimeout(timer);
          resolve(Number(listening[1]));
        }
        const ev = /^EVENT (\w+)/.exec(line);
        if (ev) counts[ev[1]!] = (counts[ev[1]!] ?? 0) + 1;
        nl = out.indexOf('\n');
      }
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    pid: child.pid ?? -1,
    events: () => ({ ...counts }),
    exited,
    async close() {
      child.stdin?.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 2_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
