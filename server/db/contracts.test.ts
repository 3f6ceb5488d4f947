// The contracts' closed sets are the database's enums: a status the client knows is one the
// database can hold, and the other way round.
import { describe, expect, it } from 'vitest';
import {
  EPISODE_ERROR_KINDS,
  EPISODE_OUTCOMES,
  EPISODE_STATUSES,
  RUN_KINDS,
  RUN_STATUSES,
} from '../../contracts/runs.ts';
import { EpisodeOutcome, EpisodeStatus, ErrorKind, RunKind, RunStatus } from './index.ts';

const sorted = (xs: readonly string[]) => [...xs].sort();

describe('contracts and the schema agree', () => {
  it('on run and episode statuses, outcomes, error kinds and run kinds', () => {
    expect(sorted(RUN_STATUSES)).toEqual(sorted(Object.values(RunStatus)));
    expect(sorted(RUN_KINDS)).toEqual(sorted(Object.values(RunKind)));
    expect(sorted(EPISODE_STATUSES)).toEqual(sorted(Object.values(EpisodeStatus)));
    expect(sorted(EPISODE_OUTCOMES)).toEqual(sorted(Object.values(EpisodeOutcome)));
    expect(sorted(EPISODE_ERROR_KINDS)).toEqual(sorted(Object.values(ErrorKind)));
  });
});
