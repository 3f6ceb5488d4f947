// Chain (paper: Link): joins two environments (same or different benchmarks). Modes:
//   sequential - when the first leg ends, the second starts;
//   branch     - when the first leg ends: its verifier passed -> second, failed -> remedial;
//   switch     - the second starts once `when` (a JS expression over the first leg's state view,
//                run in the sandbox after every step) holds, or when the first leg ends;
//   alternate  - agent steps alternate between the legs (a finished leg is skipped).
// Sub-env termination is masked; the composite ends when its last leg ends and succeeds only if
// every leg in play passes its own verifier (first AND the chosen/next one) — except a `branch`
// chain with `verdict: 'remedial-decides'`, where after a failed first leg the remedial leg's
// verdict is the composite's (every leg's verdict is still recorded, with whether it counts).
import type {
  Action,
  EnvSnapshot,
  Evaluation,
  JsonObject,
  Observation,
  ResetOptions,
  ResetResult,
  StepResult,
  TaskInfo,
  ToolSpec,
} from '../../bridges/core/types.ts';
import { HarnessCodeError } from '../errors.ts';
import { EnvHarness, type HarnessLayer, SPEC_TASK, type StackContext } from './layer.ts';
import { checkerHost, type HookSet, type HookSignatures } from './sandbox/index.ts';
import { type BranchVerdict, type ChainNode, DEFAULT_BRANCH_VERDICT } from './spec.ts';

const LEG_NAMES = ['first', 'second', 'remedial'] as const;

/** The `switch` condition as a hook: `when(state)`, its return value the answer. */
export const WHEN_HOOK = { when: { primary: -1, state: 0 } } as const satisfies HookSignatures;

const WHEN_PREFIX = 'function when(state) { return (';

/** Wraps a Chain `switch` condition so that errors point at the user's expression. */
export function whenSource(expression: string): {
  code: string;
  columnShift: number;
  lines: number;
} {
  return {
    code: `${WHEN_PREFIX}${expression}\n); }`,
    columnShift: WHEN_PREFIX.length,
    lines: expression.split('\n').length,
  };
}

/** Compile-checks a Chain `when` expression. */
export async function compileWhen(expression: string): Promise<void> {
  const { code, columnShift, lines } = whenSource(expression);
  const set = (await checkerHost()).load(code, { hooks: WHEN_HOOK, columnShift, lines });
  set.dispose();
}

/** Seeds of the legs after the first: deterministic, distinct, derived from the episode seed. */
export function legSeed(seed: number, leg: number): number {
  if (leg === 0) return seed;
  let h = (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) + leg * 0xc2b2ae35) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) % 2 ** 31;
}

interface LegStatus {
  done: boolean;
  success?: boolean;
}

export class ChainLayer extends EnvHarness {
  private readonly legs: HarnessLayer[];
  private active = 0;
  private status: LegStatus[] = [];
  /** branch: the leg chosen after the first (1 second, 2 remedial). */
  private chosen: number | undefined;
  private ended = false;
  private last: Observation | undefined;
  private whenHooks: HookSet | undefined;
  private lastReset: ResetOptions | undefined;

  constructor(
    legs: HarnessLayer[],
    path: string,
    ctx: StackContext,
    private readonly node: ChainNode,
  ) {
    const first = legs[0];
    if (!first || legs.length < 2) throw new Error('a chain needs two legs');
    super(first, path, ctx);
    this.legs = legs;
  }

  toNode(): ChainNode {
    const out: ChainNode = {
      type: 'chain',
      mode: this.node.mode,
      first: this.legs[0]!.toNode(),
      second: this.legs[1]!.toNode(),
    };
    if (this.node.remedial !== undefined) out.remedial = this.legs[2]!.toNode();
    if (this.node.when !== undefined) out.when = this.node.when;
    if (this.node.verdict !== undefined) out.verdict = this.node.verdict;
    if (this.node.carryContext !== undefined) out.carryContext = this.node.carryContext;
    return out;
  }

  /** A branch chain's verdict rule (BRANCH_VERDICTS); other modes: every leg in play. */
  get verdictRule(): BranchVerdict {
    return this.node.verdict ?? DEFAULT_BRANCH_VERDICT;
  }

  protected override target(): HarnessLayer {
    return this.legs[this.active] ?? this.inner;
  }

  get activeLeg(): number {
    return this.active;
  }

  /** The legs in play: the first and the one that follows it. */
  private async inPlay(): Promise<number[]> {
    if (this.node.mode !== 'branch') return [0, 1];
    if (this.chosen !== undefined) return [0, this.chosen];
    const first = await this.legs[0]!.evaluate();
    return [0, first.success ? 1 : 2];
  }

  /** Of the legs in play, those whose verdicts make the composite's (the verdict rule). */
  private counted(legs: number[]): number[] {
    if (this.node.mode === 'branch' && this.verdictRule === 'remedial-decides' && legs.includes(2))
      return [2];
    return legs;
  }

  override tools(): ToolSpec[] {
    const seen = new Map<string, ToolSpec>();
    for (const leg of this.legs)
      for (const t of leg.tools()) if (!seen.has(t.name)) seen.set(t.name, t);
    return [...seen.values()];
  }

  override task(): TaskInfo {
    const [t0, t1, t2] = this.legs.map((l) => l.task());
    const goals: Record<string, string> = {
      sequential: `${t0!.goal}; then: ${t1!.goal}`,
      switch: `${t0!.goal}; then (when a condition holds): ${t1!.goal}`,
      alternate: `${t0!.goal} and ${t1!.goal}, in alternating steps`,
      branch: `${t0!.goal}; then a follow-up task that depends on how the first went`,
    };
    return {
      id: this.legs.map((l) => l.task().id).join('+'),
      type: `chain:${this.node.mode}`,
      goal: goals[this.node.mode] ?? t0!.goal,
      split: t0!.split,
      meta: {
        legs: [t0, t1, t2]
          .filter((t): t is TaskInfo => t !== undefined)
          .map((t, i) => ({ leg: i, path: this.legPath(i), id: t.id, goal: t.goal })),
      },
    };
  }

  private legPath(i: number): string {
    return `${this.path}.${LEG_NAMES[i]}`;
  }

  override async reset(options: ResetOptions): Promise<ResetResult> {
    this.lastReset = options;
    this.active = 0;
    this.chosen = undefined;
    this.ended = false;
    this.status = this.legs.map(() => ({ done: false }));
    if (this.node.mode === 'switch') {
      await this.ctx.sandbox.ready();
      const { code, columnShift, lines } = whenSource(this.node.when ?? 'false');
      try {
        if (this.whenHooks?.alive) this.whenHooks.begin(options.seed);
        else {
          this.whenHooks = this.ctx.sandbox.load(code, {
            hooks: WHEN_HOOK,
            seed: options.seed,
            columnShift,
            lines,
          });
        }
      } catch (e) {
        throw this.located(e);
      }
    }
    let first: ResetResult | undefined;
    for (const [i, leg] of this.legs.entries()) {
      const r = await leg.reset({
        ...options,
        taskId: i === 0 ? options.taskId : SPEC_TASK,
        seed: legSeed(options.seed, i),
      });
      if (i === 0) first = r;
    }
    this.last = first!.observation;
    return { observation: first!.observation, info: { ...first!.info, harness: this.legInfo() } };
  }

  private located(e: unknown): unknown {
    if (e instanceof HarnessCodeError) {
      return new HarnessCodeError(
        `chain at ${this.path}: switch condition \`when\`: ${e.message}`,
        'when',
        e.line,
        e.column,
      );
    }
    return e;
  }

  override observe(): Observation {
    return this.last ?? this.legs[this.active]!.observe();
  }

  private legInfo(): JsonObject {
    return {
      leg: this.active,
      legs: this.status.map((s, i) => {
        const out: JsonObject = { leg: i, path: this.legPath(i), done: s.done };
        if (s.success !== undefined) out.success = s.success;
        return out;
      }),
    };
  }

  private async finish(i: number): Promise<void> {
    const s = this.status[i]!;
    if (s.done) return;
    s.done = true;
    s.success = (await this.legs[i]!.evaluate()).success;
  }

  private conditionHolds(): boolean {
    const hooks = this.whenHooks;
    if (!hooks) return false;
    hooks.provideState(() => this.legs[0]!.getEnvState());
    try {
      return Boolean(hooks.call('when', []));
    } catch (e) {
      throw this.located(e);
    }
  }

  /** Which leg the next agent step goes to, or undefined when the composite is over. */
  private async nextLeg(stepped: number, result: StepResult): Promise<number | undefined> {
    if (result.terminated || result.truncated) await this.finish(stepped);
    const mode = this.node.mode;
    const done = (i: number) => this.status[i]!.done;
    if (mode === 'alternate') {
      const other = stepped === 0 ? 1 : 0;
      if (!done(other)) return other;
      return done(stepped) ? undefined : stepped;
    }
    if (stepped === 0) {
      let leave = done(0);
      if (!leave && mode === 'switch') leave = this.conditionHolds();
      if (!leave) return 0;
      if (mode === 'branch') {
        const success = (await this.legs[0]!.evaluate()).success;
        this.chosen = success ? 1 : 2;
        return this.chosen;
      }
      return 1;
    }
    return done(stepped) ? undefined : stepped;
  }

  override async step(action: Action): Promise<StepResult> {
    if (this.ended) {
      const observation = { text: 'The episode is over.' };
      return {
        observation,
        reward: 0,
        terminated: true,
        truncated: false,
        info: { invalid: true },
      };
    }
    const stepped = this.active;
    const result = await this.legs[stepped]!.step(action);
    this.ctx.trace.leg = stepped;
    const next = await this.nextLeg(stepped, result);
    let observation = result.observation;
    if (next === undefined) {
      this.ended = true;
    } else if (next !== stepped) {
      this.active = next;
      observation = this.switchObservation(stepped, next, result.observation);
    }
    this.last = observation;
    return {
      observation,
      reward: result.reward,
      terminated: this.ended,
      truncated: false,
      info: { ...result.info, harness: { ...objectOr(result.info.harness), ...this.legInfo() } },
    };
  }

  private switchObservation(from: number, to: number, stepObs: Observation): Observation {
    const incoming = this.legs[to]!.observe();
    const parts = [stepObs.text];
    this.ctx.trace.changes.push({
      layer: this.path,
      component: 'chain',
      what: 'switch',
      before: from,
      after: to,
      note: `${this.legPath(from)} -> ${this.legPath(to)}`,
    });
    if (this.node.carryContext) {
      const banner = `[Task ${from + 1} (${this.legs[from]!.task().goal}) is set aside. Now task ${to + 1}: ${this.legs[to]!.task().goal}.]`;
      parts.push(banner);
      this.ctx.trace.changes.push({
        layer: this.path,
        component: 'chain',
        what: 'banner',
        after: banner,
      });
    }
    parts.push(incoming.text);
    return { text: parts.join('\n\n') };
  }

  override async evaluate(): Promise<Evaluation> {
    const legs = await this.inPlay();
    const counted = this.counted(legs);
    const metrics: Record<string, number> = {};
    let success = true;
    let score = 0;
    for (const i of legs) {
      const e = await this.legs[i]!.evaluate();
      const counts = counted.includes(i);
      if (counts) {
        success &&= e.success;
        score += e.score;
      }
      metrics[`leg${i}_success`] = e.success ? 1 : 0;
      metrics[`leg${i}_score`] = e.score;
      // 1 when the leg's verdict is part of the composite's, 0 when only recorded.
      metrics[`leg${i}_counts`] = counts ? 1 : 0;
      for (const [k, v] of Object.entries(e.metrics)) metrics[`leg${i}_${k}`] = v;
    }
    metrics.legs_in_play = legs.length;
    return { success, score: score / counted.length, metrics };
  }

  override async saveState(): Promise<EnvSnapshot> {
    const legs = await Promise.all(this.legs.map((l) => l.saveState()));
    return {
      envType: `chain:${this.node.mode}`,
      reset: this.lastReset ?? { taskId: SPEC_TASK, seed: 0 },
      state: { active: this.active, legs: legs as unknown as JsonObject[] },
    };
  }

  override async close(): Promise<void> {
    this.whenHooks?.dispose();
    this.whenHooks = undefined;
    for (const leg of this.legs) await leg.close();
  }
}

function objectOr(value: unknown): JsonObject {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : {};
}
