import { describe, expect, it } from 'vitest';
import { beliefTiming, bpeOf, isMetaStep } from './model.ts';

describe('bpe step view', () => {
  const meta = {
    bpe: {
      kind: 'meta',
      by: 'scaffold',
      verb: 'commit',
      arg: 'find a mug',
      raw: 'commit[find a mug]',
      valid: true,
      feedback: 'Sub-goal 1 is done.',
      metaActions: 2,
      invalidMeta: 0,
      workspace: {
        parts: { belief: true, progress: true, experience: false },
        belief: {
          at: 'countertop 1',
          holding: 'apple 1',
          'loc:apple 1': 'held',
          'loc:mug 1': 'countertop 1',
          'loc:mug 2': 'drawer 1',
          'recep:countertop 1': 'surface',
          'recep:drawer 1': 'open',
          'recep:drawer 10': 'closed',
          'state:apple 1': 'clean',
          last_failed: 'open countertop 1',
        },
        progress: [
          { text: 'find a mug', status: 'done' },
          { text: 'take a mug', status: 'pending' },
        ],
        experience: { size: 0, recalled: [], notes: [] },
        changes: {
          belief: [{ key: 'loc:mug 1', before: null, after: 'countertop 1' }],
          progress: ['done: find a mug'],
        },
      },
    },
  };

  it('groups belief facts by receptacle and reads the meta-action', () => {
    const v = bpeOf(meta);
    expect(v?.kind).toBe('meta');
    expect(v?.meta).toMatchObject({ verb: 'commit', valid: true, by: 'scaffold' });
    expect(v?.belief.at).toBe('countertop 1');
    expect(v?.belief.holding).toBe('apple 1');
    expect(v?.belief.receptacles).toEqual([
      { name: 'countertop 1', state: 'surface', objects: ['mug 1'] },
      { name: 'drawer 1', state: 'open', objects: ['mug 2'] },
      { name: 'drawer 10', state: 'closed', objects: [] },
    ]);
    expect(v?.belief.states).toEqual([{ key: 'apple 1', value: 'clean' }]);
    expect(v?.belief.other).toEqual([{ key: 'last_failed', value: 'open countertop 1' }]);
    expect(v?.parts.experience).toBe(false);
    expect(v?.progress.map((p) => p.status)).toEqual(['done', 'pending']);
    expect(v?.changes.progress).toEqual(['done: find a mug']);
    expect(isMetaStep(meta)).toBe(true);
  });

  it('reads steps without a workspace as none', () => {
    expect(bpeOf(undefined)).toBeUndefined();
    expect(bpeOf({ other: 1 })).toBeUndefined();
    expect(isMetaStep({ bpe: { kind: 'env' } })).toBe(false);
  });
});

describe('bpe experience and changes', () => {
  it('reads recalled skills, queued notes and belief changes, dropping malformed entries', () => {
    const v = bpeOf({
      bpe: {
        kind: 'env',
        workspace: {
          experience: {
            size: 12,
            recalled: [{ id: 's1', title: 'Open before you look', category: 'general' }, 'junk'],
            notes: ['drawers hide mugs', 3],
          },
          changes: { belief: [{ key: 'recep:drawer 1', before: 'closed', after: 'open' }, 7] },
          progress: [{ text: 'find a mug' }, null],
        },
      },
    });
    expect(v?.kind).toBe('env');
    expect(v?.meta).toBeUndefined();
    expect(v?.experience).toEqual({
      size: 12,
      recalled: [{ id: 's1', title: 'Open before you look', category: 'general' }],
      notes: ['drawers hide mugs'],
    });
    expect(v?.changes.belief).toEqual([{ key: 'recep:drawer 1', before: 'closed', after: 'open' }]);
    expect(v?.progress).toEqual([{ text: 'find a mug', status: 'pending' }]);
    expect(v?.parts).toEqual({ belief: true, progress: true, experience: true });
  });
});

describe('the belief label', () => {
  it('says the belief is one observation behind the step, because it is recorded when the action is chosen', () => {
    expect(beliefTiming('env')).toMatch(/up to the previous step/);
    expect(beliefTiming('env')).toMatch(
      /this step's observation appears in the next step's belief/,
    );
    expect(beliefTiming('meta')).toMatch(/after this meta-action ran/);
  });
});
