// "Try it" as plain functions: the session log as a reducer over started / stepped events, the
// commands admissible now, and a tool call's JSON arguments read or refused.
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
}

export type PlayEvent<S, T> = { type: 'started'; session: S } | { type: 'stepped'; result: T };

export function initialPlay<S extends Started, T extends Stepped>(): PlayState<S, T> {
  return { session: null, log: [], last: null };
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
    };
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
  try {
    return { ok: true, args: JSON.parse(text) as Action['args'] };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}
