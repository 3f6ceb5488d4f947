import { describe, expect, it } from 'vitest';
import { runLaunchInput, runLaunchProblems } from '../runs/launch.ts';
import { DEFAULT_LLM_FORM, llmOptionProblems, llmPolicyOptions } from './launch-options.ts';

const base = {
  bridge: 'household',
  task: 'eval_seen-001',
  spec: undefined,
  harnessVersionId: undefined,
  kind: 'baseline' as const,
  rewardParams: undefined,
};
const form = { policy: 'openai:m', k: 2, seed: 0, maxSteps: 10, skillBankId: '' };

describe('the launch form for an LLM policy', () => {
  it('sends the mode always, the other settings only when changed', () => {
    expect(llmPolicyOptions(DEFAULT_LLM_FORM)).toEqual({ mode: 'auto' });
    expect(
      llmPolicyOptions({
        ...DEFAULT_LLM_FORM,
        mode: 'react',
        think: 'free',
        keepReasoning: true,
        pricePrompt: '0.4',
        priceCompletion: ' 1.6 ',
      }),
    ).toEqual({
      mode: 'react',
      think: 'free',
      keepReasoning: true,
      pricePromptPerM: 0.4,
      priceCompletionPerM: 1.6,
    });
  });

  it('puts LLM options beside the skill bank for LLM policies only', () => {
    const llm = { ...DEFAULT_LLM_FORM, mode: 'tools' as const };
    expect(
      runLaunchInput({ ...base, form: { ...form, skillBankId: 'b1', llm } }).policyOptions,
    ).toEqual({ skillBankId: 'b1', mode: 'tools' });
    expect(
      runLaunchInput({ ...base, form: { ...form, policy: 'bpe(openai:m)', llm } }).policyOptions,
    ).toEqual({ mode: 'tools' });
    expect(
      runLaunchInput({ ...base, form: { ...form, policy: 'scripted:household-explorer', llm } })
        .policyOptions,
    ).toBeUndefined();
  });

  it('names the price field a problem is about, in one sentence', () => {
    const input = runLaunchInput({
      ...base,
      form: { ...form, llm: { ...DEFAULT_LLM_FORM, pricePrompt: 'cheap', priceCompletion: '1' } },
    });
    expect(runLaunchProblems(input)).toEqual([
      { path: 'policyOptions.pricePromptPerM', message: expect.stringMatching(/number/) },
    ]);
    expect(
      llmOptionProblems({ mode: 'auto', pricePromptPerM: 1 }).map((p) => [p.path, p.message]),
    ).toEqual([
      ['policyOptions.priceCompletionPerM', 'set the prompt and the completion price together'],
    ]);
    expect(
      llmOptionProblems({ mode: 'auto', pricePromptPerM: -1, priceCompletionPerM: 1 }),
    ).toEqual([{ path: 'policyOptions.pricePromptPerM', message: 'must be at least 0' }]);
  });
});
