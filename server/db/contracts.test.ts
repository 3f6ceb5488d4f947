// The contracts' closed sets are the database's enums: a value the client knows is one the database
// can hold, and the other way round.
import { describe, expect, it } from 'vitest';
import { DECISIONS } from '../../contracts/decisions.ts';
import { AXES, DESIGNERS } from '../../contracts/rigs.ts';
import { ROLES } from '../../contracts/roles.ts';
import {
  EPISODE_ERROR_KINDS,
  EPISODE_OUTCOMES,
  EPISODE_STATUSES,
  FAILURE_CATEGORIES,
  RUN_EVENT_TYPES,
  RUN_KINDS,
  RUN_STATUSES,
} from '../../contracts/runs.ts';
import { SKILL_BANK_SOURCES, SKILL_CATEGORIES, SKILL_EDIT_OPS } from '../../contracts/skills.ts';
import {
  ApprovalDecision,
  DiagnosisAxis,
  EpisodeOutcome,
  EpisodeStatus,
  ErrorKind,
  FailureCategory,
  RigDesigner,
  Role,
  RunEventType,
  RunKind,
  RunStatus,
  SkillBankSource,
  SkillCategory,
  SkillEditOp,
} from './index.ts';

const sorted = (xs: readonly string[]) => [...xs].sort();

describe('contracts and the schema agree', () => {
  it('on run and episode statuses, outcomes, error kinds and run kinds', () => {
    expect(sorted(RUN_STATUSES)).toEqual(sorted(Object.values(RunStatus)));
    expect(sorted(RUN_KINDS)).toEqual(sorted(Object.values(RunKind)));
    expect(sorted(EPISODE_STATUSES)).toEqual(sorted(Object.values(EpisodeStatus)));
    expect(sorted(EPISODE_OUTCOMES)).toEqual(sorted(Object.values(EpisodeOutcome)));
    expect(sorted(EPISODE_ERROR_KINDS)).toEqual(sorted(Object.values(ErrorKind)));
  });

  it('on failure categories and run event types', () => {
    expect(sorted(FAILURE_CATEGORIES)).toEqual(sorted(Object.values(FailureCategory)));
    expect(sorted(RUN_EVENT_TYPES)).toEqual(sorted(Object.values(RunEventType)));
  });

  it("on rig designers, diagnosis axes and people's decisions", () => {
    expect(sorted(DESIGNERS)).toEqual(sorted(Object.values(RigDesigner)));
    expect(sorted(DECISIONS)).toEqual(sorted(Object.values(ApprovalDecision)));
    expect(sorted(AXES)).toEqual(sorted(Object.values(DiagnosisAxis)));
  });

  it('on team roles, in rank order', () => {
    expect(sorted(ROLES)).toEqual(sorted(Object.values(Role)));
  });

  it('on skill categories, edit ops and bank sources', () => {
    expect(sorted(SKILL_CATEGORIES)).toEqual(sorted(Object.values(SkillCategory)));
    expect(sorted(SKILL_EDIT_OPS)).toEqual(sorted(Object.values(SkillEditOp)));
    expect(sorted(SKILL_BANK_SOURCES)).toEqual(sorted(Object.values(SkillBankSource)));
  });
});
