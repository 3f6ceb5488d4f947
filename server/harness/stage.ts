// Stage (paper: Setups): replays ordinary actions right after reset through the inner step, so
// only the start state changes. The replayed steps are not agent steps, and the agent's first
// observation stays the reset observation (with the post-set-up admissible commands).
import type {
  Action,
  Observation,
  ResetOptions,
  ResetResult,
  StepResult,
} from '../../bridges/core/types.ts';
import { StageSetupError } from '../errors.ts';
import { describeAction, EnvHarness, type HarnessLayer, type StackContext } from './layer.ts';
import type { StageNode } from './spec.ts';

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
    return { type: 'stage', actions: this.node.actions, env: this.inner.toNode() };
  }

  get actions(): Action[] {
    return this.node.actions;
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
    const info = { ...start.info };
    if (last?.info.admissibleCommands) info.admissibleCommands = last.info.admissibleCommands;
    this.initial = { observation: start.observation, info };
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
