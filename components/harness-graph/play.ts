// "Try it" as plain functions: the session log as a reducer over started / stepped / failed events,
// the commands admissible now, and a tool call's JSON arguments read or refused. A failed step ends
// the session (the server closed its episode): its cause stays on screen until a restart, and no
// further step is sent that would only be told "session ended".
import type { Action } from '../../contracts/spec.ts';
import type { Observation } from '../../contracts/steps.ts';

export interface LogEntry {
  action?: Action;
  observation: Observation;
  reward?: number;
  blocked?: string | undefined;
  invalid?: boolean;
}

interface Started {
  observation: Observation;
  info: { admissibleCommands?: string[] };
}

interface Stepped {
  done: boolean;
  record: {
    action: Action;
    observation: Observation;
    reward: number;
    blocked?: string;
    invalid: boolean;
    info: { admissibleCommands?: string[] };
  };
}

export interface PlayState<S extends Started, T extends Stepped> {
  session: S | null;
  log: LogEntry[];
  last: T | null;
  /** Why the session ended early (a hook error, its worker stopped), until the next start. */
  failure: string | null;
}

export type PlayEvent<S, T> =
  | { type: 'started'; session: S }
  | { type: 'stepped'; result: T }
  | { type: 'failed'; message: string };

export function initialPlay<S extends Started, T extends Stepped>(): PlayState<S, T> {
  return { session: null, log: [], last: null, failure: null };
}

/** Whether another step may be sent: a session that has neither ended nor failed. */
export function canStep(state: PlayState<Started, Stepped>): boolean {
  return state.session !== null && !state.last?.done && state.failure === null;
}

/** A new session starts a new log with its first observation; each step appends what it did. */
export function playReducer<S extends Started, T extends Stepped>(
  state: PlayState<S, T>,
  event: PlayEvent<S, T>,
): PlayState<S, T> {
  if (event.type === 'started')
    return {
      session: event.session,
      last: null,
      log: [{ observation: event.session.observation }],
      failure: null,
    };
  // The first cause is the real one: nothing later replaces it.
  if (event.type === 'failed') return { ...state, failure: state.failure ?? event.message };
  const r = event.result.record;
  return {
    ...state,
    last: event.result,
    log: [
      ...state.log,
      {
        action: r.action,
        observation: r.observation,
        reward: r.reward,
        blocked: r.blocked,
        invalid: r.invalid,
      },
    ],
  };
}

/** What may be typed next: after the last step, else at the start. */
export function admissibleNow(state: PlayState<Started, Stepped>): string[] {
  return (
    (state.last
      ? state.last.record.info.admissibleCommands
      : state.session?.info.admissibleCommands) ?? []
  );
}

export function parseToolArgs(
  text: string,
): { ok: true; args: Action['args'] } | { ok: false; error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, error: 'arguments must be a JSON object, e.g. {"path": "src/index.js"}' };
  return { ok: true, args: value as Action['args'] };
}
