import { describe, expect, it } from 'vitest';
import { PROTECTED_USES, proposeEdits, SkillBankState } from './bank.ts';
import type { Skill } from './types.ts';

const skill = (id: string, over: Partial<Skill> = {}): Skill => ({
  id,
  category: 'mistake',
  taskType: null,
  title: `lesson ${id}`,
  description: '',
  content: `content of ${id}`,
  sourceEpisodeIds: ['e1'],
  uses: 0,
  ...over,
});

const draft = {
  category: 'mistake' as const,
  title: 'new lesson',
  content: 'do the thing',
  sourceEpisodeIds: ['e9'],
};

describe('skill bank consolidation', () => {
  it('applies valid add / update / merge / delete edits and records them', () => {
    const bank = new SkillBankState([skill('a'), skill('b'), skill('c')]);
    const r = bank.apply([
      { op: 'add', skill: draft },
      { op: 'update', id: 'a', patch: { content: 'better', sourceEpisodeIds: ['e2'] } },
      {
        op: 'merge',
        ids: ['b', 'c'],
        into: { category: 'general', title: 'b+c', content: 'both' },
      },
      { op: 'delete', id: 'a' },
    ]);
    expect(r.rejected).toEqual([]);
    expect(r.applied.map((e) => e.op)).toEqual(['add', 'update', 'merge', 'delete']);
    expect(bank.skills.map((s) => s.title).sort()).toEqual(['b+c', 'new lesson']);
    const merged = bank.skills.find((s) => s.title === 'b+c');
    expect(merged?.sourceEpisodeIds).toEqual(['e1']);
    expect(bank.history).toHaveLength(4);
  });

  it('rejects edits naming missing ids, past a cap, on protected skills, or malformed', () => {
    const caps = { general: 1, task: 1, mistake: 2, prior: 1 };
    const bank = new SkillBankState(
      [skill('a'), skill('hot', { uses: PROTECTED_USES }), skill('g', { category: 'general' })],
      caps,
    );
    const before = JSON.stringify(bank.skills);
    const r = bank.apply([
      { op: 'update', id: 'nope', patch: { content: 'x' } },
      { op: 'merge', ids: ['a', 'ghost'], into: { category: 'mistake', title: 't', content: 'c' } },
      { op: 'add', skill: draft }, // mistake is full (2)
      { op: 'delete', id: 'hot' }, // heavily used
      { op: 'update', id: 'a', patch: { category: 'general' } }, // general is full
      { op: 'merge', ids: ['a', 'a'], into: { category: 'mistake', title: 't', content: 'c' } },
      { op: 'rename', id: 'a' },
      { op: 'add', skill: { category: 'mistake', title: '', content: 'c' } },
    ]);
    expect(r.applied).toEqual([]);
    expect(r.rejected.map((x) => x.reason)).toEqual([
      "no skill with id 'nope'",
      "no skill with id 'ghost'",
      "category 'mistake' is full (2 skills): merge or delete first",
      `skill 'hot' is heavily used (${PROTECTED_USES} uses ≥ ${PROTECTED_USES}) and is kept`,
      "category 'general' is full (1 skills)",
      'merge needs two different skills',
      expect.stringMatching(/^malformed edit at op/),
      expect.stringMatching(/^malformed edit at skill\.title/),
    ]);
    expect(JSON.stringify(bank.skills)).toBe(before);
  });

  it('proposes updates for known lessons, adds new ones and evicts the weakest when full', () => {
    const caps = { general: 2, task: 2, mistake: 2, prior: 2 };
    const bank = new SkillBankState(
      [
        skill('a', { title: 'Open closed receptacles', content: 'open them' }),
        skill('weak', { title: 'weak', content: 'unrelated words here', sourceEpisodeIds: [] }),
      ],
      caps,
    );
    const edits = proposeEdits(
      bank,
      [
        {
          category: 'mistake',
          taskType: null,
          title: 'Open closed receptacles',
          description: 'd',
          content: 'open them now',
          sourceEpisodeIds: ['e5'],
        },
        {
          category: 'mistake',
          taskType: null,
          title: 'Brand new',
          description: '',
          content: 'something else entirely',
          sourceEpisodeIds: ['e6', 'e7'],
        },
      ],
      ['remember the fridge'],
    );
    expect(edits.map((e) => e.op)).toEqual(['update', 'delete', 'add', 'add']);
    const r = bank.apply(edits);
    expect(r.rejected).toEqual([]);
    expect(bank.skills.map((s) => s.title).sort()).toEqual([
      'Brand new',
      'Open closed receptacles',
      'remember the fridge',
    ]);
    expect(bank.byId('a')?.sourceEpisodeIds).toEqual(['e1', 'e5']);
  });

  it('keeps search priors of different objects apart however alike their text', () => {
    const bank = new SkillBankState();
    const prior = (o: string) => ({
      category: 'prior' as const,
      taskType: null,
      title: `Where to find a ${o}`,
      description: '',
      content: `Search order for ${o}: countertop > cabinet`,
      sourceEpisodeIds: ['e1', 'e2'],
    });
    const edits = proposeEdits(bank, [prior('mug'), prior('cup')]);
    expect(edits.map((e) => e.op)).toEqual(['add', 'add']);
  });
});
