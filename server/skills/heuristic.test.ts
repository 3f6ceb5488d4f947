import { describe, expect, it } from 'vitest';
import { extractHeuristic } from './heuristic.ts';
import { retrieve } from './retrieve.ts';
import { policyOptionsFromSkills, priorsOf, tagsOf } from './tags.ts';
import type { EpisodeDigest, Skill } from './types.ts';

const step = (command: string, observation: string, invalid = false) => ({
  command,
  observation,
  invalid,
  meta: false,
});

function ep(
  id: string,
  success: boolean,
  goal: string,
  taskType: string,
  steps: ReturnType<typeof step>[],
): EpisodeDigest {
  return {
    id,
    bridge: 'household',
    taskId: id,
    taskType,
    goal,
    success,
    steps: steps.length,
    steps_: steps,
    initialObservation: '',
    notes: [],
  };
}

const found = ep('s1', true, 'put a mug in cabinet', 'pick_and_place_simple', [
  step('go to drawer 1', 'You arrive at drawer 1. The drawer 1 is closed.'),
  step('open drawer 1', 'You open the drawer 1. The drawer 1 is open. In it, you see a mug 1.'),
  step('take mug 1 from drawer 1', 'You pick up the mug 1 from the drawer 1.'),
  step(
    'go to cabinet 1',
    'You arrive at cabinet 1. The cabinet 1 is open. In it, you see nothing.',
  ),
  step('move mug 1 to cabinet 1', 'You move the mug 1 to the cabinet 1.'),
]);
const foundTwo = ep('s2', true, 'put a clean apple in fridge', 'pick_clean_then_place_in_recep', [
  step('go to countertop 1', 'You arrive at countertop 1. On the countertop 1, you see a mug 2.'),
  step('go to cabinet 2', 'You arrive at cabinet 2. The cabinet 2 is closed.'),
  step(
    'open cabinet 2',
    'You open the cabinet 2. The cabinet 2 is open. In it, you see an apple 1.',
  ),
  step('take apple 1 from cabinet 2', 'You pick up the apple 1 from the cabinet 2.'),
  step('go to sinkbasin 1', 'You arrive at sinkbasin 1. On the sinkbasin 1, you see nothing.'),
  step('clean apple 1 with sinkbasin 1', 'You clean the apple 1 using the sinkbasin 1.'),
  step('go to fridge 1', 'You arrive at fridge 1. The fridge 1 is open. In it, you see nothing.'),
  step('move apple 1 to fridge 1', 'You move the apple 1 to the fridge 1.'),
]);
const hidden = ep('f1', false, 'put a mug in shelf', 'pick_and_place_simple', [
  step('go to drawer 2', 'You arrive at drawer 2. The drawer 2 is closed.'),
  step('go to countertop 1', 'You arrive at countertop 1. On the countertop 1, you see a knife 1.'),
]);
const looped = ep('f2', false, 'put a mug in shelf', 'pick_and_place_simple', [
  step('open countertop 1', 'Nothing happens.', true),
  step('open countertop 1', 'Nothing happens.', true),
  step('open countertop 1', 'Nothing happens.', true),
  step('go to shelf 1', 'You arrive at shelf 1. On the shelf 1, you see a mug 3.'),
]);
const dirty = ep('f3', false, 'put a clean apple in fridge', 'pick_clean_then_place_in_recep', [
  step(
    'go to countertop 1',
    'You arrive at countertop 1. On the countertop 1, you see an apple 1.',
  ),
  step('take apple 1 from countertop 1', 'You pick up the apple 1 from the countertop 1.'),
  step('go to fridge 1', 'You arrive at fridge 1. The fridge 1 is open. In it, you see nothing.'),
  step('move apple 1 to fridge 1', 'You move the apple 1 to the fridge 1.'),
]);

describe('heuristic extractor', () => {
  const drafts = extractHeuristic([found, foundTwo, hidden, looped, dirty]);
  const titled = (t: string) => drafts.find((d) => d.title === t);

  it('derives search priors from where objects were first seen, with their evidence', () => {
    const apple = titled('Where to find an apple');
    expect(apple?.content).toBe('Search order for apple: cabinet > countertop');
    expect(apple?.sourceEpisodeIds).toEqual(['f3', 's2']);
    expect(titled('Where to find a knife')).toBeUndefined(); // one episode is not enough evidence
  });

  it('derives lessons from failures compared with successes', () => {
    const open = titled('Open closed receptacles when the target is not in sight');
    expect(open?.category).toBe('mistake');
    expect(open?.sourceEpisodeIds).toEqual(['f1', 's1', 's2']);
    expect(titled('Do not repeat a command that did nothing')?.sourceEpisodeIds).toEqual(['f2']);
    expect(titled("Check the object's state before placing it")?.sourceEpisodeIds).toEqual(['f3']);
    expect(titled('Targets are often inside closed receptacles')?.category).toBe('general');
  });

  it('writes strategies from successes per task type', () => {
    const clean = titled('How pick_clean_then_place_in_recep tasks were solved');
    expect(clean?.content).toBe(
      'Plan that worked: search, then take the apple, then search, then clean it with a sinkbasin, then search, then move it to a fridge. The object was made clean before placing it.',
    );
    expect(clean?.sourceEpisodeIds).toEqual(['s2']);
  });

  it('maps skills to the documented tags by what their text says', () => {
    const tagsByTitle = Object.fromEntries(drafts.map((d) => [d.title, tagsOf(d)]));
    expect(tagsByTitle['Open closed receptacles when the target is not in sight']).toEqual([
      'open-closed-receptacles',
    ]);
    expect(tagsByTitle['Do not repeat a command that did nothing']).toEqual([
      'avoid-repeating-failed-actions',
    ]);
    expect(tagsByTitle["Check the object's state before placing it"]).toEqual([
      'verify-state-before-placing',
    ]);
    expect(tagsByTitle['Where to find an apple']).toEqual([]);
    expect(priorsOf({ content: 'Search order for alarm clock: desk > shelf, dresser' })).toEqual({
      alarmclock: ['desk', 'shelf', 'dresser'],
    });
  });
});

describe('retrieval', () => {
  const s = (
    id: string,
    category: Skill['category'],
    title: string,
    content: string,
    taskType: string | null = null,
  ): Skill => ({
    id,
    category,
    taskType,
    title,
    description: '',
    content,
    sourceEpisodeIds: [],
    uses: 0,
  });
  const bank = [
    s('p1', 'prior', 'Where to find a mug', 'Search order for mug: countertop > cabinet'),
    s(
      'p2',
      'prior',
      'Where to find a mug again',
      'Search order for mug: countertop > cabinet > shelf',
    ),
    s('p3', 'prior', 'Where to find a pen', 'Search order for pen: desk'),
    s(
      'm1',
      'mistake',
      'Open closed receptacles',
      'open closed receptacles when the target is unseen',
    ),
    s(
      't1',
      'task',
      'How clean tasks were solved',
      'clean it first',
      'pick_clean_then_place_in_recep',
    ),
    s('t2', 'task', 'How heat tasks were solved', 'heat it first', 'pick_heat_then_place_in_recep'),
  ];

  it('returns relevant skills, spreads over categories and skips near-duplicates', () => {
    const hits = retrieve(bank, 'put a clean mug in cabinet', {
      k: 3,
      taskType: 'pick_clean_then_place_in_recep',
    }).map((h) => h.skill.id);
    expect(hits).toHaveLength(3);
    expect(hits).toContain('t1');
    expect(hits).toContain('p1');
    expect(hits).not.toContain('p2'); // near-copy of p1
    expect(hits).not.toContain('t2');
    const o = policyOptionsFromSkills(hits.map((id) => bank.find((b) => b.id === id) as Skill));
    expect(o.searchPriors).toEqual({ mug: ['countertop', 'cabinet'] });
  });
});
