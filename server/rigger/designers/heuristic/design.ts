// What the heuristic designer knows about one bridge, in that bridge's own module (bridges.ts maps
// bridge names to them): its candidate templates, and the failure patterns only its trajectories
// show. The designer itself (index.ts, diagnose.ts) knows no bridge.
import type { Json, TaskInfo } from '../../../../bridges/core/types.ts';
import type { Axis, Claim, DesignContext, Evidence, ObservedEpisode } from '../../types.ts';
import type { Plan } from './common.ts';

/** One candidate template, ready to compose: its layers and why. */
export interface Structural {
  name: string;
  plan: Plan;
  rationale: string;
}

/** Builds a template against the rig's task (undefined when it does not apply here). */
export type Maker = (ctx: DesignContext) => Promise<Structural | undefined>;

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
