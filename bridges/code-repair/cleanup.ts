// Nothing an episode creates may outlive it: checkouts (temp dirs) and test processes (their own
// process groups) are tracked here and removed on close, and on process exit even after a crash.
// Checkouts live under one root named by pid, so a later process sweeps what a SIGKILL left behind.
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';

export const CHECKOUT_ROOT = join(tmpdir(), 'envharness-code-repair');

const liveDirs = new Set<string>();
const liveGroups = new Set<number>();
let hooked = false;

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

function onExit(): void {
  for (const pid of liveGroups) killGroup(pid);
  for (const dir of liveDirs) rmSync(dir, { recursive: true, force: true });
  // Worker threads cannot clean up when they are terminated: at process exit the main thread
  // removes every checkout of this process, whichever thread made it.
  if (isMainThread) {
    try {
      for (const name of readdirSync(CHECKOUT_ROOT))
        if (name.startsWith(`${process.pid}-`))
          rmSync(join(CHECKOUT_ROOT, name), { recursive: true, force: true });
    } catch {
      // No checkout root: nothing to remove.
    }
  }
}

function hook(): void {
  if (hooked) return;
  hooked = true;
  process.once('exit', onExit);
  sweepStale();
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes checkouts whose owning process is dead (killed before its exit hook could run). */
export function sweepStale(): number {
  let removed = 0;
  let names: string[];
  try {
    names = readdirSync(CHECKOUT_ROOT);
  } catch {
    return 0;
  }
  for (const name of names) {
    const pid = Number(name.split('-')[0]);
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && !alive(pid)) {
      rmSync(join(CHECKOUT_ROOT, name), { recursive: true, force: true });
      removed += 1;
    }
  }
  return removed;
}

export async function makeCheckoutDir(): Promise<string> {
  hook();
  mkdirSync(CHECKOUT_ROOT, { recursive: true });
  const dir = await mkdtemp(join(CHECKOUT_ROOT, `${process.pid}-`));
  liveDirs.add(dir);
  return dir;
}

export function removeCheckoutDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  liveDirs.delete(dir);
}

export function trackGroup(pid: number): void {
  hook();
  liveGroups.add(pid);
}

export function releaseGroup(pid: number, kill: boolean): void {
  if (kill) killGroup(pid);
  liveGroups.delete(pid);
}

// The main thread hooks its exit cleanup as soon as the bridge is loaded, so checkouts made by
// worker threads are removed at exit even when the main thread never opened an episode.
if (isMainThread) hook();

/** For tests: what this process still holds. */
export function liveResources(): { dirs: string[]; groups: number[] } {
  return { dirs: [...liveDirs], groups: [...liveGroups] };
}
