import { describe, expect, it } from 'vitest';
import { LAYER_CHANGE_KINDS } from '../../contracts/steps.ts';
import { LAYER_CHANGE_TEXT } from './format.ts';

describe('layer changes in words', () => {
  it('says what a layer did in plain English for every kind ("blocked the action", not "changed the blocked")', () => {
    expect(LAYER_CHANGE_TEXT.blocked).toBe('blocked the action');
    for (const kind of LAYER_CHANGE_KINDS) {
      expect(LAYER_CHANGE_TEXT[kind], kind).toMatch(/^[a-z]+ /);
      expect(LAYER_CHANGE_TEXT[kind], kind).not.toMatch(/the (blocked|switch|banner)\b/);
    }
  });
});
