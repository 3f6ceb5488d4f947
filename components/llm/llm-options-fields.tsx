'use client';
// The launch form's LLM settings, shown for an LLM policy: how it speaks to the endpoint (tool
// calls, ReAct text, or auto: tools then ReAct when the endpoint cannot), what a ReAct `think:`
// costs, whether reasoning goes back into the prompt, and the price for the cost estimate.
import type { Problem } from '../../contracts/issues.ts';
import { Field } from '../ui/field.tsx';
import { FieldProblems } from '../ui/field-problems.tsx';
import { Input, Label, Select } from '../ui/input.tsx';
import { problemsAt } from '../ui/problems.ts';
import type { LlmForm } from './launch-options.ts';

const MODE_HELP: Record<LlmForm['mode'], string> = {
  auto: 'Tool calls; ReAct text for the rest of the run if the endpoint refuses tools or the model answers in text.',
  tools:
    'Tool calls only (the endpoint needs tool calling, e.g. vLLM with --enable-auto-tool-choice).',
  react: 'ReAct text only: tools described in the prompt, one action line per reply.',
};

export function LlmOptionsFields({
  value,
  onChange,
  problems,
}: {
  value: LlmForm;
  onChange: (value: LlmForm) => void;
  problems: Problem[];
}) {
  const set = <K extends keyof LlmForm>(key: K, v: LlmForm[K]) => onChange({ ...value, [key]: v });
  const priceField = (
    key: 'pricePrompt' | 'priceCompletion' | 'priceCached',
    option: string,
    label: string,
  ) => {
    const at = problemsAt(problems, `policyOptions.${option}`);
    return (
      <Field label={label} htmlFor={`l-${key}`}>
        <Input
          id={`l-${key}`}
          data-testid={`launch-${key}`}
          inputMode="decimal"
          placeholder={key === 'priceCached' ? 'as prompt' : 'not set'}
          value={value[key]}
          aria-invalid={at.length > 0 || undefined}
          className={at.length > 0 ? 'border-danger' : undefined}
          onChange={(e) => set(key, e.target.value)}
        />
        <FieldProblems problems={at} testId={`launch-${key}-problem`} />
      </Field>
    );
  };
  return (
    <fieldset className="flex flex-col gap-3 rounded-lg border p-3" data-testid="launch-llm">
      <legend className="px-1 text-xs font-medium text-muted-foreground">LLM endpoint</legend>
      <div className="grid grid-cols-2 gap-2">
        <Field label="Mode" htmlFor="l-llm-mode">
          <Select
            id="l-llm-mode"
            data-testid="launch-llm-mode"
            value={value.mode}
            onChange={(e) => set('mode', e.target.value as LlmForm['mode'])}
          >
            <option value="auto">auto</option>
            <option value="tools">tools</option>
            <option value="react">react</option>
          </Select>
        </Field>
        <Field label="A ReAct think: costs" htmlFor="l-llm-think">
          <Select
            id="l-llm-think"
            data-testid="launch-llm-think"
            value={value.think}
            onChange={(e) => set('think', e.target.value as LlmForm['think'])}
          >
            <option value="step">one step (ReAct)</option>
            <option value="free">nothing</option>
          </Select>
        </Field>
      </div>
      <p className="text-xs text-muted-foreground" data-testid="launch-llm-mode-help">
        {MODE_HELP[value.mode]}
      </p>
      <div className="flex items-center gap-2">
        <input
          id="l-llm-keep"
          type="checkbox"
          data-testid="launch-llm-keep-reasoning"
          checked={value.keepReasoning}
          onChange={(e) => set('keepReasoning', e.target.checked)}
        />
        <Label htmlFor="l-llm-keep">Send the model's reasoning back in later prompts</Label>
      </div>
      <div className="grid grid-cols-3 gap-2">
        {priceField('pricePrompt', 'pricePromptPerM', 'Prompt $/1M')}
        {priceField('priceCompletion', 'priceCompletionPerM', 'Completion $/1M')}
        {priceField('priceCached', 'priceCachedPerM', 'Cached $/1M')}
      </div>
      <p className="text-xs text-muted-foreground">
        Prices give the run a cost estimate; unset, the server's OPENAI_PRICE_* defaults apply.
      </p>
    </fieldset>
  );
}
