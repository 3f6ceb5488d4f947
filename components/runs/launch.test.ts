import { describe, expect, it } from 'vitest';
import {
  chosenPolicy,
  RUN_FIELD_RANGE,
  type RunForm,
  rangeHint,
  runLaunchInput,
  runLaunchProblems,
  seedRange,
  seedsText,
  usablePolicies,
} from './launch.ts';

const form: RunForm = {
  policy: 'scripted:toy24-greedy',
  k: 8,
  seed: 3,
  maxSteps: 50,
  skillBankId: '',
};

describe('launch forms', () => {
  it('never offers the human policy and falls back to the first usable one', () => {
    const usable = usablePolicies([
      { id: 'human', kind: 'human' },
      { id: 'scripted:a', kind: 'scripted' },
      { id: 'openai', kind: 'llm' },
    ]);
    expect(usable.map((p) => p.id)).toEqual(['scripted:a', 'openai']);
    expect(chosenPolicy('', usable)).toBe('scripted:a');
    expect(chosenPolicy('openai', usable)).toBe('openai');
    expect(chosenPolicy('', usablePolicies<{ id: string; kind: string }>(undefined))).toBe('');
  });

  it('runs a bare task when no spec is given, with only the options that were set', () => {
    const input = runLaunchInput({
      bridge: 'toy24',
      task: '1-2-3-4',
      spec: undefined,
      harnessVersionId: undefined,
      kind: 'baseline',
      form,
      rewardParams: undefined,
    });
    expect(input).toEqual({
      spec: { version: 1, env: { type: 'base', bridge: 'toy24', task: '1-2-3-4' } },
      policy: 'scripted:toy24-greedy',
      k: 8,
      seed: 3,
      maxSteps: 50,
      kind: 'baseline',
    });
  });

  it('carries the harness version, changed reward parameters and skill bank of a validation', () => {
    const spec = { version: 1 as const, env: { type: 'base' as const, bridge: 'b', task: 't' } };
    const input = runLaunchInput({
      bridge: 'toy24',
      task: 'ignored',
      spec,
      harnessVersionId: 'hv1',
      kind: 'validation',
      form: { ...form, skillBankId: 'bank1' },
      rewardParams: { tMax: 30 },
    });
    expect(input.spec).toBe(spec);
    expect(input).toMatchObject({
      kind: 'validation',
      harnessVersionId: 'hv1',
      rewardParams: { tMax: 30 },
      policyOptions: { skillBankId: 'bank1' },
    });
  });

  it('sends a group size and a cut-off only when set, and says what the groups play', () => {
    const base = {
      bridge: 'toy24',
      task: '1-2-3-4',
      spec: undefined,
      harnessVersionId: undefined,
      kind: 'baseline' as const,
      rewardParams: undefined,
    };
    const plain = runLaunchInput({
      ...base,
      form: { ...form, groupSize: 1, invalidLoopLimit: null },
    });
    expect(plain).not.toHaveProperty('groupSize');
    expect(plain).not.toHaveProperty('invalidLoopLimit');
    const grouped = runLaunchInput({
      ...base,
      form: { ...form, groupSize: 4, invalidLoopLimit: 10 },
    });
    expect(grouped).toMatchObject({ groupSize: 4, invalidLoopLimit: 10 });
    expect(runLaunchProblems(grouped)).toEqual([]);
    expect(runLaunchProblems(runLaunchInput({ ...base, form: { ...form, groupSize: 3 } }))).toEqual(
      [
        {
          path: 'groupSize',
          message:
            'the episodes (K = 8) must be a multiple of the group size (3): every start seed is played 3 times',
        },
      ],
    );
    expect(seedsText(3, 8)).toBe('Seeds 3 … 10, one episode each.');
    expect(seedsText(3, 8, 4)).toBe(
      '2 groups of 4: start seeds 3 … 4, each played 4 times with policy seeds 3 … 10.',
    );
  });

  it('sends episodes at once only when filled in, checked against the schema', () => {
    const args = {
      bridge: 'household',
      task: 'eval_seen-001',
      spec: undefined,
      harnessVersionId: undefined,
      kind: 'baseline' as const,
      rewardParams: undefined,
    };
    expect(runLaunchInput({ ...args, form: { ...form, concurrency: 256 } }).concurrency).toBe(256);
    expect(
      runLaunchInput({ ...args, form: { ...form, concurrency: Number.NaN } }),
    ).not.toHaveProperty('concurrency');
    expect(runLaunchInput({ ...args, form })).not.toHaveProperty('concurrency');
    const tooMany = runLaunchInput({ ...args, form: { ...form, concurrency: 5000 } });
    expect(runLaunchProblems(tooMany).map((p) => p.path)).toEqual(['concurrency']);
    expect(RUN_FIELD_RANGE.concurrency).toEqual({ min: 1, max: 4096 });
  });

  it('plays at least one seed', () => {
    expect(seedRange(3, 8)).toEqual([3, 10]);
    expect(seedRange(5, 0)).toEqual([5, 5]);
  });

  it('checks the input with the server schema: what the form accepted silently is a problem', () => {
    const input = (f: Partial<RunForm>) =>
      runLaunchInput({
        bridge: 'toy24',
        task: '1-2-3-4',
        spec: undefined,
        harnessVersionId: undefined,
        kind: 'baseline',
        form: { ...form, ...f },
        rewardParams: undefined,
      });
    expect(runLaunchProblems(input({}))).toEqual([]);
    expect(runLaunchProblems(input({ maxSteps: 100_001 }))).toEqual([
      { path: 'maxSteps', message: 'must be at most 100,000' },
    ]);
    expect(runLaunchProblems(input({ k: 1_000_000 }))).toEqual([
      { path: 'k', message: 'must be at most 100,000' },
    ]);
    expect(runLaunchProblems(input({ k: Number.NaN }))[0]?.path).toBe('k');
    expect(runLaunchProblems(input({ seed: -5 }))).toEqual([]);
    expect(seedRange(-5, 8)).toEqual([-5, 2]);
  });

  it("says each field's range as the schema has it, so the help and the check agree", () => {
    expect(rangeHint(RUN_FIELD_RANGE.k)).toBe('1 … 100,000');
    expect(rangeHint(RUN_FIELD_RANGE.maxSteps)).toBe('1 … 100,000');
    expect(rangeHint(RUN_FIELD_RANGE.seed)).toBe('-2,147,483,648 … 2,147,483,647');
    expect(rangeHint({ min: undefined, max: undefined })).toBe('any whole number');
  });
});
