import { describe, expect, it } from 'vitest';
import type { ChainNode } from '../../contracts/spec.ts';
import { verdictRuleText } from './leg-verdicts.tsx';

const leaf = { type: 'base' as const, bridge: 'household', task: 't' };
const chain = (o: Partial<ChainNode>): ChainNode => ({
  type: 'chain',
  mode: 'branch',
  first: leaf,
  second: leaf,
  remedial: leaf,
  ...o,
});

describe('per-leg verdicts name a branch chain’s verdict rule', () => {
  it('all-legs by default, remedial-decides when chosen, nothing for other modes', () => {
    expect(verdictRuleText(chain({}))).toMatch(/^rule: all legs/);
    expect(verdictRuleText(chain({ verdict: 'remedial-decides' }))).toMatch(
      /^rule: remedial decides/,
    );
    expect(verdictRuleText(chain({ mode: 'sequential', remedial: undefined }))).toBeUndefined();
    expect(verdictRuleText(undefined)).toBeUndefined();
  });
});
