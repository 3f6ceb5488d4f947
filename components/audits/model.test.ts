import { describe, expect, it } from 'vitest';
import type { AuditTask, ProbeResult } from '../../contracts/audit.ts';
import { checkLabel, episodeHref, failingFirst, probeOutcome, visibleTasks } from './model.ts';

const probe = (p: Partial<ProbeResult>): ProbeResult => ({
  status: 'pass',
  success: true,
  score: 1,
  reward: 1,
  steps: 7,
  ...p,
});
const task = (id: string, suspicious: boolean): AuditTask => ({
  taskId: id,
  type: 'pick',
  seed: 0,
  gold: probe({}),
  empty: probe({ success: false }),
  perturbed: probe({ success: false }),
  disagreements: [],
  suspicious,
  reasons: [],
});

describe('audit page model', () => {
  it('words a probe by its check and what the episode did', () => {
    expect(checkLabel(probe({ status: 'fail' }))).toBe('failed');
    expect(probeOutcome(probe({}))).toBe('succeeded in 7 steps');
    expect(probeOutcome(probe({ success: false, steps: 1 }))).toBe('failed after 1 step');
    expect(probeOutcome(probe({ status: 'n/a', success: null, note: 'no gold' }))).toBe('no gold');
    expect(episodeHref({ runId: 'r', episodeId: 'e' })).toBe('/runs/r/episodes/e');
    expect(episodeHref({})).toBeNull();
  });

  it('shows every suspicious task first, then a few sound ones until "show all"', () => {
    const tasks = [
      task('a', false),
      task('b', true),
      ...Array.from({ length: 10 }, (_, i) => task(`s${i}`, false)),
    ];
    const shown = visibleTasks(tasks, false, 3).map((t) => t.taskId);
    expect(shown).toEqual(['b', 'a', 's0', 's1']);
    expect(visibleTasks(tasks, true)).toHaveLength(12);
  });

  it('puts the bridges that failed their audit first', () => {
    const order = failingFirst([
      { bridge: 'toy24', passed: true },
      { bridge: 'lockbox-lax', passed: false },
      { bridge: 'household', passed: true },
    ]).map((a) => a.bridge);
    expect(order).toEqual(['lockbox-lax', 'household', 'toy24']);
  });
});
