// A step as the Step table stores it, and a trajectory encoded for the recorder's batch. The worker
// thread that played an episode encodes its trajectory (worker-handlers.ts), so the host writes the
// steps as the string it received, instead of decoding them from the thread's message into objects
// only to encode them again (0.19 ms of the host's main thread per episode, measured).
//
// The encoding is compact, because everything the database does with it costs by the byte (PGlite
// takes ~6.5 ns a byte just to receive a parameter, then parses it into jsonb and stores it):
// - a step's admissible commands (`info.admissibleCommands`, a household step's ~20 strings: 53%
//   of its bytes) are interned per episode: the episode stores each distinct command once
//   (Episode.commandTable) and a step the indices of its own (Step.commands, "3,4,5", text: jsonb
//   would store each number as a numeric);
// - the fields travel under short keys, a null one not at all (recorder-sql.ts reads them back);
// - `same` stands for an executed action and a raw observation equal to the agent's (every step of
//   an unharnessed run and most of a harnessed one), which then do not travel twice.
// A household episode's steps went from 26.5 KB to 7.4 KB, and their insert from 0.58 to 0.31 ms of
// PGlite's CPU (bench/rollouts.ts). Reads decode it in one place (reads.ts toStepRecord).
import type { Json } from '../../bridges/core/types.ts';
import { CorruptRowError } from '../db/json.ts';
import type { StepRecord } from '../harness/types.ts';

/** A step's columns but the episode's id and attempt, as the Step table stores them uninterned. */
export function stepColumns(s: StepRecord) {
  return {
    index: s.index,
    action: s.action as unknown as Json,
    executedAction: (s.executedAction as unknown as Json) ?? null,
    rawObservation: s.rawObservation?.text ?? null,
    rawObservationData: s.rawObservation?.data ?? null,
    observation: s.observation.text,
    observationData: s.observation.data ?? null,
    reward: s.reward,
    terminated: s.terminated,
    truncated: s.truncated,
    invalid: s.invalid,
    blocked: s.blocked ?? null,
    changes: s.changes as unknown as Json,
    info: s.info,
    leg: s.leg ?? null,
    state: s.state ?? null,
    meta: s.meta ?? null,
    llm: (s.llm as unknown as Json) ?? null,
  };
}

/** A step's row in the Step table, uninterned (a writer without a command table: audit/store.ts). */
export function stepRow(episodeId: string, attempt: number, s: StepRecord) {
  return { episodeId, attempt, ...stepColumns(s), commands: null };
}

/** A trajectory as the recorder's batch takes it (EpisodeResult.encodedSteps). */
export interface EncodedTrajectory {
  /** A JSON array of the steps under short keys (recorder-sql.ts stepsCte). */
  steps: string;
  /** Episode.commandTable's JSON: the distinct interned commands ('null' when none). */
  commands: string;
}

function isStringArray(v: unknown): v is string[] {
  if (!Array.isArray(v)) return false;
  for (const x of v) if (typeof x !== 'string') return false;
  return true;
}

/** The key, `:` and JSON of a field, when it is not null (an absent key reads as NULL). */
function field(key: string, value: unknown): string {
  return value === null || value === undefined ? '' : `,"${key}":${JSON.stringify(value)}`;
}

function encodeStep(s: StepRecord, table: Map<string, number>): string {
  let info: Record<string, Json> = s.info;
  let commands: string | undefined;
  const listed = info.admissibleCommands;
  if (isStringArray(listed)) {
    const { admissibleCommands: _, ...rest } = info;
    info = rest;
    const ids: number[] = [];
    for (const command of listed) {
      let id = table.get(command);
      if (id === undefined) {
        id = table.size;
        table.set(command, id);
      }
      ids.push(id);
    }
    commands = ids.join(',');
  }
  const action = JSON.stringify(s.action);
  const executed = s.executedAction == null ? undefined : JSON.stringify(s.executedAction);
  const raw = s.rawObservation;
  const same = executed === action && raw != null && raw.text === s.observation.text;
  return (
    `{"i":${s.index},"a":${action}` +
    (same
      ? ',"same":true'
      : `${executed === undefined ? '' : `,"x":${executed}`}${field('ro', raw?.text)}`) +
    `${field('rd', raw?.data)},"o":${JSON.stringify(s.observation.text)}${field('od', s.observation.data)}` +
    `,"r":${JSON.stringify(s.reward)},"te":${s.terminated},"tr":${s.truncated},"iv":${s.invalid}` +
    `${field('b', s.blocked)},"ch":${JSON.stringify(s.changes)},"nf":${JSON.stringify(info)}` +
    `${field('l', s.leg)}${field('st', s.state)}${field('m', s.meta)}${field('ll', s.llm)}` +
    `${field('cm', commands)}}`
  );
}

/** A trajectory encoded for the recorder's batch, its commands interned. */
export function encodeSteps(trajectory: StepRecord[]): EncodedTrajectory {
  const table = new Map<string, number>();
  const steps = trajectory.map((s) => encodeStep(s, table));
  return {
    steps: `[${steps.join(',')}]`,
    commands: table.size > 0 ? JSON.stringify([...table.keys()]) : 'null',
  };
}

/** A stored step's admissible commands from its Step.commands and its episode's command table. */
export function decodeCommands(commands: string, table: unknown, where: string): string[] {
  if (commands === '') return [];
  const ids = commands.split(',');
  const out: string[] = new Array(ids.length);
  for (const [i, id] of ids.entries()) {
    const command = Array.isArray(table) ? table[Number(id)] : undefined;
    if (typeof command !== 'string' || !/^\d+$/.test(id)) {
      throw new CorruptRowError(
        `${where}: command ${JSON.stringify(id)} is not in its episode's command table`,
      );
    }
    out[i] = command;
  }
  return out;
}
