// scripted:schema-random: valid actions from any tool schema, choices when offered, on every bridge.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateJsonSchema } from '../../bridges/core/schema.ts';
import type { Bridge, JsonSchema } from '../../bridges/core/types.ts';
import { getBridge } from '../../bridges/index.ts';
import { createOpenEnvBridge } from '../../bridges/openenv/index.ts';
import { type OpenEnvFixture, startOpenEnvFixture } from '../../bridges/openenv/testing/fixture.ts';
import { getPolicy, listPolicies } from './index.ts';
import { createRng } from './rng.ts';
import { choicesOf, sampleFromSchema } from './schema-random.ts';
import { play } from './testing/play.ts';

const policy = getPolicy('scripted:schema-random');

describe('sampling from a tool schema', () => {
  it('gives values the schema accepts: enums, ranges, $ref, nullable unions, required fields', () => {
    const schema: JsonSchema = {
      type: 'object',
      required: ['op', 'n', 'target', 'maybe'],
      properties: {
        op: { type: 'string', enum: ['+', '-', '*'] },
        n: { type: 'integer', minimum: 3, maximum: 5 },
        target: { $ref: '#/$defs/Cell' },
        maybe: { anyOf: [{ type: 'null' }, { type: 'boolean' }] },
        tags: { type: 'array', items: { type: 'string', minLength: 2 }, maxItems: 3 },
      },
      $defs: {
        Cell: {
          type: 'object',
          required: ['x'],
          properties: { x: { type: 'number', minimum: -1, maximum: 1 } },
        },
      },
    };
    const rng = createRng(1);
    for (let i = 0; i < 200; i++) {
      const value = sampleFromSchema(schema, { rng, root: schema, choices: undefined, words: [] });
      expect(validateJsonSchema(schema, value)).toEqual([]);
    }
  });

  it('finds the offered choices in info or observation data', () => {
    expect(choicesOf({ admissibleCommands: ['look'] }, { text: '' })).toEqual(['look']);
    expect(
      choicesOf({ openenv: { observation: { legal_actions: ['up', 'down'] } } }, { text: '' }),
    ).toEqual(['up', 'down']);
    expect(choicesOf({}, { text: '', data: { valid_moves: ['e2e4'] } })).toEqual(['e2e4']);
    expect(choicesOf({}, { text: 'nothing offered' })).toBeUndefined();
  });

  it('is listed for every bridge as scripted', () => {
    for (const bridge of ['toy24', 'household', 'grid']) {
      expect(listPolicies(bridge).find((d) => d.id === 'scripted:schema-random')).toMatchObject({
        kind: 'scripted',
      });
    }
  });
});

describe('on the bridges', () => {
  let fixture: OpenEnvFixture;
  let grid: Bridge;
  beforeAll(async () => {
    fixture = await startOpenEnvFixture();
    grid = await createOpenEnvBridge({ name: 'grid', url: fixture.url });
  });
  afterAll(() => fixture.close());

  it('plays household from the admissible commands: every step valid, seeded', async () => {
    const household = (await getBridge('household'))!;
    const [task] = await household.listTasks({ split: 'eval_seen' });
    const a = await play(household, policy, { taskId: task!.id, seed: 3, maxSteps: 15 });
    const b = await play(household, policy, { taskId: task!.id, seed: 3, maxSteps: 15 });
    expect(a.commands).toEqual(b.commands);
    expect(a.steps).toBe(15);
    expect(a.invalid).toBe(0);
  });

  it('plays toy24, spreadsheet, code-repair and remote from their tool schemas without breaking them', async () => {
    for (const name of ['toy24', 'spreadsheet', 'code-repair', 'remote']) {
      const bridge = (await getBridge(name))!;
      const [task] = await bridge.listTasks();
      const r = await play(bridge, policy, { taskId: task!.id, seed: 1, maxSteps: 6 });
      expect(r.steps, name).toBeGreaterThan(0);
    }
  });

  it('walks an OpenEnv server’s grid from its legal actions, and sometimes reaches the goal', async () => {
    let successes = 0;
    for (let seed = 0; seed < 6; seed++) {
      const r = await play(grid, policy, { taskId: 'default', seed, maxSteps: 30 });
      expect(r.invalid).toBe(0);
      if (r.success) successes += 1;
    }
    expect(successes).toBeGreaterThan(0);
    expect(fixture.events().ws_step).toBeGreaterThan(0);
  });
});
