// HouseholdEnv: the ActionableEnv around HouseholdSim. One text tool, `act {command}`.
import { z } from 'zod';
import {
  type Action,
  type ActionableEnv,
  EnvClosedError,
  type EnvSnapshot,
  type Evaluation,
  type Json,
  type JsonObject,
  type JsonSchema,
  type Observation,
  type ResetOptions,
  type ResetResult,
  type StepResult,
  type TaskFilter,
  type TaskInfo,
  type ToolSpec,
  UnknownTaskError,
} from '../core/types.ts';
import { OracleError, oraclePlan } from './oracle.ts';
import { buildScene } from './scene.ts';
import { HouseholdSim, NOTHING_HAPPENS } from './sim.ts';
import {
  DIALECTS,
  type Dialect,
  type HouseholdSnapshotState,
  HouseholdSnapshotStateSchema,
  HouseholdStateViewSchema,
  type SimState,
} from './state.ts';
import { familyOf, getCatalogue, type HouseholdTask, SPLITS } from './tasks.ts';

export const ENV_TYPE = 'household';
export const TEXT_TOOL = { name: 'act', arg: 'command' } as const;

/**
 * Reset options: `dialect` ('move' default, or 'put'), `lenientPut` (the put dialect also accepts
 * `put X in Y` / `put X on Y`; off: ALFWorld 0.2's `put X in/on Y` only), `maxSteps` (truncate
 * after N agent steps).
 */
export const HouseholdOptionsSchema = z.object({
  dialect: z.enum(DIALECTS).optional(),
  lenientPut: z.boolean().optional(),
  maxSteps: z.number().int().positive().optional(),
});

const SUFFIX = /@(move|put|lenient|scene(\d+))$/;

/**
 * Resolves a task id. `<id>@put` (or `@move`) selects the command dialect without reset options, so a
 * plain `{bridge, task}` harness leaf can pick the older `put X in/on Y` grammar. `<id>@scene<N>` pins
 * the scene to the one seed N draws (an ALFWorld game file is one fixed scene): the episode seed then
 * varies only the agent, so Stage set-ups written against that scene replay under every seed.
 * Suffixes combine in any order (`<id>@put@scene3`).
 */
export function resolveTaskId(
  taskId: string,
):
  | { task: HouseholdTask; dialect?: Dialect; sceneSeed?: number; lenientPut?: boolean }
  | undefined {
  let base = taskId;
  let dialect: Dialect | undefined;
  let sceneSeed: number | undefined;
  let lenientPut: boolean | undefined;
  for (let m = SUFFIX.exec(base); m; m = SUFFIX.exec(base)) {
    if (m[2] !== undefined) {
      if (sceneSeed !== undefined) return undefined;
      sceneSeed = Number(m[2]);
    } else if (m[1] === 'lenient') {
      if (lenientPut !== undefined) return undefined;
      lenientPut = true;
    } else {
      if (dialect !== undefined) return undefined;
      dialect = m[1] as Dialect;
    }
    base = base.slice(0, m.index);
  }
  const task = getCatalogue().byId.get(base);
  if (!task) return undefined;
  return {
    task,
    ...(dialect !== undefined ? { dialect } : {}),
    ...(sceneSeed !== undefined ? { sceneSeed } : {}),
    ...(lenientPut !== undefined ? { lenientPut } : {}),
  };
}

const SCENE_SUFFIX = /@scene\d+(?=@|$)/;

/** The `pinTask` capability: `<id>@scene<scene>`, or the id itself when it already pins a scene. */
export function pinScene(taskId: string, scene: number): string {
  return SCENE_SUFFIX.test(taskId) ? taskId : `${taskId}@scene${scene}`;
}

/** The `displayTaskId` capability: the id without its `@scene<N>` pin. */
export function withoutScene(taskId: string): string {
  return taskId.replace(SCENE_SUFFIX, '');
}

export function taskInfo(t: HouseholdTask): TaskInfo {
  return {
    id: t.id,
    type: t.type,
    goal: t.goal,
    split: t.split,
    meta: {
      family: familyOf(t.type),
      room: t.room,
      /** The AI2-THOR floor plan (ALFWorld's scene) the task's room is. */
      scene: t.layout,
      layout: t.layout,
      objectType: t.objectType,
      receptacleType: t.receptacleType,
      toggleType: t.toggleType,
    },
  };
}

export function listHouseholdTasks(filter: TaskFilter = {}): TaskInfo[] {
  const text = filter.text?.toLowerCase();
  const out: TaskInfo[] = [];
  for (const t of getCatalogue().tasks) {
    if (filter.split && t.split !== filter.split) continue;
    if (filter.type && t.type !== filter.type && familyOf(t.type) !== filter.type) continue;
    if (text && !t.goal.includes(text) && !t.id.includes(text) && !t.layout.includes(text))
      continue;
    out.push(taskInfo(t));
  }
  return out;
}

export const HOUSEHOLD_TOOLS: ToolSpec[] = [
  {
    name: TEXT_TOOL.name,
    description:
      'Type one ALFWorld command, e.g. "go to countertop 1", "open drawer 2", "take mug 1 from cabinet 3", ' +
      '"move mug 1 to coffeemachine 1" (or "put mug 1 in/on coffeemachine 1" in the put dialect), ' +
      '"heat/cool/clean <obj> with <microwave|fridge|sinkbasin> N", "use desklamp 1", "examine <x>", ' +
      '"look", "inventory". The admissible commands of each step are listed in info.admissibleCommands.',
    parameters: {
      type: 'object',
      properties: { command: { type: 'string', description: 'the command to type' } },
      required: ['command'],
      additionalProperties: false,
    },
  },
];

let stateSchemaCache: JsonSchema | undefined;
export function householdStateSchema(): JsonSchema {
  if (!stateSchemaCache) {
    const generated = z.toJSONSchema(HouseholdStateViewSchema, { target: 'draft-2020-12' });
    const plain = JSON.parse(JSON.stringify(generated)) as JsonObject;
    delete plain.$schema;
    stateSchemaCache = plain;
  }
  return stateSchemaCache;
}

export class HouseholdEnv implements ActionableEnv {
  readonly envType = ENV_TYPE;
  private sim: HouseholdSim | undefined;
  private resetOptions: ResetOptions | undefined;
  private maxSteps: number | null = null;
  private closed = false;

  async listTasks(filter?: TaskFilter): Promise<TaskInfo[]> {
    return listHouseholdTasks(filter);
  }

  tools(): ToolSpec[] {
    return HOUSEHOLD_TOOLS;
  }

  stateSchema(): JsonSchema {
    return householdStateSchema();
  }

  private parseOptions(options: JsonObject | undefined): z.infer<typeof HouseholdOptionsSchema> {
    const parsed = HouseholdOptionsSchema.safeParse(options ?? {});
    if (!parsed.success) {
      throw new RangeError(
        `household reset options: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
      );
    }
    return parsed.data;
  }

  async reset(options: ResetOptions): Promise<ResetResult> {
    if (this.closed) throw new EnvClosedError(ENV_TYPE);
    const resolved = resolveTaskId(options.taskId);
    if (!resolved) throw new UnknownTaskError(ENV_TYPE, options.taskId);
    const opts = this.parseOptions(options.options);
    const dialect = opts.dialect ?? resolved.dialect ?? 'move';
    const sim = new HouseholdSim(
      resolved.task,
      buildScene(resolved.task, resolved.sceneSeed ?? options.seed),
      dialect,
      opts.lenientPut ?? resolved.lenientPut ?? false,
    );
    sim.s.lastObs = sim.welcomeText();
    this.sim = sim;
    this.maxSteps = opts.maxSteps ?? null;
    this.resetOptions = structuredClone(options);
    return {
      observation: { text: sim.s.lastObs },
      info: { admissibleCommands: sim.admissible(), invalid: false, won: false },
    };
  }

  private live(): HouseholdSim {
    if (this.closed) throw new EnvClosedError(ENV_TYPE);
    if (!this.sim) throw new Error('household environment: call reset() before using it');
    return this.sim;
  }

  async step(action: Action): Promise<StepResult> {
    return this.stepSync(action);
  }

  /** The synchronous step (benchmarks and the oracle tests use it to skip promise overhead). */
  stepSync(action: Action): StepResult {
    const sim = this.live();
    const s = sim.s;
    const command = action?.name === TEXT_TOOL.name ? action.args?.[TEXT_TOOL.arg] : undefined;
    const result =
      typeof command === 'string' ? sim.exec(command) : { text: NOTHING_HAPPENS, invalid: true };
    s.steps++;
    if (result.invalid) s.invalidCount++;
    s.lastObs = result.text;
    let reward = 0;
    if (!s.won && sim.goalSatisfied()) {
      s.won = true;
      reward = 1;
    }
    const truncated = !s.won && this.maxSteps !== null && s.steps >= this.maxSteps;
    return {
      observation: { text: result.text },
      reward,
      terminated: s.won,
      truncated,
      info: { admissibleCommands: sim.admissible(), invalid: result.invalid, won: s.won },
    };
  }

  observe(): Observation {
    return { text: this.live().s.lastObs };
  }

  /** Stage's callback after its set-up: counters and tallies start at s0′ (types.ts). */
  afterSetup(): void {
    this.live().resetCounters();
  }

  /** ALFWorld's intro for the current state: where the agent stands and what it holds. */
  describeState(): Observation {
    return { text: this.live().stateText() };
  }

  /** Admissible commands of the current state (as in the last step's info). */
  admissibleCommands(): string[] {
    return this.live().admissible();
  }

  async evaluate(): Promise<Evaluation> {
    const sim = this.live();
    const success = sim.goalSatisfied() || sim.s.won;
    const subgoals = sim.subgoals();
    const satisfied = subgoals.filter(Boolean).length;
    return {
      success,
      score: success ? 1 : 0,
      metrics: {
        subgoalsSatisfied: success ? subgoals.length : satisfied,
        subgoalsTotal: subgoals.length,
        steps: sim.s.steps,
        invalidActions: sim.s.invalidCount,
      },
    };
  }

  getEnvState(): Json {
    return this.live().view() as unknown as Json;
  }

  /** Optional capability (core/types.ts): a rule's `unless` reads one field, not the world. */
  getEnvStateAt(path: readonly string[]): Json | undefined {
    return this.live().viewAt(path);
  }

  /** The oracle capability: the planner's commands from the current state (oracle.ts). */
  async solve(): Promise<Action[] | undefined> {
    try {
      return oraclePlan(this.live().view()).map((command) => ({
        name: TEXT_TOOL.name,
        args: { [TEXT_TOOL.arg]: command },
      }));
    } catch (e) {
      if (e instanceof OracleError) return undefined;
      throw e;
    }
  }

  async saveState(): Promise<EnvSnapshot> {
    const sim = this.live();
    const state: HouseholdSnapshotState = {
      version: 1,
      dialect: sim.dialect,
      ...(sim.lenientPut ? { lenientPut: true } : {}),
      maxSteps: this.maxSteps,
      sim: structuredClone(sim.s),
    };
    return {
      envType: ENV_TYPE,
      reset: structuredClone(this.resetOptions as ResetOptions),
      state: state as unknown as Json,
    };
  }

  /** Restores a saveState() snapshot into this (fresh or used) environment. */
  restore(snapshot: EnvSnapshot): void {
    if (this.closed) throw new EnvClosedError(ENV_TYPE);
    if (snapshot.envType !== ENV_TYPE) {
      throw new TypeError(`not a household snapshot (envType '${snapshot.envType}')`);
    }
    const resolved = resolveTaskId(snapshot.reset.taskId);
    if (!resolved) throw new UnknownTaskError(ENV_TYPE, snapshot.reset.taskId);
    const parsed = HouseholdSnapshotStateSchema.safeParse(snapshot.state);
    if (!parsed.success) {
      throw new TypeError(
        `household snapshot state: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
      );
    }
    const { dialect, lenientPut, maxSteps, sim } = parsed.data;
    const problem = inconsistency(sim);
    if (problem) throw new TypeError(`household snapshot state: ${problem}`);
    this.sim = new HouseholdSim(resolved.task, structuredClone(sim), dialect, lenientPut ?? false);
    this.maxSteps = maxSteps;
    this.resetOptions = structuredClone(snapshot.reset);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.sim = undefined;
  }
}

/** Cross-references a snapshot's indices: each object is where exactly one place says it is. */
function inconsistency(s: SimState): string | undefined {
  if (s.agentLoc >= s.recs.length) return `agent location ${s.agentLoc} out of range`;
  if (s.holding >= s.objs.length) return `held object ${s.holding} out of range`;
  const seen = new Array<number>(s.objs.length).fill(0);
  for (const [r, rec] of s.recs.entries()) {
    for (const [list, floor] of [
      [rec.contents, false],
      [rec.nextTo, true],
    ] as const) {
      for (const o of list) {
        const obj = s.objs[o];
        if (!obj || obj.loc !== r || obj.floor !== floor)
          return `object ${o} misplaced in ${rec.name}`;
        seen[o] = (seen[o] ?? 0) + 1;
      }
    }
  }
  for (const [i, o] of s.objs.entries()) {
    const held = s.holding === i;
    if (held !== (o.loc === -1)) return `${o.name}: held and location disagree`;
    if (!held && seen[i] !== 1) return `${o.name} is listed ${seen[i]} times`;
  }
  return undefined;
}

export { SPLITS };
