// The QuickJS sandbox that runs user- and LLM-written hook code (Contract hooks, Chain `when`).
// Limits as measured in STACK.md: every SandboxHost owns its own wasm instance on a capped
// WebAssembly.Memory (wasm.ts), hook calls run under an interrupt deadline, the QuickJS stack is
// capped low enough that deep recursion fails inside the sandbox, any fatal error throws the whole
// instance away (errors.ts), and long built-ins are left to the pool's watchdog (watchdog.ts).
// The guest JavaScript lives in guest/*.js; which hooks exist and where their arguments go is the
// components' business (contract.ts, chain.ts), handed over as data.

export { prepareHookSource } from './guest.ts';
export {
  type CompiledHooks,
  HookSet,
  type HookSignature,
  type HookSignatures,
  type LoadOptions,
} from './hook-set.ts';
export { SandboxHost } from './host.ts';
export { acquireSandboxHost, checkerHost, releaseSandboxHost } from './host-pool.ts';
export { DEFAULT_LIMITS, MAX_HOOK_REPLY_BYTES, type SandboxLimits } from './limits.ts';
export { attachWatchdog, readWatchdog, WATCHDOG_BYTES, WATCHED_NAMES } from './watchdog.ts';
