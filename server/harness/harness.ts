// Builds a harness stack from a spec and runs it as one ActionableEnv that records every agent step
// (raw vs filtered action and observation, which layer changed what).

import type {
  Action,
  ActionableEnv,
  BridgeResolver,
  EnvSnapshot,
  Json,
  ResetResult,
  StepResult,
  TaskInfo,
} from '../../bridges/core/types.ts';
import { HarnessCodeError, InvalidInputError, NotFoundError } from '../errors.ts';
import { BaseLayer } from './base.ts';
import { ChainLayer, WHEN_HOOK, whenSource } from './chain.ts';
import { CONTRACT_HOOKS, ContractLayer } from './contract.ts';
import { DelegatingEnv } from './delegate.ts';
import {
  type HarnessLayer,
  SPEC_TASK,
  type StackContext,
  StepTrace,
  type TextTool,
} from './layer.ts';
import { nodePaths, parseSpec } from './parse.ts';
import { acquireSandboxHost, releaseSandboxHost, type SandboxLimits } from './sandbox/index.ts';
import type { HarnessNode, HarnessSpec } from './spec.ts';
import { StageLayer } from './stage.ts';
import type { StepRecord } from './types.ts';

export interface HarnessOptions {
  /**
   * Where bridges come from. Required: the engine knows no registry. The server passes the
   * registry its composition root built (`bridgesFromConfig`, server/bridges.ts), tests their fakes.
   */
  bridges: BridgeResolver;
  limits?: Partial<SandboxLimits>;
}

export interface HarnessResetOptions {
  seed: number;
  /** Overrides the task of the first leaf; the spec's task otherwise. */
  taskId?: string;
}

export type HarnessStepResult = StepResult & { record: StepRecord };

export interface Harness extends ActionableEnv {
  readonly spec: HarnessSpec;
  toSpec(): HarnessSpec;
  reset(o: HarnessResetOptions): Promise<ResetResult>;
  step(a: Action): Promise<HarnessStepResult>;
  readonly agentSteps: number;
  task(): TaskInfo;
  textTool(): TextTool | undefined;
  /** The oracle of the layer in play (bridges/core/types.ts `solve`); undefined where there is none. */
  solve(): Promise<Action[] | undefined>;
}

async function build(
  node: HarnessNode,
  path: string,
  ctx: StackContext,
  bridges: BridgeResolver,
  created: HarnessLayer[],
): Promise<HarnessLayer> {
  switch (node.type) {
    case 'base': {
      const bridge = await bridges.get(node.bridge);
      if (!bridge) {
        throw new NotFoundError(
          `${path}: unknown bridge '${node.bridge}' (known: ${bridges.names().join(', ') || 'none'})`,
        );
      }
      const task = await bridge.getTask(node.task);
      if (!task)
        throw new NotFoundError(`${path}: unknown task '${node.task}' for bridge '${node.bridge}'`);
      const layer = new BaseLayer(await bridge.create(), bridge, node, task, path, ctx);
      created.push(layer);
      return layer;
    }
    case 'stage':
      return new StageLayer(
        await build(node.env, `${path}.env`, ctx, bridges, created),
        path,
        ctx,
        node,
      );
    case 'contract': {
      // Compile now so a broken contract fails at creation, with its line, not mid-rollout.
      try {
        if (node.code !== undefined)
          ctx.sandbox.load(node.code, { hooks: CONTRACT_HOOKS }).dispose();
      } catch (e) {
        if (e instanceof HarnessCodeError) {
          throw new HarnessCodeError(`contract at ${path}: ${e.message}`, e.hook, e.line, e.column);
        }
        throw e;
      }
      const inner = await build(node.env, `${path}.env`, ctx, bridges, created);
      return new ContractLayer(inner, path, ctx, node);
    }
    case 'chain': {
      if (node.when !== undefined) {
        const { code, columnShift, lines } = whenSource(node.when);
        try {
          ctx.sandbox.load(code, { hooks: WHEN_HOOK, columnShift, lines }).dispose();
        } catch (e) {
          if (e instanceof HarnessCodeError) {
            throw new HarnessCodeError(
              `chain at ${path}: switch condition \`when\`: ${e.message}`,
              'when',
              e.line,
              e.column,
            );
          }
          throw e;
        }
      }
      const legs = [await build(node.first, `${path}.first`, ctx, bridges, created)];
      legs.push(await build(node.second, `${path}.second`, ctx, bridges, created));
      if (node.remedial)
        legs.push(await build(node.remedial, `${path}.remedial`, ctx, bridges, created));
      return new ChainLayer(legs, path, ctx, node);
    }
  }
}

class HarnessImpl extends DelegatingEnv<HarnessLayer> implements Harness {
  private steps = 0;
  private broken: HarnessCodeError | undefined;
  private lastReset: HarnessResetOptions | undefined;
  private history: Action[] = [];
  private isReset = false;
  private closed = false;

  constructor(
    readonly spec: HarnessSpec,
    private readonly root: HarnessLayer,
    private readonly ctx: StackContext,
  ) {
    super(root);
  }

  get agentSteps(): number {
    return this.steps;
  }
  toSpec(): HarnessSpec {
    return { version: 1, env: this.root.toNode() };
  }
  task(): TaskInfo {
    return this.root.task();
  }
  textTool(): TextTool | undefined {
    return this.root.textTool();
  }

  override async reset(o: HarnessResetOptions): Promise<ResetResult> {
    if (!Number.isInteger(o.seed))
      throw new InvalidInputError(`seed must be an integer, got ${o.seed}`);
    this.broken = undefined;
    this.steps = 0;
    this.history = [];
    this.lastReset = o;
    this.ctx.trace.clear();
    const result = await this.root.reset({ seed: o.seed, taskId: o.taskId ?? SPEC_TASK });
    const changes = this.ctx.trace.changes.filter((c) => c.what === 'observation');
    this.ctx.trace.clear();
    this.isReset = true;
    if (changes.length === 0) return result;
    const harness = result.info.harness;
    const base = harness && typeof harness === 'object' && !Array.isArray(harness) ? harness : {};
    return {
      ...result,
      info: { ...result.info, harness: { ...base, changes: changes as unknown as Json } },
    };
  }

  override async step(action: Action): Promise<HarnessStepResult> {
    if (this.broken) {
      throw new HarnessCodeError(
        `this episode already ended with a hook error (${this.broken.message}); reset first`,
        this.broken.hook,
        this.broken.line,
        this.broken.column,
      );
    }
    if (!this.isReset) throw new InvalidInputError('step before reset');
    const trace = this.ctx.trace;
    trace.clear();
    let result: StepResult;
    try {
      result = await this.root.step(action);
    } catch (e) {
      if (e instanceof HarnessCodeError) this.broken = e;
      throw e;
    }
    const record: StepRecord = {
      index: this.steps,
      action,
      executedAction: trace.executedAction,
      rawObservation: trace.rawObservation,
      observation: result.observation,
      reward: result.reward,
      terminated: result.terminated,
      truncated: result.truncated,
      info: result.info,
      invalid: result.info.invalid === true,
      changes: trace.changes,
    };
    if (trace.blocked !== undefined) record.blocked = trace.blocked;
    if (trace.leg !== undefined) record.leg = trace.leg;
    this.steps += 1;
    this.history.push(action);
    trace.clear();
    return { ...result, record };
  }

  /** Reset parameters + the agent's actions: rebuild with harnessFromState(). */
  override async saveState(): Promise<EnvSnapshot> {
    const reset = this.lastReset ?? { seed: 0 };
    return {
      envType: `harness:${this.root.envType}`,
      reset: { seed: reset.seed, taskId: reset.taskId ?? SPEC_TASK },
      actions: [...this.history],
      state: { spec: this.spec as unknown as Json },
    };
  }

  override async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.root.close();
    releaseSandboxHost(this.ctx.sandbox);
  }
}

/** Builds the stack; validates bridges and tasks (NotFoundError) and hook code (HarnessCodeError). */
export async function createHarness(input: HarnessSpec, options: HarnessOptions): Promise<Harness> {
  if (!options?.bridges) {
    throw new TypeError('createHarness needs a bridge resolver: createHarness(spec, { bridges })');
  }
  const spec = parseSpec(input);
  const ctx: StackContext = { trace: new StepTrace(), sandbox: acquireSandboxHost(options.limits) };
  // A wasm instance (and the one-off compile) only for stacks that run code.
  const runsCode = nodePaths(spec.env).some(
    ({ node }) =>
      (node.type === 'contract' && node.code !== undefined) ||
      (node.type === 'chain' && node.mode === 'switch'),
  );
  if (runsCode) await ctx.sandbox.ready();
  const created: HarnessLayer[] = [];
  try {
    const root = await build(spec.env, 'env', ctx, options.bridges, created);
    return new HarnessImpl(spec, root, ctx);
  } catch (e) {
    for (const leaf of created) await leaf.close();
    releaseSandboxHost(ctx.sandbox);
    throw e;
  }
}

/** Rebuilds a harness from saveState(): same spec, same reset, the agent's actions replayed. */
export async function harnessFromState(
  snapshot: EnvSnapshot,
  options: HarnessOptions,
): Promise<Harness> {
  const state = snapshot.state;
  const spec =
    state && typeof state === 'object' && !Array.isArray(state)
      ? (state.spec as unknown)
      : undefined;
  const harness = await createHarness(parseSpec(spec), options);
  const taskId = snapshot.reset.taskId === SPEC_TASK ? undefined : snapshot.reset.taskId;
  await harness.reset(
    taskId === undefined ? { seed: snapshot.reset.seed } : { seed: snapshot.reset.seed, taskId },
  );
  for (const action of snapshot.actions ?? []) await harness.step(action);
  return harness;
}
