// What a harnessed step looks like once recorded: raw vs filtered action and observation, and which
// layer changed what. Shared by the engine, the rollout store, the CLI and the trajectory viewer.
import type { Action, Json, Observation, StepInfo } from '../../bridges/core/types.ts';

export type ComponentKind = 'stage' | 'contract' | 'chain';

/** One change a harness layer made during a step. `layer` is the node's path in the spec, e.g. `env`, `env.env`, `env.first`. */
export interface LayerChange {
  layer: string;
  component: ComponentKind;
  what: 'action' | 'blocked' | 'transition' | 'observation' | 'switch' | 'banner';
  before?: Json;
  after?: Json;
  note?: string;
}

export interface StepRecord {
  /** 0-based agent step. Stage set-up steps are never recorded as agent steps. */
  index: number;
  /** The action as the agent emitted it. */
  action: Action;
  /** The action that reached the base environment after every filter; null when a layer blocked it. */
  executedAction: Action | null;
  /** What the base environment returned, before any filter; null when blocked. */
  rawObservation: Observation | null;
  /** What the agent was shown. */
  observation: Observation;
  reward: number;
  terminated: boolean;
  truncated: boolean;
  info: StepInfo;
  invalid: boolean;
  blocked?: string;
  changes: LayerChange[];
  /** Chain leg (0-based) that handled the step, when the stack has a chain. */
  leg?: number;
  /** The state view after the step, when recorded. */
  state?: Json;
  /** EvoHarness meta-action bookkeeping (bpe policies), when any. */
  meta?: Json;
}
