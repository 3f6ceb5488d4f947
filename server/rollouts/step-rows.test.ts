// The recorder's compact encoding of a trajectory (what travels) and the decoding of interned
// commands (what reads.ts does with what was stored). The round trip through the database is in
// recorder.test.ts.
import { describe, expect, it } from 'vitest';
import { CorruptRowError } from '../db/json.ts';
import type { StepRecord } from '../harness/types.ts';
import { decodeCommands, encodeSteps } from './step-rows.ts';

const look = { name: 'act', args: { command: 'look' } };

function step(over: Partial<StepRecord>): StepRecord {
  return {
    index: 0,
    action: look,
    executedAction: look,
    rawObservation: { text: 'You see a mug.' },
    observation: { text: 'You see a mug.' },
    reward: 0,
    terminated: false,
    truncated: false,
    info: {},
    invalid: false,
    changes: [],
    ...over,
  };
}

describe('encodeSteps', () => {
  it('interns admissible commands per episode, in order of first appearance', () => {
    const { steps, commands } = encodeSteps([
      step({ info: { admissibleCommands: ['look', 'go to desk 1'], won: false } }),
      step({ index: 1, info: { admissibleCommands: ['inventory', 'look'] } }),
      step({ index: 2, info: { admissibleCommands: [] } }),
      step({ index: 3, info: { note: 'no list' } }),
    ]);
    expect(JSON.parse(commands)).toEqual(['look', 'go to desk 1', 'inventory']);
    const rows = JSON.parse(steps);
    expect(rows.map((r: { cm?: string }) => r.cm)).toEqual(['0,1', '2,0', '', undefined]);
    expect(rows.map((r: { nf: unknown }) => r.nf)).toEqual([
      { won: false },
      {},
      {},
      { note: 'no list' },
    ]);
  });

  it('leaves a list that is not of strings in info, and no table when nothing was interned', () => {
    const odd = { admissibleCommands: [1, 'look'] } as unknown as StepRecord['info'];
    const { steps, commands } = encodeSteps([step({ info: odd })]);
    expect(commands).toBe('null');
    expect(JSON.parse(steps)[0]).toMatchObject({ nf: odd });
    expect(JSON.parse(steps)[0].cm).toBeUndefined();
  });

  it('sends an executed action and raw observation equal to the agent’s once, as `same`', () => {
    const [same, changed, blocked] = JSON.parse(
      encodeSteps([
        step({}),
        step({ index: 1, observation: { text: 'A mug.' } }),
        step({ index: 2, executedAction: null, rawObservation: null, blocked: 'No.' }),
      ]).steps,
    );
    expect(same).toMatchObject({ same: true, a: look, o: 'You see a mug.' });
    expect(same).not.toHaveProperty('x');
    expect(same).not.toHaveProperty('ro');
    expect(changed).toMatchObject({ a: look, x: look, ro: 'You see a mug.', o: 'A mug.' });
    expect(changed).not.toHaveProperty('same');
    // Blocked: no executed action, no raw observation (absent keys are NULL).
    expect(blocked).toMatchObject({ b: 'No.' });
    for (const key of ['same', 'x', 'ro', 'rd', 'od', 'l', 'st', 'm', 'll']) {
      expect(blocked).not.toHaveProperty(key);
    }
  });

  it('keeps every other field, nulls left out', () => {
    const [row] = JSON.parse(
      encodeSteps([
        step({
          rawObservation: { text: 'raw', data: { a: [1] } },
          observation: { text: 'shown', data: { b: null } },
          reward: -0.5,
          terminated: true,
          truncated: true,
          invalid: true,
          leg: 1,
          state: { x: 1 },
          meta: { y: 'z' },
          changes: [{ layer: 'c', component: 'contract', what: 'observation' }],
        }),
      ]).steps,
    );
    expect(row).toEqual({
      i: 0,
      a: look,
      x: look,
      ro: 'raw',
      rd: { a: [1] },
      o: 'shown',
      od: { b: null },
      r: -0.5,
      te: true,
      tr: true,
      iv: true,
      ch: [{ layer: 'c', component: 'contract', what: 'observation' }],
      nf: {},
      l: 1,
      st: { x: 1 },
      m: { y: 'z' },
    });
  });
});

describe('decodeCommands', () => {
  const table = ['look', 'go to desk 1', 'inventory'];

  it('reads a step’s indices through its episode’s table', () => {
    expect(decodeCommands('2,0,0', table, 'Step e#1')).toEqual(['inventory', 'look', 'look']);
    expect(decodeCommands('', table, 'Step e#1')).toEqual([]);
    expect(decodeCommands('', null, 'Step e#1')).toEqual([]);
  });

  it('refuses an index its table lacks, or a missing table, saying which step', () => {
    for (const [commands, t] of [
      ['3', table],
      ['0,x', table],
      ['-1', table],
      ['1.5', table],
      ['0', null],
      ['0', { 0: 'look' }],
    ] as const) {
      expect(() => decodeCommands(commands, t, 'Step e#4')).toThrow(CorruptRowError);
    }
    expect(() => decodeCommands('7', table, 'Step e#4')).toThrow(
      /Step e#4: command "7" is not in its episode's command table/,
    );
  });
});
