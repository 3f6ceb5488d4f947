// The harness engine's public surface (agreed in the team brief). Everything else in this folder
// is an implementation detail.

export { compileWhen } from './chain.ts';
export { CONTRACT_HOOKS, compileHooks, HOOK_NAMES, type HookName } from './contract.ts';
export { DelegatingEnv } from './delegate.ts';
export {
  createHarness,
  type Harness,
  type HarnessOptions,
  type HarnessResetOptions,
  type HarnessStepResult,
  harnessFromState,
} from './harness.ts';
export { EnvHarness, type HarnessLayer, type TextTool } from './layer.ts';
export { nodePaths, parseSpec, specFromShorthand } from './parse.ts';
export { type CompiledHooks, DEFAULT_LIMITS, type SandboxLimits } from './sandbox/index.ts';
export * from './spec.ts';
export type * from './types.ts';
