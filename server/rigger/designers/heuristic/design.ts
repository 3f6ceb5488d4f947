// What the heuristic designer knows about one bridge, in that bridge's own module (bridges.ts maps
// bridge names to them): its candidate templates, and the failure patterns only its trajectories
// show. The designer itself (index.ts, diagnose.ts) knows no bridge.
import type { Json, TaskInfo } from '../../../../bridges/core/types.ts';
import type { Axis, Claim, DesignContext, Evidence, ObservedEpisode } from '../../types.ts';
import type { Plan } from './common.ts';

/**
 * A template's strength as a number the designer may move to land in the band (how often a glance
 * shows an object, how many repeats a scaffold allows …): `value` within [min, max], and which way
 * is harder. A step cap is not a knob: it is the time-pressure Contract, gated (index.ts).
 */
export interface Knob {
  value: number;
  min: number;
  max: number;
  harder: 'lower' | 'higher';
  /** Whole numbers only (counts). */
  integer?: boolean;
}

/** One candidate template, ready to compose: its layers and why. */
export interface Structural {
  name: string;
  plan: Plan;
  rationale: string;
  knob?: Knob;
}

/**
 * Builds a template against the rig's task (undefined when it does not apply here); `knob` asks
 * for a given strength of a template that has one (its own default when absent).
 */
export type Maker = (ctx: DesignContext, knob?: number) => Promise<Structural | undefined>;

export interface BridgeDesign {
  /**
   * The ordered candidate templates for a diagnosis, from the lightest change to the strongest,
   * written from the state view right after reset (the designer sees the state, as in the paper).
   */
  structurals(state: Json, diagnosis: { label: string; direction: 'scaffold' | 'harder' }): Maker[];
  /** Failure patterns only this bridge's trajectories show, beside the generic ones. */
  findings?(failing: ObservedEpisode[], task: TaskInfo): (Finding | undefined)[];
  /** Words of a stated defect that point at one of those findings (tried before the generic hints). */
  defectHints?: readonly (readonly [RegExp, string])[];
}

/** One behaviour found in the failing episodes, with the evidence it rests on. */
export interface Finding {
  axis: Axis;
  label: string;
  description: string;
  evidence: Evidence[];
  /** The negative claims its description makes (each phrase occurs in the description). */
  claims?: Claim[];
  /** Failing episodes that show it. */
  episodes: number;
  /** Tie-break: lower is more specific. */
  rank: number;
}
