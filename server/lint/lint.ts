// Solvability lint (contracts/lint.ts): prove a harness can still be won by replaying known winning
// sequences through it — the bridge's oracle, asked to re-plan from the harnessed state (so after a
// Stage's set-up it plans from s0′, opening what the Stage closed), and recorded successful
// episodes of the base task. When every one breaks, the step where it broke and the layer that
// broke it (a blocked verb, an episode cut short, a set-up that lost the goal, an unreachable
// first leg, a hidden goal) are the findings. Everything is read through the engine (step records,
// layer changes, the `solve` capability), never from a component's code, so new component forms
// keep working.
import type { Action, BridgeResolver, ResetResult } from '../../bridges/core/types.ts';
import type {
  LintAttempt,
  LintFinding,
  LintResult,
  Witness,
  WitnessStep,
} from '../../contracts/lint.ts';
import { actionLine, type LayerChange, type StepRecord } from '../../contracts/steps.ts';
import { HarnessCodeError } from '../errors.ts';
import {
  createHarness,
  type Harness,
  type HarnessSpec,
  nodePaths,
  parseSpec,
} from '../harness/index.ts';

/** A recorded successful episode of the base task: what its agent did, from which reset. */
export interface KnownSequence {
  episodeId: string;
  seed: number;
  actions: Action[];
}

export interface LintOptions {
  bridges: BridgeResolver;
  /** The reset seed of the oracle's attempt (default 0); recorded sequences use their own. */
  seed?: number;
  /** Overrides the first leaf's task (a rig's pinned task); the spec's task otherwise. */
  taskId?: string;
  /** Recorded successes of the base task (shortest first is best; at most a few are replayed). */
  recorded?: KnownSequence[];
}

/** Agent steps the oracle may take (re-planning included) before the attempt is given up. */
const MAX_ORACLE_STEPS = 400;
const MAX_REPLANS = 25;
const MAX_RECORDED = 3;

/** The verb of an action: the first word of a text tool's command, else the tool's name. */
export function verbOf(action: Action): string {
  const values = Object.values(action.args);
  if (values.length === 1 && typeof values[0] === 'string') {
    return values[0].trim().split(/\s+/)[0]?.toLowerCase() || action.name;
  }
  return action.name;
}

function norm(text: string): string {
  return text
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.!?]+$/, '');
}

/** The text of an observation-ish value a layer change carries (a string, or `{ text }`). */
function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && 'text' in value) {
    const t = (value as { text: unknown }).text;
    return typeof t === 'string' ? t : undefined;
  }
  return undefined;
}

/** The observation a change replaced and what it became, when it is an observation change. */
function observationChange(c: LayerChange): { before: string; after: string } | undefined {
  if (c.what === 'observation') {
    const before = textOf(c.before);
    const after = textOf(c.after);
    return before !== undefined && after !== undefined ? { before, after } : undefined;
  }
  if (c.what === 'transition' && c.before && typeof c.before === 'object') {
    const b = c.before as Record<string, unknown>;
    const a = (c.after ?? {}) as Record<string, unknown>;
    const before = textOf(b.observation);
    const after = textOf(a.observation);
    return before !== undefined && after !== undefined ? { before, after } : undefined;
  }
  return undefined;
}

/** The goal texts of every task in play (a Chain's legs included). */
function goalsOf(h: Harness): string[] {
  const task = h.task();
  const goals = [task.goal];
  const legs = task.meta?.legs;
  if (Array.isArray(legs)) {
    for (const leg of legs) {
      if (leg && typeof leg === 'object' && !Array.isArray(leg) && typeof leg.goal === 'string')
        goals.push(leg.goal);
    }
  }
  return [...new Set(goals.map(norm).filter((g) => g.length > 0))];
}

interface Trace {
  witness: string;
  actions: Action[];
  records: StepRecord[];
  initial: string;
  seed: number;
  won: boolean;
  /** The step record where it broke (blocked, ended without a win, a hook failed). */
  broke?: { record?: StepRecord; reason: string; hookError?: string };
  outcome: LintAttempt['outcome'];
  planned?: number;
  /** The full winning sequence the attempt followed (the oracle's executed steps plus the rest of its plan). */
  sequence: Action[];
}

class Linter {
  readonly findings: LintFinding[] = [];

  constructor(
    private readonly spec: HarnessSpec,
    private readonly o: LintOptions,
  ) {}

  private add(f: LintFinding): void {
    const dup = this.findings.some(
      (g) => g.rule === f.rule && g.path === f.path && g.witness === f.witness,
    );
    if (!dup) this.findings.push(f);
  }

  private resetOptions(seed: number): { seed: number; taskId?: string } {
    return this.o.taskId === undefined ? { seed } : { seed, taskId: this.o.taskId };
  }

  /** Observation changes that dropped a goal text: reported once per layer. */
  private checkGoal(goals: string[], changes: LayerChange[], step: number | null): void {
    for (const c of changes) {
      const o = observationChange(c);
      if (!o) continue;
      const before = norm(o.before);
      const after = norm(o.after);
      const lost = goals.find((g) => before.includes(g) && !after.includes(g));
      if (!lost) continue;
      this.add({
        rule: 'hook-hides-goal',
        severity: 'error',
        path: c.layer,
        step,
        message: `the hook's output removes the goal ("${lost}") from what the agent sees ${step === null ? 'at reset' : `at step ${step}`}: the agent is never told what to do`,
      });
    }
  }

  private resetChanges(reset: ResetResult): LayerChange[] {
    const harness = reset.info.harness;
    if (!harness || typeof harness !== 'object' || Array.isArray(harness)) return [];
    const changes = (harness as { changes?: unknown }).changes;
    return Array.isArray(changes) ? (changes as unknown as LayerChange[]) : [];
  }

  /** Steps one action; a hook that fails ends the attempt (reported, never thrown). */
  private async step(
    h: Harness,
    trace: Trace,
    goals: string[],
    action: Action,
  ): Promise<'go' | 'stop'> {
    let r: Awaited<ReturnType<Harness['step']>>;
    try {
      r = await h.step(action);
    } catch (e) {
      if (!(e instanceof HarnessCodeError)) throw e;
      trace.actions.push(action);
      trace.broke = {
        reason: `a hook failed at step ${trace.actions.length}: ${e.message}`,
        hookError: e.message,
      };
      return 'stop';
    }
    trace.actions.push(action);
    trace.records.push(r.record);
    this.checkGoal(goals, r.record.changes, r.record.index + 1);
    if (r.record.blocked !== undefined) {
      trace.broke = { record: r.record, reason: `blocked: ${r.record.blocked}` };
      return 'stop';
    }
    if (r.terminated || r.truncated) return 'stop';
    return 'go';
  }

  private async finish(h: Harness, trace: Trace): Promise<Trace> {
    if (!trace.broke || trace.broke.hookError === undefined) {
      trace.won = (await h.evaluate()).success;
    }
    if (trace.won) {
      trace.outcome = 'won';
      trace.broke = undefined;
      return trace;
    }
    if (!trace.broke) {
      const last = trace.records.at(-1);
      if (last && (last.terminated || last.truncated)) {
        trace.broke = {
          record: last,
          reason: `the episode ended at step ${last.index + 1} without a win`,
        };
      }
    }
    trace.outcome = trace.broke ? 'broke' : trace.outcome;
    return trace;
  }

  /** The oracle, re-planning from the harnessed state whenever the world did not go as planned. */
  async oracle(h: Harness, seed: number): Promise<Trace> {
    const reset = await h.reset(this.resetOptions(seed));
    const goals = goalsOf(h);
    this.checkGoal(goals, this.resetChanges(reset), null);
    const trace: Trace = {
      witness: 'oracle',
      actions: [],
      records: [],
      initial: reset.observation.text,
      seed,
      won: false,
      outcome: 'incomplete',
      sequence: [],
    };
    let replans = 0;
    let invalidRun = 0;
    outer: while (trace.actions.length < MAX_ORACLE_STEPS && replans <= MAX_REPLANS) {
      const plan = await h.solve();
      if (plan === undefined) {
        if (trace.actions.length === 0) trace.outcome = 'no-plan';
        trace.broke = {
          ...(trace.records.at(-1) ? { record: trace.records.at(-1) } : {}),
          reason:
            trace.actions.length === 0
              ? 'the oracle finds no plan from the start state'
              : `the oracle finds no plan after step ${trace.actions.length}`,
        };
        if (trace.actions.length === 0) return trace;
        break;
      }
      trace.planned ??= plan.length;
      trace.sequence = [...trace.actions, ...plan];
      if (plan.length === 0) break;
      for (const [i, action] of plan.entries()) {
        if ((await this.step(h, trace, goals, action)) === 'stop') {
          trace.sequence = [...trace.actions, ...plan.slice(i + 1)];
          break outer;
        }
        // The world answered otherwise than planned (a rewritten or refused action): plan again.
        if (trace.records.at(-1)?.invalid) {
          replans++;
          invalidRun++;
          if (invalidRun >= 3) {
            trace.broke = {
              record: trace.records.at(-1),
              reason: `the oracle's action was refused ${invalidRun} times in a row (last at step ${trace.actions.length})`,
            };
            break outer;
          }
          continue outer;
        }
        invalidRun = 0;
      }
      replans++;
    }
    if (!trace.broke && replans > MAX_REPLANS) {
      const last = trace.records.at(-1);
      trace.broke = {
        ...(last ? { record: last } : {}),
        reason: `the oracle re-planned ${MAX_REPLANS} times without winning`,
      };
    }
    return this.finish(h, trace);
  }

  /** A recorded successful episode's actions, replayed from its own reset. */
  async replay(h: Harness, known: KnownSequence): Promise<Trace> {
    const reset = await h.reset(this.resetOptions(known.seed));
    const goals = goalsOf(h);
    this.checkGoal(goals, this.resetChanges(reset), null);
    const trace: Trace = {
      witness: `episode:${known.episodeId}`,
      actions: [],
      records: [],
      initial: reset.observation.text,
      seed: known.seed,
      won: false,
      outcome: 'incomplete',
      sequence: known.actions,
    };
    for (const action of known.actions) {
      if ((await this.step(h, trace, goals, action)) === 'stop') break;
    }
    return this.finish(h, trace);
  }

  /** The first Stage set-up action after which the oracle has no plan any more, if any. */
  async stageCulprit(seed: number): Promise<LintFinding | undefined> {
    for (const { path, node } of nodePaths(this.spec.env)) {
      if (node.type !== 'stage' || node.actions.length === 0) continue;
      const onFirstLeaf = !/\.(second|remedial)(\.|$)/.test(path);
      const inner = await createHarness({ version: 1, env: node.env }, { bridges: this.o.bridges });
      try {
        await inner.reset(onFirstLeaf ? this.resetOptions(seed) : { seed });
        const before = await inner.solve();
        if (before === undefined) continue;
        for (const [i, action] of node.actions.entries()) {
          const r = await inner.step(action);
          if (r.terminated || r.truncated) break;
          if ((await inner.solve()) !== undefined) continue;
          return {
            rule: 'stage-destroys-goal',
            severity: 'error',
            path,
            step: null,
            setupStep: i + 1,
            witness: 'oracle',
            message: `set-up action ${i + 1} of ${node.actions.length} ("${actionLine(action)}") consumes or destroys what the goal needs: before the set-up the oracle wins in ${before.length} steps, after it no plan exists`,
          };
        }
      } finally {
        await inner.close();
      }
    }
    return undefined;
  }
}

/** The layer that ended the episode at this step (a Contract's transition set terminated/truncated). */
function enderOf(record: StepRecord): LayerChange | undefined {
  return record.changes.find((c) => {
    if (c.what !== 'transition' || !c.after || typeof c.after !== 'object') return false;
    const after = c.after as Record<string, unknown>;
    return after.truncated === true || after.terminated === true;
  });
}

function rootChain(spec: HarnessSpec): { path: string; mode: string } | undefined {
  for (const { path, node } of nodePaths(spec.env))
    if (node.type === 'chain') return { path, mode: node.mode };
  return undefined;
}

/** Explains why an attempt broke, as a finding (error when it refutes, warning otherwise). */
function explain(
  trace: Trace,
  known: Action[][],
  shortest: number | null,
): LintFinding | undefined {
  const broke = trace.broke;
  if (!broke) return undefined;
  const record = broke.record;
  const step = record ? record.index + 1 : null;
  if (record?.blocked !== undefined) {
    const change = record.changes.find((c) => c.what === 'blocked');
    const verb = verbOf(record.action);
    const everyOne = known.length > 0 && known.every((seq) => seq.some((a) => verbOf(a) === verb));
    return {
      rule: 'contract-blocks-verb',
      severity: everyOne ? 'error' : 'warning',
      path: change?.layer ?? 'env',
      step,
      witness: trace.witness,
      message: `blocks "${verb}" ("${actionLine(record.action)}") at step ${step} of the ${trace.witness === 'oracle' ? "oracle's plan" : 'recorded winning episode'} (the Contract answered: "${record.blocked}"); ${everyOne ? `every known winning sequence needs "${verb}"` : `other known winning sequences do without "${verb}"`}`,
    };
  }
  if (record && !broke.hookError) {
    const ender = enderOf(record);
    if (ender) {
      const short = shortest !== null && step !== null && step < shortest;
      return {
        rule: 'step-limit',
        severity: short ? 'error' : 'warning',
        path: ender.layer,
        step,
        witness: trace.witness,
        message: `ends the episode after ${step} agent step${step === 1 ? '' : 's'}${shortest !== null ? `, but the shortest known winning sequence needs ${shortest}` : ''}`,
      };
    }
  }
  return {
    rule: 'witness-broke',
    severity: 'warning',
    path: 'env',
    step,
    witness: trace.witness,
    message: `the ${trace.witness === 'oracle' ? "oracle's plan" : `recorded winning episode ${trace.witness.slice('episode:'.length)}`} did not win: ${broke.reason}${record && !record.blocked ? ` (the environment said: "${record.observation.text.slice(0, 160)}")` : ''}`,
  };
}

/**
 * One finding per rule, node and severity: the first witness's (the oracle's when it broke),
 * naming where the other known winning sequences broke the same way.
 */
function mergeAlike(findings: LintFinding[]): LintFinding[] {
  const groups = new Map<string, LintFinding[]>();
  for (const f of findings) {
    const key = `${f.rule}|${f.path}|${f.severity}`;
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  return [...groups.values()].map(([first, ...rest]) => {
    const lead = first as LintFinding;
    if (rest.length === 0 || lead.rule === 'witness-broke') return lead;
    const where = rest.map(
      (f) => `${f.witness?.replace('episode:', 'episode ') ?? '?'} at step ${f.step ?? '?'}`,
    );
    return {
      ...lead,
      message: `${lead.message} (${rest.length === 1 ? 'the other known winning sequence broke' : `${rest.length} other known winning sequences broke`} the same way: ${where.join(', ')})`,
    };
  });
}

function witnessOf(trace: Trace, taskId: string | undefined): Witness {
  const steps: WitnessStep[] = trace.records.map((r) => ({
    action: r.action,
    observation: r.observation.text,
    reward: r.reward,
    invalid: r.invalid,
    ...(r.blocked !== undefined ? { blocked: r.blocked } : {}),
  }));
  return {
    source: trace.witness === 'oracle' ? 'oracle' : 'recorded',
    ...(trace.witness.startsWith('episode:')
      ? { episodeId: trace.witness.slice('episode:'.length) }
      : {}),
    seed: trace.seed,
    ...(taskId !== undefined ? { taskId } : {}),
    actions: trace.actions,
    initial: trace.initial,
    trajectory: steps,
  };
}

function attemptOf(trace: Trace): LintAttempt {
  const brokeAt = trace.broke?.record ? trace.broke.record.index + 1 : undefined;
  return {
    witness: trace.witness,
    steps: trace.actions.length,
    ...(trace.planned !== undefined ? { planned: trace.planned } : {}),
    outcome: trace.outcome,
    ...(brokeAt !== undefined && trace.outcome === 'broke' ? { brokeAt } : {}),
    ...(trace.broke && trace.outcome !== 'won' ? { reason: trace.broke.reason } : {}),
  };
}

/** Distinct recorded sequences, shortest first. */
function pickRecorded(recorded: KnownSequence[]): KnownSequence[] {
  const seen = new Set<string>();
  const out: KnownSequence[] = [];
  for (const r of [...recorded].sort((a, b) => a.actions.length - b.actions.length)) {
    const key = `${r.seed}:${JSON.stringify(r.actions)}`;
    if (seen.has(key) || r.actions.length === 0) continue;
    seen.add(key);
    out.push(r);
    if (out.length >= MAX_RECORDED) break;
  }
  return out;
}

/**
 * Lints a spec. Throws what building or resetting the stack throws (an unknown task, code that
 * does not compile, a Stage set-up the environment rejects): a harness that cannot run is a
 * validation problem, not a solvability verdict.
 */
export async function lintSpec(input: unknown, o: LintOptions): Promise<LintResult> {
  const started = performance.now();
  const spec = parseSpec(input);
  const seed = o.seed ?? 0;
  const linter = new Linter(spec, o);
  const h = await createHarness(spec, { bridges: o.bridges });
  const traces: Trace[] = [];
  try {
    const oracle = await linter.oracle(h, seed);
    traces.push(oracle);
    if (oracle.outcome !== 'won') {
      for (const known of pickRecorded(o.recorded ?? [])) {
        const t = await linter.replay(h, known);
        traces.push(t);
        if (t.won) break;
      }
    }
  } finally {
    await h.close();
  }

  const known = traces.filter((t) => t.outcome !== 'no-plan').map((t) => t.sequence);
  const lengths = [
    ...traces
      .filter((t) => t.witness === 'oracle' && t.planned !== undefined)
      .map((t) => t.planned as number),
    ...(o.recorded ?? []).filter((r) => r.actions.length > 0).map((r) => r.actions.length),
  ];
  const shortest = lengths.length > 0 ? Math.min(...lengths) : null;
  const won = traces.find((t) => t.won);

  if (!won) {
    const oracle = traces[0];
    if (oracle?.outcome === 'no-plan') {
      const culprit = await linter.stageCulprit(seed);
      if (culprit) linter.findings.push(culprit);
    }
    const explained: LintFinding[] = [];
    for (const t of traces) {
      if (t.outcome === 'no-plan') continue;
      const f = explain(t, known, shortest);
      if (f) explained.push(f);
    }
    linter.findings.push(...mergeAlike(explained));
    // A Chain whose first leg cannot be won: its second leg never starts after a win.
    const chain = rootChain(spec);
    const firstLegError = linter.findings.find(
      (f) => f.severity === 'error' && f.rule !== 'hook-hides-goal',
    );
    const brokeInFirstLeg = traces.some(
      (t) => t.outcome === 'no-plan' || (t.broke?.record?.leg ?? 0) === 0,
    );
    if (chain && firstLegError && brokeInFirstLeg) {
      linter.findings.push({
        rule: 'chain-unreachable',
        severity: 'error',
        path: chain.path,
        step: firstLegError.step,
        witness: firstLegError.witness ?? 'oracle',
        message: `the first leg (${chain.path}.first) cannot be won (${firstLegError.path}: ${firstLegError.message}), so the ${chain.mode === 'branch' ? 'second leg never starts' : 'second leg can never start after a win'} and the composite, which needs every leg's verifier, can never pass`,
      });
    }
    if (
      traces.every((t) => t.outcome === 'no-plan') &&
      traces.length > 0 &&
      !linter.findings.some((f) => f.severity === 'error')
    ) {
      linter.findings.push({
        rule: 'no-witness',
        severity: 'info',
        path: 'env',
        step: null,
        message:
          (o.recorded ?? []).length === 0
            ? 'no known winning sequence: the bridge has no oracle plan for this task and no successful episode of it is recorded (run a baseline to record one)'
            : 'the oracle has no plan and no recorded success could be replayed',
      });
    }
  }

  const errors = linter.findings.filter((f) => f.severity === 'error');
  const goalHidden = errors.some((f) => f.rule === 'hook-hides-goal');
  const solvable = won && !goalHidden ? 'proved' : errors.length > 0 ? 'refuted' : 'unknown';
  return {
    solvable,
    ...(won ? { witness: witnessOf(won, o.taskId) } : {}),
    findings: linter.findings,
    attempts: traces.map(attemptOf),
    shortestKnown: shortest,
    seed,
    ms: Math.round((performance.now() - started) * 10) / 10,
  };
}
