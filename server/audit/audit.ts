// The verifier audit's episodes (contracts/audit.ts), played through the harness engine on any
// bridge: per task a gold episode (the oracle's plan, re-planned when the world answers otherwise,
// or the shortest recorded success), an empty one (look / inventory, or the idle action a bridge
// without them offers) and the gold sequence minus its last effective action (the last step that
// changed the state view). The verdicts and summed rewards are what the report judges; the steps
// are kept so the stored probe episodes can be opened in the trajectory viewer.
import type {
  Action,
  BridgeResolver,
  Evaluation,
  StepInfo,
  TaskInfo,
} from '../../bridges/core/types.ts';
import {
  type AuditProbe,
  type Disagreement,
  type ProbeResult,
  rewardVerdictDisagreement,
} from '../../contracts/audit.ts';
import { costAwareReward } from '../../contracts/reward.ts';
import type { CostAwareReward } from '../../contracts/runs.ts';
import { actionLine, type StepRecord } from '../../contracts/steps.ts';
import { HarnessCodeError } from '../errors.ts';
import { createHarness, type Harness, type HarnessSpec } from '../harness/index.ts';
import { idleAction } from '../harnesses/validate-jobs.ts';
import type { KnownSequence } from '../lint/lint.ts';

/** A probe episode as played: what the store keeps of it (server/audit/store.ts). */
export interface ProbeEpisode {
  probe: AuditProbe;
  taskId: string;
  seed: number;
  trajectory: StepRecord[];
  evaluation: Evaluation;
  envReward: number;
  reward: CostAwareReward;
  durationMs: number;
}

/** A task's probes before the store adds episode ids and recorded disagreements. */
export interface PlayedTask {
  taskId: string;
  type: string;
  seed: number;
  gold: ProbeResult;
  empty: ProbeResult;
  perturbed: ProbeResult;
  disagreements: Disagreement[];
}

export interface AuditPlayInput {
  /** The harness audited; for a bridge audit, the bare first task (its task is set per task). */
  spec: HarnessSpec;
  tasks: Pick<TaskInfo, 'id' | 'type'>[];
  seed: number;
  /** Recorded successes per task id: gold where the bridge has no oracle plan. */
  recorded: Record<string, KnownSequence[]>;
}

const MAX_GOLD_STEPS = 300;
const MAX_REPLANS = 5;
/** Effective steps of the gold removed one at a time, from the last, before the check fails. */
const MAX_PERTURB = 5;
/** What a no-op agent types into a text tool, in this order, when the environment offers it. */
const NOOP_COMMANDS = ['look', 'inventory'];

interface Played {
  actions: Action[];
  trajectory: StepRecord[];
  /** Indices of the steps that changed the state view. */
  effective: number[];
  /** Of those, the ones that changed more than one flag (not a bare `submitted: true`). */
  substantive: number[];
  evaluation: Evaluation;
  envReward: number;
  durationMs: number;
}

/** The state view as leaf paths and their values (JSON text), to see what a step changed. */
function leaves(value: unknown, path = '', out = new Map<string, string>()): Map<string, string> {
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value as Record<string, unknown>))
      leaves(v, `${path}/${k}`, out);
    if (Object.keys(value as object).length === 0) out.set(path, JSON.stringify(value));
  } else out.set(path, JSON.stringify(value));
  return out;
}

/**
 * What a step changed in the state view: nothing, one flag only (an episode-control action such as
 * a bare submit, which leaves the work as it was), or something substantive.
 */
function changeOf(a: Map<string, string>, b: Map<string, string>): 'none' | 'flag' | 'substantive' {
  const changed: string[] = [];
  for (const [k, v] of b) if (a.get(k) !== v) changed.push(v);
  for (const k of a.keys()) if (!b.has(k)) changed.push('removed');
  if (changed.length === 0) return 'none';
  return changed.length === 1 && (changed[0] === 'true' || changed[0] === 'false')
    ? 'flag'
    : 'substantive';
}

/** Steps `next()` until it answers undefined or the episode ends; the verdict at the end. */
async function play(
  h: Harness,
  next: (info: StepInfo, index: number) => Promise<Action | undefined>,
  info0: StepInfo,
): Promise<Played> {
  const started = performance.now();
  const out: Played = {
    actions: [],
    trajectory: [],
    effective: [],
    substantive: [],
    evaluation: { success: false, score: 0, metrics: {} },
    envReward: 0,
    durationMs: 0,
  };
  let info = info0;
  let before = leaves(h.getEnvState());
  for (let i = 0; i < MAX_GOLD_STEPS; i++) {
    const action = await next(info, i);
    if (!action) break;
    const r = await h.step(action);
    out.actions.push(action);
    out.trajectory.push(r.record);
    out.envReward += r.reward;
    const after = leaves(h.getEnvState());
    const change = changeOf(before, after);
    if (change !== 'none' && !r.record.invalid) {
      out.effective.push(i);
      if (change === 'substantive') out.substantive.push(i);
    }
    before = after;
    info = r.info;
    if (r.terminated || r.truncated) break;
  }
  out.evaluation = await h.evaluate();
  out.durationMs = performance.now() - started;
  return out;
}

/** The oracle's plan, played and re-planned when an action is refused or the plan runs out. */
function oracleNext(h: Harness, first: Action[]): (info: StepInfo) => Promise<Action | undefined> {
  let plan = [...first];
  let replans = 0;
  return async (info) => {
    if (info.invalid === true || plan.length === 0) {
      if (replans >= MAX_REPLANS) return undefined;
      replans++;
      plan = (await h.solve()) ?? [];
    }
    return plan.shift();
  };
}

function probeOf(
  p: Played,
  status: ProbeResult['status'],
  extra: Partial<ProbeResult> = {},
): ProbeResult {
  return {
    status,
    success: p.evaluation.success,
    score: p.evaluation.score,
    reward: round(p.envReward),
    steps: p.trajectory.length,
    ...extra,
  };
}

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

const NA = (note: string): ProbeResult => ({
  status: 'n/a',
  success: null,
  score: null,
  reward: null,
  steps: 0,
  note,
});

class Auditor {
  readonly episodes: ProbeEpisode[] = [];

  constructor(
    private readonly h: Harness,
    private readonly textTool: { name: string; arg: string } | undefined,
  ) {}

  private keep(probe: AuditProbe, taskId: string, seed: number, p: Played): void {
    this.episodes.push({
      probe,
      taskId,
      seed,
      trajectory: p.trajectory,
      evaluation: p.evaluation,
      envReward: p.envReward,
      reward: costAwareReward({
        success: p.evaluation.success,
        trajectory: p.trajectory,
        ...(this.textTool ? { textTool: this.textTool } : {}),
      }),
      durationMs: p.durationMs,
    });
  }

  async task(
    t: Pick<TaskInfo, 'id' | 'type'>,
    seed: number,
    recorded: KnownSequence[],
  ): Promise<PlayedTask> {
    const h = this.h;
    const disagreements: Disagreement[] = [];
    const judge = (probe: AuditProbe, p: Played) => {
      const e = { reward: p.envReward, success: p.evaluation.success, score: p.evaluation.score };
      const kind = rewardVerdictDisagreement(e);
      if (kind) disagreements.push({ kind, ...e, reward: round(e.reward), probe });
    };

    // Gold: the oracle from the reset state, else the shortest recorded success from its own reset.
    let goldSeed = seed;
    let reset = await h.reset({ seed, taskId: t.id });
    const plan = await h.solve();
    let gold: Played | undefined;
    let goldResult: ProbeResult;
    let source: 'oracle' | 'recorded' | undefined;
    let fromEpisodeId: string | undefined;
    if (plan !== undefined) {
      source = 'oracle';
      gold = await play(h, oracleNext(h, plan), reset.info);
    } else {
      const best = [...recorded].sort((a, b) => a.actions.length - b.actions.length)[0];
      if (best) {
        source = 'recorded';
        fromEpisodeId = best.episodeId;
        goldSeed = best.seed;
        reset = await h.reset({ seed: goldSeed, taskId: t.id });
        const actions = best.actions;
        gold = await play(h, async (_info, i) => actions[i], reset.info);
      }
    }
    if (gold && source) {
      goldResult = probeOf(gold, gold.evaluation.success ? 'pass' : 'fail', {
        source,
        ...(fromEpisodeId ? { fromEpisodeId } : {}),
      });
      this.keep('gold', t.id, goldSeed, gold);
      judge('gold', gold);
    } else {
      goldResult = NA(
        'no gold: the bridge has no oracle plan for this task and no successful episode of it is recorded',
      );
    }

    // Empty: a no-op agent on the same start state.
    const emptyReset = await h.reset({ seed: goldSeed, taskId: t.id });
    const empty = await play(h, this.noop(), emptyReset.info);
    this.keep('empty', t.id, goldSeed, empty);
    judge('empty', empty);
    const emptyResult = probeOf(empty, empty.evaluation.success ? 'fail' : 'pass', {
      note: empty.actions.length
        ? `played ${empty.actions.map((a) => `"${actionLine(a)}"`).join(', ')}`
        : 'no step: the verdict on the reset state',
    });

    // Perturbed: the gold sequence minus its last effective action.
    let perturbed: ProbeResult;
    if (!gold?.evaluation.success) {
      perturbed = NA(
        gold ? 'the gold sequence did not pass, so there is nothing to perturb' : 'no gold',
      );
    } else if (gold.effective.length === 0) {
      perturbed = NA(
        'the gold sequence changes nothing in the state view: no effective action to remove',
      );
    } else {
      perturbed = await this.perturb(t.id, goldSeed, gold, judge);
    }
    return {
      taskId: t.id,
      type: t.type,
      seed: goldSeed,
      gold: goldResult,
      empty: emptyResult,
      perturbed,
      disagreements,
    };
  }

  /**
   * The gold minus its last effective action. A step that only flips one flag (a bare submit) is
   * skipped, since a verifier may rightly judge the work without it; and a state view also logs
   * what only reads the world (test runs, counters), so when the verifier still accepts the gold
   * without that step, the effective step before it is removed instead, up to MAX_PERTURB: the
   * check fails when the verifier accepts every one of them.
   */
  private async perturb(
    taskId: string,
    seed: number,
    gold: Played,
    judge: (probe: AuditProbe, p: Played) => void,
  ): Promise<ProbeResult> {
    const h = this.h;
    const order = [...(gold.substantive.length ? gold.substantive : gold.effective)].reverse();
    const tried = order.slice(0, MAX_PERTURB);
    const line = (i: number) => `step ${i + 1} ("${actionLine(gold.actions[i] as Action)}")`;
    const accepted: number[] = [];
    let last: Played | undefined;
    for (const cut of tried) {
      const actions = gold.actions.filter((_, i) => i !== cut);
      const r = await h.reset({ seed, taskId });
      last = await play(h, async (_info, i) => actions[i], r.info);
      if (!last.evaluation.success) {
        this.keep('perturbed', taskId, seed, last);
        judge('perturbed', last);
        const still = accepted.length
          ? `; without ${accepted.map(line).join(', ')} it still passed (a step that does not change what the verifier judges)`
          : '';
        return probeOf(last, 'pass', {
          note: `without step ${cut + 1} of ${gold.actions.length} ("${actionLine(gold.actions[cut] as Action)}")${still}`,
        });
      }
      accepted.push(cut);
    }
    const played = last as Played;
    this.keep('perturbed', taskId, seed, played);
    judge('perturbed', played);
    return probeOf(played, 'fail', {
      note:
        accepted.length === 1
          ? `without step ${(accepted[0] as number) + 1} of ${gold.actions.length} ("${actionLine(gold.actions[accepted[0] as number] as Action)}")`
          : `the verifier accepted the gold without each of ${accepted.map(line).join(', ')}`,
    });
  }

  /** look, then inventory, where the environment offers them; else its idle action, once. */
  private noop(): (info: StepInfo, i: number) => Promise<Action | undefined> {
    const h = this.h;
    return async (info, i) => {
      const text = h.textTool();
      const offered = Array.isArray(info.admissibleCommands) ? info.admissibleCommands : [];
      if (text && offered.length > 0) {
        const commands = NOOP_COMMANDS.filter((c) => offered.includes(c));
        const c = commands[i];
        return c === undefined ? undefined : { name: text.name, args: { [text.arg]: c } };
      }
      return i === 0 ? idleAction(h, info) : undefined;
    };
  }
}

/**
 * Plays every task's probes on one harness (reset per task with the task id), in order. A task
 * whose probes hit a hook error is reported as a failed gold with the error, not thrown.
 */
export async function playAudit(
  input: AuditPlayInput,
  bridges: BridgeResolver,
): Promise<{ tasks: PlayedTask[]; episodes: ProbeEpisode[]; ms: number }> {
  const started = performance.now();
  const h = await createHarness(input.spec, { bridges });
  const auditor = new Auditor(h, h.textTool());
  const tasks: PlayedTask[] = [];
  try {
    for (const t of input.tasks) {
      try {
        tasks.push(await auditor.task(t, input.seed, input.recorded[t.id] ?? []));
      } catch (e) {
        if (!(e instanceof HarnessCodeError)) throw e;
        const failed: ProbeResult = { ...NA(`a hook failed: ${e.message}`), status: 'fail' };
        tasks.push({
          taskId: t.id,
          type: t.type,
          seed: input.seed,
          gold: failed,
          empty: NA('not played: a hook failed'),
          perturbed: NA('not played: a hook failed'),
          disagreements: [],
        });
      }
    }
  } finally {
    await h.close();
  }
  return { tasks, episodes: auditor.episodes, ms: performance.now() - started };
}
