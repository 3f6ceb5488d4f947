// The recorded step's shapes live in the contracts module (shared with the studio and the CLI).
export type { ComponentKind, LayerChange, StepRecord } from '../../contracts/steps.ts';
