// Contract (paper: Rules): declarative rules (rules.ts, native) and/or three sandboxed per-step
// hooks, each identity when absent; the rules run first.
//   filterAction(action, state)            -> action | { blocked: reason } | undefined (unchanged)
//   modifyTransition(action, result, state) -> result (observation / terminated / truncated / info)
//   filterObservation(observation, state)  -> observation | string | undefined (unchanged)
// The engine, not the hook, carries the reward and the verifier: a reward a hook returns is
// ignored, and evaluate() is never routed through hook code.
import { z } from 'zod';
import type {
  Action,
  Json,
  JsonObject,
  Observation,
  ResetOptions,
  ResetResult,
  StepInfo,
  StepResult,
} from '../../bridges/core/types.ts';
import { HarnessCodeError } from '../errors.ts';
import { EnvHarness, type HarnessLayer, type StackContext } from './layer.ts';
import { type CompiledRules, compileRules } from './rules.ts';
import {
  type CompiledHooks,
  checkerHost,
  type HookSet,
  type HookSignatures,
} from './sandbox/index.ts';
import { ActionSchema, type ContractNode, JsonSchemaZ } from './spec.ts';

/**
 * The Contract's hooks and their argument table: the argument each returns (possibly changed) and
 * where the lazy `state` view goes (always last).
 */
export const CONTRACT_HOOKS = {
  filterAction: { primary: 0, state: 1 },
  modifyTransition: { primary: 1, state: 2 },
  filterObservation: { primary: 0, state: 1 },
} as const satisfies HookSignatures;

export type HookName = keyof typeof CONTRACT_HOOKS;
export const HOOK_NAMES = Object.keys(CONTRACT_HOOKS) as HookName[];

/**
 * Compile-checks Contract hook code (the studio editor and EnvRigger call this to show
 * "line N: message"). Resolves with the hooks the code defines; rejects with HarnessCodeError.
 */
export async function compileHooks(code: string): Promise<CompiledHooks> {
  const set = (await checkerHost()).load(code, { hooks: CONTRACT_HOOKS });
  const info = set.info;
  set.dispose();
  return info;
}

const BlockedSchema = z.strictObject({ blocked: z.string().min(1) });
const ObservationSchema = z.object({ text: z.string(), data: JsonSchemaZ.optional() });
/** Built once: a zod schema costs far more to build than to run, and this one runs every step. */
const FilteredObservationSchema = z.union([ObservationSchema, z.string()]);
const TransitionSchema = z.object({
  observation: z.union([ObservationSchema, z.string()]).optional(),
  reward: z.number().optional(),
  terminated: z.boolean().optional(),
  truncated: z.boolean().optional(),
  info: z.record(z.string(), JsonSchemaZ).optional(),
});

type Transition = z.infer<typeof TransitionSchema>;

function isRecord(v: Json | undefined): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * `out` as TransitionSchema reads it, when that is plain to see: a reply is parsed JSON, so every
 * value in it is JSON already and only the shapes of the known fields need a look (zod over a
 * step's whole info cost tens of µs). Undefined when zod must judge, and word any error.
 */
function plainTransition(out: Json): Transition | undefined {
  if (!isRecord(out)) return undefined;
  const { observation, reward, terminated, truncated, info } = out;
  if (
    observation !== undefined &&
    typeof observation !== 'string' &&
    !(isRecord(observation) && typeof observation.text === 'string')
  ) {
    return undefined;
  }
  if (reward !== undefined && typeof reward !== 'number') return undefined;
  if (terminated !== undefined && typeof terminated !== 'boolean') return undefined;
  if (truncated !== undefined && typeof truncated !== 'boolean') return undefined;
  if (info !== undefined && !isRecord(info)) return undefined;
  return out as Transition;
}

/** `out` as `schema` reads it, or the error a hook author can act on. */
function parseReturn<T>(schema: z.ZodType<T>, hook: string, expected: string, out: Json): T {
  const parsed = schema.safeParse(out);
  if (!parsed.success) {
    throw badReturn(hook, expected, out, parsed.error.issues[0]?.message ?? 'invalid');
  }
  return parsed.data;
}

function badReturn(hook: string, expected: string, got: Json | undefined, issue: string) {
  return new HarnessCodeError(
    `hook ${hook} returned ${JSON.stringify(got)?.slice(0, 200)}: expected ${expected} (${issue})`,
    hook,
  );
}

function same(a: Json | undefined, b: Json | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Whether `{ ...before, ...returned }` has another JSON than `before`: only the returned fields
 * can differ (a step's info holds long lists; this compares just what the hook returned).
 */
function infoChanged(before: StepInfo, returned: Record<string, Json> | undefined): boolean {
  if (returned === undefined) return false;
  const own = (before ?? {}) as unknown as Record<string, Json>;
  for (const key of Object.keys(returned)) {
    const was = Object.hasOwn(own, key) ? own[key] : undefined;
    if (!same(was, returned[key])) return true;
  }
  return false;
}

/** The observation as hooks see it: text, and data when there is any. */
function plainObservation(o: Observation): Observation {
  return o.data === undefined ? { text: o.text } : { text: o.text, data: o.data };
}

function toObservation(value: Observation | string, previous: Observation): Observation {
  if (typeof value === 'string') {
    return previous.data === undefined ? { text: value } : { text: value, data: previous.data };
  }
  return value.data === undefined ? { text: value.text } : { text: value.text, data: value.data };
}

export class ContractLayer extends EnvHarness {
  private hooks: HookSet | undefined;
  private readonly rules: CompiledRules | undefined;
  /** Agent steps through this contract since reset; undefined before the first reset. */
  private steps: number | undefined;
  private last: Observation | undefined;

  constructor(
    inner: HarnessLayer,
    path: string,
    ctx: StackContext,
    private readonly node: ContractNode,
  ) {
    super(inner, path, ctx);
    this.rules = node.rules?.length ? compileRules(node.rules) : undefined;
  }

  toNode(): ContractNode {
    const node: ContractNode = { type: 'contract', env: this.inner.toNode() };
    if (this.node.rules !== undefined) node.rules = this.node.rules;
    if (this.node.code !== undefined) node.code = this.node.code;
    return node;
  }

  /**
   * Fresh hook state per episode (the paper reloads rules every episode): the user's top-level
   * code runs again in the same runtime; a runtime lost to a fatal error is rebuilt.
   */
  private async load(seed: number): Promise<HookSet | undefined> {
    const code = this.node.code;
    if (code === undefined) return undefined;
    await this.ctx.sandbox.ready();
    try {
      if (this.hooks?.alive) this.hooks.begin(seed);
      else this.hooks = this.ctx.sandbox.load(code, { hooks: CONTRACT_HOOKS, seed });
    } catch (e) {
      throw this.located(e);
    }
    return this.hooks;
  }

  private located(e: unknown): unknown {
    if (e instanceof HarnessCodeError && !e.message.startsWith('contract at')) {
      return new HarnessCodeError(
        `contract at ${this.path}: ${e.message}`,
        e.hook,
        e.line,
        e.column,
      );
    }
    return e;
  }

  private live(): HookSet | undefined {
    if (this.steps === undefined || (this.node.code !== undefined && !this.hooks)) {
      throw new HarnessCodeError(`contract at ${this.path}: step before reset`);
    }
    return this.hooks;
  }

  override async reset(options: ResetOptions): Promise<ResetResult> {
    const hooks = await this.load(options.seed);
    const start = await this.inner.reset(options);
    this.steps = 0;
    let observation = start.observation;
    if (this.rules?.observations) observation = this.ruleObservation(observation);
    if (hooks?.has('filterObservation')) {
      this.feedState(hooks);
      try {
        observation = this.filterObservation(hooks, observation);
      } catch (e) {
        throw this.located(e);
      }
    }
    this.last = observation;
    return { observation, info: start.info };
  }

  override observe(): Observation {
    return this.last ?? this.inner.observe();
  }

  override async close(): Promise<void> {
    this.hooks?.dispose();
    this.hooks = undefined;
    this.steps = undefined;
    await this.inner.close();
  }

  // Not async itself: one promise per step fewer, which shows in a rules-only contract's cost.
  override step(action: Action): Promise<StepResult> {
    try {
      return this.run(this.live(), action).catch((e: unknown) => {
        throw this.located(e);
      });
    } catch (e) {
      return Promise.reject(this.located(e));
    }
  }

  private readonly fullState = (): Json => this.inner.getEnvState();
  private readonly stateField = (key: string): Json | undefined => this.inner.getEnvStateAt([key]);

  /**
   * The state view is serialised at most once per phase, and only if a hook reads it; a field
   * alone where the bridge reads narrowly (household answers `state.agent` without the world).
   */
  private feedState(hooks: HookSet): void {
    hooks.provideState(
      this.fullState,
      this.inner.hasNarrowStateRead() ? this.stateField : undefined,
    );
  }

  private async run(hooks: HookSet | undefined, action: Action): Promise<StepResult> {
    const steps = (this.steps ?? 0) + 1;
    this.steps = steps;
    const rules = this.rules;
    if (rules?.blocks) {
      // A narrow read: the bridge need not build its whole view for one field.
      const reason = rules.block(action, (path) => this.inner.getEnvStateAt(path));
      if (reason !== undefined) {
        const blocked = this.block(action, reason);
        // Like a hook's block, it skips the transition rules; but the step still counts.
        if (rules.capAt === undefined || steps < rules.capAt) return blocked;
        this.ctx.trace.changes.push({
          layer: this.path,
          component: 'contract',
          what: 'transition',
          before: { truncated: false },
          after: { truncated: true },
        });
        return { ...blocked, truncated: true };
      }
    }
    let executed = action;
    if (hooks?.has('filterAction')) {
      this.feedState(hooks);
      const out = hooks.call('filterAction', [action as unknown as Json]);
      if (out !== undefined && out !== null) {
        const blocked = BlockedSchema.safeParse(out);
        if (blocked.success) return this.block(action, blocked.data.blocked);
        executed = parseReturn(
          ActionSchema,
          'filterAction',
          'an action { name, args } or { blocked: "reason" }',
          out,
        );
        if (!same(executed as unknown as Json, action as unknown as Json)) {
          this.ctx.trace.changes.push({
            layer: this.path,
            component: 'contract',
            what: 'action',
            before: action as unknown as Json,
            after: executed as unknown as Json,
          });
        }
      }
    }

    let raw = await this.inner.step(executed);
    if (rules?.transitions) raw = this.ruleTransition(steps, executed, raw);
    if (rules?.observations) {
      raw = { ...raw, observation: this.ruleObservation(raw.observation) };
    }
    let result = raw;
    if (hooks && (hooks.has('modifyTransition') || hooks.has('filterObservation'))) {
      this.feedState(hooks);
      // One crossing for both; info crosses lazily (only if modifyTransition reads it).
      const { info, ...rest } = raw;
      const out = hooks.after(
        executed as unknown as Json,
        rest as unknown as Json,
        info as Record<string, Json>,
      );
      if (hooks.has('modifyTransition')) result = this.applyTransition(raw, out.transition);
      if (hooks.has('filterObservation')) {
        const seen = plainObservation(result.observation);
        const filtered = out.observation(seen as unknown as Json);
        result = { ...result, observation: this.applyObservation(seen, filtered) };
      }
    }
    this.last = result.observation;
    return result;
  }

  /** Cap and feedback rules, recorded as a transition change (as modifyTransition's would be). */
  private ruleTransition(step: number, action: Action, raw: StepResult): StepResult {
    const seen = {
      text: raw.observation.text,
      terminated: raw.terminated,
      truncated: raw.truncated,
      hint: undefined,
    };
    const t = this.rules!.transition(step, action, seen);
    if (t === seen) return raw;
    const next: StepResult = {
      observation:
        t.text === raw.observation.text ? raw.observation : toObservation(t.text, raw.observation),
      reward: raw.reward,
      terminated: raw.terminated,
      truncated: t.truncated,
      info: t.hint === undefined ? raw.info : { ...raw.info, hint: t.hint },
    };
    const before: JsonObject = {};
    const afterView: JsonObject = {};
    for (const key of ['observation', 'truncated', 'info'] as const) {
      if (raw[key] !== next[key]) {
        before[key] = raw[key] as unknown as Json;
        afterView[key] = next[key] as unknown as Json;
      }
    }
    if (Object.keys(before).length > 0) {
      this.ctx.trace.changes.push({
        layer: this.path,
        component: 'contract',
        what: 'transition',
        before,
        after: afterView,
      });
    }
    return next;
  }

  /** Rewrite and truncate rules, recorded as an observation change (as filterObservation's). */
  private ruleObservation(observation: Observation): Observation {
    const text = this.rules!.observation(observation.text);
    if (text === observation.text) return observation;
    this.ctx.trace.changes.push({
      layer: this.path,
      component: 'contract',
      what: 'observation',
      before: observation.text,
      after: text,
    });
    return toObservation(text, observation);
  }

  private block(action: Action, reason: string): StepResult {
    this.ctx.trace.blocked = reason;
    this.ctx.trace.changes.push({
      layer: this.path,
      component: 'contract',
      what: 'blocked',
      before: action as unknown as Json,
      note: reason,
    });
    const observation = { text: reason };
    this.last = observation;
    return {
      observation,
      reward: 0,
      terminated: false,
      truncated: false,
      info: { invalid: true, harness: { blocked: reason, layer: this.path } },
    };
  }

  private applyTransition(raw: StepResult, out: Json | undefined): StepResult {
    if (out === undefined || out === null) return raw;
    const t =
      plainTransition(out) ??
      parseReturn(
        TransitionSchema,
        'modifyTransition',
        'a result { observation, terminated, truncated, info }',
        out,
      );
    const next: StepResult = {
      observation: t.observation ? toObservation(t.observation, raw.observation) : raw.observation,
      // The engine carries the reward through unchanged: the paper's rules never change it.
      reward: raw.reward,
      terminated: t.terminated ?? raw.terminated,
      truncated: t.truncated ?? raw.truncated,
      info: t.info ? ({ ...raw.info, ...t.info } as StepInfo) : raw.info,
    };
    const before: JsonObject = {};
    const afterView: JsonObject = {};
    for (const key of ['observation', 'terminated', 'truncated', 'info'] as const) {
      const a = raw[key] as unknown as Json;
      const b = next[key] as unknown as Json;
      if (key === 'info' ? infoChanged(raw.info, t.info) : !same(a, b)) {
        before[key] = a;
        afterView[key] = b;
      }
    }
    const rewardIgnored = t.reward !== undefined && t.reward !== raw.reward;
    if (Object.keys(before).length > 0 || rewardIgnored) {
      this.ctx.trace.changes.push({
        layer: this.path,
        component: 'contract',
        what: 'transition',
        before,
        after: afterView,
        ...(rewardIgnored
          ? { note: `reward ${t.reward} returned by the hook was ignored (kept ${raw.reward})` }
          : {}),
      });
    }
    return next;
  }

  private filterObservation(hooks: HookSet, observation: Observation): Observation {
    const seen = plainObservation(observation);
    return this.applyObservation(seen, hooks.call('filterObservation', [seen as unknown as Json]));
  }

  private applyObservation(observation: Observation, out: Json | undefined): Observation {
    if (out === undefined || out === null) return observation;
    // A string (the common reply) needs no schema.
    const filtered =
      typeof out === 'string'
        ? out
        : parseReturn(
            FilteredObservationSchema,
            'filterObservation',
            'an observation { text } or a string',
            out,
          );
    const next = toObservation(filtered as Observation | string, observation);
    const changed =
      next.text !== observation.text ||
      ((next.data !== undefined || observation.data !== undefined) &&
        !same(next.data, observation.data));
    if (changed) {
      this.ctx.trace.changes.push({
        layer: this.path,
        component: 'contract',
        what: 'observation',
        before: observation.text,
        after: next.text,
      });
    }
    return next;
  }
}
