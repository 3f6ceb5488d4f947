import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { canonicalJson, validateJsonSchema, zodToJsonSchema } from './schema.ts';

const Node: z.ZodType<{ name: string; children: unknown[] }> = z.lazy(() =>
  z.object({ name: z.string(), children: z.array(Node) }),
);

describe('zodToJsonSchema', () => {
  it('produces plain JSON without the dialect marker', () => {
    const schema = zodToJsonSchema(
      z.strictObject({
        a: z.number().int().min(0),
        op: z.enum(['+', '-']),
        note: z.string().optional(),
      }),
    );
    expect(schema).toEqual({
      type: 'object',
      properties: {
        a: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
        op: { type: 'string', enum: ['+', '-'] },
        note: { type: 'string' },
      },
      required: ['a', 'op'],
      additionalProperties: false,
    });
    expect(zodToJsonSchema(z.string(), { keepDialect: true }).$schema).toMatch(/2020-12/);
  });
});

describe('validateJsonSchema', () => {
  const schema = zodToJsonSchema(
    z.strictObject({
      n: z.number().int().min(1).max(3),
      s: z.string().regex(/^-?\d+$/),
      tag: z.union([z.literal('x'), z.null()]),
      list: z.array(z.boolean()).max(2),
    }),
  );

  it('accepts valid values and reports each violation with its path', () => {
    expect(validateJsonSchema(schema, { n: 2, s: '-4', tag: null, list: [true] })).toEqual([]);
    const errors = validateJsonSchema(schema, {
      n: 4,
      s: '4a',
      tag: 'y',
      list: [1, true, false],
      more: 1,
    });
    expect(errors).toEqual([
      '$.n: above maximum 3',
      '$.s: does not match /^-?\\d+$/',
      '$.tag: matches none of anyOf',
      '$.list: more than 2 items',
      '$.list[0]: expected boolean, got integer',
      "$: unexpected property 'more'",
    ]);
    expect(validateJsonSchema(schema, { n: 1.5 })).toContain('$.n: expected integer, got number');
    expect(validateJsonSchema(schema, {})).toContain("$: missing required property 'n'");
  });

  it('follows local $refs of recursive schemas', () => {
    const tree = zodToJsonSchema(Node);
    expect(
      validateJsonSchema(tree, { name: 'a', children: [{ name: 'b', children: [] }] }),
    ).toEqual([]);
    expect(
      validateJsonSchema(tree, { name: 'a', children: [{ name: 3, children: [] }] }).length,
    ).toBeGreaterThan(0);
  });

  it('compares JSON independent of key order', () => {
    expect(canonicalJson({ b: 1, a: [{ y: 2, x: 1 }] })).toBe(
      canonicalJson({ a: [{ x: 1, y: 2 }], b: 1 }),
    );
  });
});
