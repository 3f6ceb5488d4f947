// Hosts are reused across harnesses of a thread (a rollout worker creates one harness per
// episode): the wasm instance and the loaded hook code then cost nothing per episode.
import { SandboxHost } from './host.ts';
import type { SandboxLimits } from './limits.ts';

const idleHosts: SandboxHost[] = [];
const MAX_IDLE_HOSTS = 2;

/** A host for a new harness: a pooled one when the limits are the defaults. */
export function acquireSandboxHost(limits: Partial<SandboxLimits> = {}): SandboxHost {
  const fresh = new SandboxHost(limits);
  if (!fresh.usesDefaultLimits) return fresh;
  return idleHosts.pop() ?? fresh;
}

/** A harness is done with its host: pooled while healthy and default, else disposed. */
export function releaseSandboxHost(host: SandboxHost): void {
  if (!host.healthy || !host.usesDefaultLimits || idleHosts.length >= MAX_IDLE_HOSTS) {
    host.dispose();
    return;
  }
  if (!idleHosts.includes(host)) idleHosts.push(host);
}

let checker: SandboxHost | undefined;

/** The thread's host for compile checks (editors and designers), ready to load. */
export async function checkerHost(): Promise<SandboxHost> {
  checker ??= new SandboxHost();
  await checker.ready();
  return checker;
}
