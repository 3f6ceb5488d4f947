// Starts the bundled Python reference server (reference_server.py, standard library only) on a free
// loopback port. The child watches its stdin, so it exits with its parent even after a SIGKILL.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { EnvInfraError } from '../core/types.ts';

export const REFERENCE_SERVER = fileURLToPath(new URL('./reference_server.py', import.meta.url));

export interface ReferenceServer {
  url: string;
  pid: number;
  close(): Promise<void>;
}

export async function startReferenceServer(
  o: { python?: string; startTimeoutMs?: number } = {},
): Promise<ReferenceServer> {
  const python = o.python ?? 'python3';
  const child: ChildProcess = spawn(python, [REFERENCE_SERVER, '--port', '0', '--watch-stdin'], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  // The server must not keep the host's event loop alive: a finished CLI exits, and the stdin pipe
  // closing then stops the server.
  child.unref();
  for (const stream of [child.stdin, child.stdout, child.stderr])
    (stream as unknown as { unref?: () => void } | null)?.unref?.();
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    stderr = (stderr + d).slice(-2000);
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new EnvInfraError(`reference server did not start within ${o.startTimeoutMs ?? 15_000} ms`),
      );
    }, o.startTimeoutMs ?? 15_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(
        new EnvInfraError(`cannot start ${python} for the reference server: ${error.message}`),
      );
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(
        new EnvInfraError(
          `reference server exited (code ${code}) before listening: ${stderr.trim()}`,
        ),
      );
    });
    child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /LISTENING (\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
  });
  child.removeAllListeners('exit');
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid ?? -1,
    async close() {
      child.stdin?.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 2_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
