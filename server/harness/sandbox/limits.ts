// The sandbox's limits (STACK.md): interrupt deadline, memory cap, stack cap, reply cap.

export interface SandboxLimits {
  /** Interrupt deadline per hook call (and for the top-level code at load). */
  hookTimeoutMs: number;
  /** Cap of the wasm memory of one SandboxHost, in MiB. */
  memoryMiB: number;
  /** QuickJS stack cap. 64 KiB keeps deep recursion and deep JSON inside the sandbox on Node's main thread. */
  maxStackBytes: number;
}

export const DEFAULT_LIMITS: SandboxLimits = {
  hookTimeoutMs: 250,
  memoryMiB: 64,
  maxStackBytes: 64 * 1024,
};

/**
 * Cap of one hook reply (serialised JSON, UTF-8 bytes). The sandbox's memory cap alone lets a hook
 * hand the host a 16 MiB action or observation, which would then be copied into every Step row
 * and live event; real actions and observations are a few KiB.
 */
export const MAX_HOOK_REPLY_BYTES = 256 * 1024;

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
  return `${Math.ceil(n / 1024)} KiB`;
}
