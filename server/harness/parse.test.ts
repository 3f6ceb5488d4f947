// Spec parsing: one-line errors naming the JSON path, the chain rules, the shorthand, and the
// committed JSON Schema staying in step with HarnessSpecSchema.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateJsonSchema } from '../../bridges/core/schema.ts';
import type { Json, JsonSchema } from '../../bridges/core/types.ts';
import { InvalidSpecError } from '../errors.ts';
import { nodePaths, parseSpec, specFromShorthand } from './index.ts';
import { renderSpecSchema, SPEC_SCHEMA_PATH } from './schema-file.ts';

const base = { type: 'base', bridge: 'household', task: 'train-0001' };

function specError(input: unknown): string {
  try {
    parseSpec(input);
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidSpecError);
    const message = (e as Error).message;
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error('expected an InvalidSpecError');
}

describe('parseSpec', () => {
  it('accepts a nested spec unchanged', () => {
    const spec = {
      version: 1,
      env: {
        type: 'chain',
        mode: 'branch',
        first: { type: 'stage', actions: [{ name: 'act', args: { command: 'look' } }], env: base },
        second: { type: 'contract', code: 'function filterAction(a) { return a; }', env: base },
        remedial: base,
        carryContext: true,
      },
    };
    expect(parseSpec(spec)).toEqual(spec);
  });

  it.each([
    [undefined, /^invalid harness spec: \(spec\): /],
    [{ env: base }, /version: /],
    [{ version: 2, env: base }, /version: /],
    [
      { version: 1, env: { type: 'wrapper', env: base } },
      /env\.type: must be one of "base", "stage", "contract", "chain"/,
    ],
    [{ version: 1, env: { ...base, extra: 1 } }, /env: unknown field "extra"/],
    [
      { version: 1, env: { type: 'stage', actions: [{ name: '', args: {} }], env: base } },
      /env\.actions\[0\]\.name: /,
    ],
    [
      { version: 1, env: { type: 'contract', code: 'x'.repeat(70_000), env: base } },
      /env\.code: hook code is limited to 65536 characters/,
    ],
    [
      { version: 1, env: { type: 'chain', mode: 'branch', first: base, second: base } },
      /env\.remedial: a branch chain needs a remedial leg/,
    ],
    [
      {
        version: 1,
        env: { type: 'chain', mode: 'sequential', first: base, second: base, remedial: base },
      },
      /env\.remedial: only a branch chain/,
    ],
    [
      { version: 1, env: { type: 'chain', mode: 'switch', first: base, second: base } },
      /env\.when: a switch chain needs a condition/,
    ],
    [
      {
        version: 1,
        env: { type: 'chain', mode: 'alternate', first: base, second: base, when: 'true' },
      },
      /env\.when: only a switch chain/,
    ],
    [
      {
        version: 1,
        env: { type: 'chain', mode: 'sequential', first: base, second: base, verdict: 'all-legs' },
      },
      /env\.verdict: only a branch chain has a verdict rule/,
    ],
    [
      { version: 1, env: { type: 'stage', actions: [], intro: 'later', env: base } },
      /env\.intro: /,
    ],
    [
      {
        version: 1,
        env: {
          type: 'chain',
          mode: 'sequential',
          first: { type: 'chain', mode: 'branch', first: base, second: base },
          second: base,
        },
      },
      /env\.first\.remedial: /,
    ],
  ])('rejects %j with a one-line message naming the path', (input, pattern) => {
    expect(specError(input)).toMatch(pattern);
  });

  it('limits nesting depth', () => {
    let env: object = base;
    for (let i = 0; i < 20; i++) env = { type: 'stage', actions: [], env };
    expect(specError({ version: 1, env })).toMatch(/nested deeper than 16 levels/);
  });
});

describe('specFromShorthand', () => {
  it('turns bridge:task into a bare spec (task ids may contain colons)', () => {
    expect(specFromShorthand('toy24:1-1-1-8')).toEqual({
      version: 1,
      env: { type: 'base', bridge: 'toy24', task: '1-1-1-8' },
    });
    expect(specFromShorthand('remote:env:1').env).toEqual({
      type: 'base',
      bridge: 'remote',
      task: 'env:1',
    });
  });

  it.each(['toy24', ':x', 'toy24:', ''])('rejects %j', (s) => {
    expect(() => specFromShorthand(s)).toThrow(InvalidSpecError);
  });
});

describe('nodePaths', () => {
  it('names layers by their path in the spec', () => {
    const spec = parseSpec({
      version: 1,
      env: {
        type: 'chain',
        mode: 'branch',
        first: { type: 'stage', actions: [], env: base },
        second: base,
        remedial: base,
      },
    });
    expect(nodePaths(spec.env).map((p) => p.path)).toEqual([
      'env',
      'env.first',
      'env.first.env',
      'env.second',
      'env.remedial',
    ]);
  });
});

describe('schemas/harness-spec.schema.json', () => {
  it('is up to date (regenerate: npx tsx server/harness/schema-file.ts)', () => {
    expect(readFileSync(SPEC_SCHEMA_PATH, 'utf8')).toBe(renderSpecSchema());
  });

  it('accepts valid specs and rejects broken ones', () => {
    const schema = JSON.parse(readFileSync(SPEC_SCHEMA_PATH, 'utf8')) as JsonSchema;
    const good = {
      version: 1,
      env: {
        type: 'contract',
        code: '',
        env: {
          type: 'stage',
          actions: [{ name: 'act', args: { command: 'look', n: [1, null] } }],
          env: base,
        },
      },
    };
    expect(validateJsonSchema(schema, good as Json)).toEqual([]);
    expect(
      validateJsonSchema(schema, { version: 1, env: { type: 'base', bridge: 'x' } } as Json),
    ).not.toEqual([]);
    expect(
      validateJsonSchema(schema, { version: 1, env: { ...base, extra: true } } as Json),
    ).not.toEqual([]);
  });
});
