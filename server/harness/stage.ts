// Stage (paper: Setups): replays ordinary actions right after reset through the inner step, so
// only the start state changes. The replayed steps are not agent steps; after the replay the
// env's `afterSetup` callback resets its own counters (paper, appendix C.3), so they do not count
// in its metrics either. The agent's first observation is chosen by `intro`: `reset` (default,
// the paper's) keeps the reset observation, `state` asks the env to describe s0′; either way with
// the post-set-up admissible commands.
import type {
  Action,
  Observation,
  ResetOptions,
  ResetResult,
  StepResult,
} from '../../bridges/core/types.ts';
import { StageSetupError } from '../errors.ts';
import { describeAction, EnvHarness, type HarnessLayer, type StackContext } from './layer.ts';
import { DEFAULT_STAGE_INTRO, type StageIntro, type StageNode } from './spec.ts';

/**
 * Why a set-up step counts as rejected, or undefined when it was accepted. Whether the environment
 * rejected an action is the bridge's word (`info.invalid`, checked by the contract suite), never
 * its reply text.
 */
function rejection(result: StepResult): string | undefined {
  const harness = result.info.harness;
  if (harness && typeof harness === 'object' && !Array.isArray(harness) && harness.blocked) {
    return `blocked by a harness layer: ${String(harness.blocked)}`;
  }
  if (result.info.invalid === true) return 'the environment marked it invalid';
  if (result.terminated || result.truncated) return 'it ended the episode';
  return undefined;
}

export class StageLayer extends EnvHarness {
  private initial: ResetResult | undefined;
  private fresh = false;

  constructor(
    inner: HarnessLayer,
    path: string,
    ctx: StackContext,
    private readonly node: StageNode,
  ) {
    super(inner, path, ctx);
  }

  toNode(): StageNode {
    const out: StageNode = { type: 'stage', actions: this.node.actions, env: this.inner.toNode() };
    if (this.node.intro !== undefined) out.intro = this.node.intro;
    return out;
  }

  get actions(): Action[] {
    return this.node.actions;
  }

  get intro(): StageIntro {
    return this.node.intro ?? DEFAULT_STAGE_INTRO;
  }

  override async reset(options: ResetOptions): Promise<ResetResult> {
    const start = await this.inner.reset(options);
    let last: StepResult | undefined;
    for (const [index, action] of this.node.actions.entries()) {
      const result = await this.inner.step(action);
      const why = rejection(result);
      if (why) {
        const text = describeAction(action);
        throw new StageSetupError(
          `stage at ${this.path}: set-up action ${index + 1} of ${this.node.actions.length} ("${text}") was rejected (${why}); the environment replied: "${result.observation.text}"`,
          index,
          result.observation.text,
        );
      }
      last = result;
    }
    // Set-up steps leave no trace in the env's counters (the paper's callback after the replay).
    await this.inner.afterSetup();
    const info = { ...start.info };
    if (last?.info.admissibleCommands) info.admissibleCommands = last.info.admissibleCommands;
    const observation = this.intro === 'state' ? this.inner.describeState() : start.observation;
    this.initial = { observation, info };
    this.fresh = true;
    return this.initial;
  }

  override step(action: Action): Promise<StepResult> {
    this.fresh = false;
    return this.inner.step(action);
  }

  override observe(): Observation {
    return this.fresh && this.initial ? this.initial.observation : this.inner.observe();
  }
}
