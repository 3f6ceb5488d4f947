// The harness engine's public surface (agreed in the team brief). Everything else in this folder
// is an implementation detail.

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
export {
  type CompiledHooks,
  compileHooks,
  compileWhen,
  DEFAULT_LIMITS,
  HOOK_NAMES,
  type HookName,
  type SandboxLimits,
} from './sandbox.ts';
export * from './spec.ts';
export type * from './types.ts';
