// EnvRigger's public surface: the loop, calibration, and the designers.
export { type CalibrateInput, type CalibrateResult, calibrate } from './calibrate.ts';
export { HeuristicDesigner } from './designers/heuristic/index.ts';
export { createDesigner, DESIGNERS, type DesignerName } from './designers/index.ts';
export { lessonsOf } from './lessons.ts';
export {
  createRig,
  executeRig,
  type IterationResult,
  type RigDeps,
  type RigHooks,
  type RigInput,
  RigInputSchema,
  type RigResult,
  type RoundResult,
  rigTaskId,
  runRig,
} from './loop.ts';
export { decideByStats } from './stats.ts';
export type * from './types.ts';
