// Helpers for tests and benches that drive real processes and queues: `harness worker` children,
// polling until a condition holds, and throwaway BullMQ queues.
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type { HarnessSpec } from '../harness/spec.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const REDIS_URL = 'redis://127.0.0.1:6379';

/** Polls `probe` every 50 ms until it returns a value; throws after `ms`. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  ms = 120_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Resolves with the first group of `re` on the stream; rejects when the process exits first. */
export function waitForOutput(
  child: ChildProcess,
  stream: 'stdout' | 'stderr',
  re: RegExp,
): Promise<string> {
  let text = '';
  let errors = '';
  return new Promise((resolve, reject) => {
    child.stderr?.on('data', (d: Buffer) => {
      errors += d.toString();
    });
    child[stream]?.on('data', (d: Buffer) => {
      text += d.toString();
      const m = re.exec(text);
      if (m) resolve(m[1] ?? m[0]);
    });
    child.once('exit', (code) => reject(new Error(`process exited (${code}): ${errors}`)));
  });
}

export interface WorkerProcess {
  child: ChildProcess;
  /** The worker's id, once it reports itself ready. */
  ready: Promise<string>;
}

/** Starts `harness worker <args>` from the repository; `env` is added to this process's. */
export function startHarnessWorker(
  args: string[],
  env: Record<string, string | undefined>,
): WorkerProcess {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin/harness.mjs'), 'worker', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return { child, ready: waitForOutput(child, 'stderr', /worker (\S+) ready/) };
}

/** SIGKILLs every child still running. */
export function killAll(children: ChildProcess[]): void {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
}

/** A queue handle on its own connection (BullMQ leaves a passed-in connection open). */
export async function withQueue<T>(
  redisUrl: string,
  name: string,
  use: (q: Queue) => Promise<T>,
): Promise<T> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const q = new Queue(name, { connection: redis });
  try {
    return await use(q);
  } finally {
    await q.close();
    await redis.quit().catch(() => undefined);
  }
}

/** Removes throwaway queues and their jobs; failures are ignored (the queue may not exist). */
export async function obliterateQueues(redisUrl: string, names: string[]): Promise<void> {
  for (const name of names) {
    await withQueue(redisUrl, name, (q) => q.obliterate({ force: true })).catch(() => undefined);
  }
}

/** A household task whose every step takes ~`ms` longer (a busy loop in a contract hook), so that
 * a kill lands mid-episode. */
export function slowSpec(task = 'eval_seen-001', ms = 25): HarnessSpec {
  const code = `function filterAction(action) { const t = Date.now(); while (Date.now() - t < ${ms}) {} return action; }`;
  return {
    version: 1,
    env: { type: 'contract', code, env: { type: 'base', bridge: 'household', task } },
  };
}
