import { describe, expect, it } from 'vitest';
import { toolParams } from './model.ts';

describe('tool parameters', () => {
  it('reads each property as its enum, type or any, with its description', () => {
    expect(
      toolParams({
        properties: {
          command: { type: 'string', description: 'what to type' },
          direction: { enum: ['up', 'down', 3] },
          anything: {},
        },
      }),
    ).toEqual([
      { name: 'command', type: 'string', description: 'what to type' },
      { name: 'direction', type: 'up | down | 3' },
      { name: 'anything', type: 'any' },
    ]);
  });

  it('reads a tool without properties as taking none', () => {
    expect(toolParams({})).toEqual([]);
  });
});
