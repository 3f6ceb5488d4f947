'use client';
// A Contract's declarative rules as a form (contracts/contract-rules.ts): one card per rule, a kind
// select and that kind's fields. Edits go straight into the node's data, so the spec holds exactly
// what the form shows.
import { Plus, Trash2 } from 'lucide-react';
import {
  type ContractRule,
  FEEDBACK_TARGETS,
  MAX_CONTRACT_RULES,
  RULE_KINDS,
  type RuleKind,
  TRUNCATE_UNITS,
} from '../../contracts/contract-rules.ts';
import { Button } from '../ui/button.tsx';
import { Input, Label, Select } from '../ui/input.tsx';

const KIND_LABEL: Record<RuleKind, string> = {
  block: 'Block actions',
  rewrite: 'Rewrite observation',
  truncate: 'Truncate observation',
  cap: 'Cap steps',
  feedback: 'Inject feedback',
};

const KIND_HELP: Record<RuleKind, string> = {
  block: 'Refuses an action whose text matches; the agent sees the reason ($1… from the match).',
  rewrite: 'Replaces every match in the observation ($1… in the replacement).',
  truncate: 'Keeps the first characters or sentences; text from “keep from” on stays whole.',
  cap: 'Truncates the episode after this many steps.',
  feedback: 'Adds text to the observation, or as info.hint; {action} is the action, $1… the match.',
};

/** A fresh rule of a kind; a pattern typed already is kept when the kind changes. */
function fresh(kind: RuleKind, from?: ContractRule): ContractRule {
  const pattern =
    from && (from.kind === 'block' || from.kind === 'rewrite')
      ? from.pattern
      : from?.kind === 'feedback'
        ? (from.when ?? '')
        : '';
  switch (kind) {
    case 'block':
      return { kind, pattern, reason: 'Not allowed here.' };
    case 'rewrite':
      return { kind, pattern, replacement: '' };
    case 'truncate':
      return { kind, max: 400 };
    case 'cap':
      return { kind, steps: 30 };
    case 'feedback':
      return pattern
        ? { kind, text: '', to: 'append', when: pattern }
        : { kind, text: '', to: 'append' };
  }
}

function count(value: string): number {
  const n = Number.parseInt(value, 10);
  return Number.isFinite(n) && n >= 0 ? n : 0;
}

function Field({ label, id, children }: { label: string; id: string; children: React.ReactNode }) {
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <Label htmlFor={id}>{label}</Label>
      {children}
    </div>
  );
}

function RuleFields({
  rule,
  id,
  onChange,
}: {
  rule: ContractRule;
  id: string;
  onChange: (rule: ContractRule, field: string) => void;
}) {
  const text = (field: string, label: string, value: string, set: (v: string) => ContractRule) => (
    <Field label={label} id={`${id}-${field}`}>
      <Input
        id={`${id}-${field}`}
        data-testid={`rule-${field}`}
        className="font-mono text-xs"
        value={value}
        spellCheck={false}
        onChange={(e) => onChange(set(e.target.value), field)}
      />
    </Field>
  );
  switch (rule.kind) {
    case 'block':
      return (
        <>
          {text('pattern', 'Action pattern (regex)', rule.pattern, (pattern) => ({
            ...rule,
            pattern,
          }))}
          {text('reason', 'Reason shown to the agent', rule.reason, (reason) => ({
            ...rule,
            reason,
          }))}
          <div className="grid grid-cols-2 gap-2">
            {text('unless-state', 'Unless state field', rule.unless?.state ?? '', (state) =>
              withUnless(rule, state, rule.unless?.equals ?? ''),
            )}
            {text('unless-equals', 'equals', rule.unless?.equals ?? '', (equals) =>
              withUnless(rule, rule.unless?.state ?? '', equals),
            )}
          </div>
        </>
      );
    case 'rewrite':
      return (
        <>
          {text('pattern', 'Pattern (regex)', rule.pattern, (pattern) => ({ ...rule, pattern }))}
          {text('replacement', 'Replacement', rule.replacement, (replacement) => ({
            ...rule,
            replacement,
          }))}
        </>
      );
    case 'truncate':
      return (
        <>
          <div className="grid grid-cols-2 gap-2">
            <Field label="Keep at most" id={`${id}-max`}>
              <Input
                id={`${id}-max`}
                data-testid="rule-max"
                type="number"
                min={0}
                value={rule.max}
                onChange={(e) => onChange({ ...rule, max: count(e.target.value) }, 'max')}
              />
            </Field>
            <Field label="Unit" id={`${id}-unit`}>
              <Select
                id={`${id}-unit`}
                data-testid="rule-unit"
                value={rule.unit ?? 'chars'}
                onChange={(e) => {
                  const { unit: _, ...rest } = rule;
                  const unit = e.target.value as (typeof TRUNCATE_UNITS)[number];
                  onChange(unit === 'chars' ? rest : { ...rest, unit }, 'unit');
                }}
              >
                {TRUNCATE_UNITS.map((u) => (
                  <option key={u} value={u}>
                    {u === 'chars' ? 'characters' : 'sentences'}
                  </option>
                ))}
              </Select>
            </Field>
          </div>
          {text('keep', 'Keep from (optional)', rule.keep ?? '', (keep) => {
            const { keep: _, ...rest } = rule;
            return keep ? { ...rest, keep } : rest;
          })}
        </>
      );
    case 'cap':
      return (
        <Field label="Truncate after steps" id={`${id}-steps`}>
          <Input
            id={`${id}-steps`}
            data-testid="rule-steps"
            type="number"
            min={1}
            value={rule.steps}
            onChange={(e) => onChange({ ...rule, steps: count(e.target.value) }, 'steps')}
          />
        </Field>
      );
    case 'feedback':
      return (
        <>
          {text('text', 'Text', rule.text, (t) => ({ ...rule, text: t }))}
          <div className="grid grid-cols-2 gap-2">
            <Field label="Where" id={`${id}-to`}>
              <Select
                id={`${id}-to`}
                data-testid="rule-to"
                value={rule.to}
                onChange={(e) =>
                  onChange(
                    { ...rule, to: e.target.value as (typeof FEEDBACK_TARGETS)[number] },
                    'to',
                  )
                }
              >
                {FEEDBACK_TARGETS.map((t) => (
                  <option key={t} value={t}>
                    {t === 'hint' ? 'info.hint' : t}
                  </option>
                ))}
              </Select>
            </Field>
            {text('when', 'Only when (regex)', rule.when ?? '', (when) => {
              const { when: _, ...rest } = rule;
              return when ? { ...rest, when } : rest;
            })}
          </div>
        </>
      );
  }
}

function withUnless(
  rule: Extract<ContractRule, { kind: 'block' }>,
  state: string,
  equals: string,
): ContractRule {
  const { unless: _, ...rest } = rule;
  return state || equals ? { ...rest, unless: { state, equals } } : rest;
}

export function RulesForm({
  nodeId,
  rules,
  onChange,
}: {
  nodeId: string;
  rules: ContractRule[];
  /** The new list; `key` coalesces typing into one undo step. */
  onChange: (rules: ContractRule[], key?: string) => void;
}) {
  const set = (i: number, rule: ContractRule, field: string) =>
    onChange(
      rules.map((r, j) => (j === i ? rule : r)),
      `${nodeId}.rules.${i}.${field}`,
    );
  return (
    <div className="flex flex-col gap-2" data-testid="contract-rules">
      <div className="flex items-center justify-between gap-2">
        <p className="text-xs text-muted-foreground">
          Rules run natively, before any hook code, in the order below.
        </p>
        <Button
          size="sm"
          variant="outline"
          data-testid="rule-add"
          disabled={rules.length >= MAX_CONTRACT_RULES}
          onClick={() => onChange([...rules, fresh('block')])}
        >
          <Plus className="size-4" /> Add rule
        </Button>
      </div>
      {rules.length === 0 ? (
        <p className="text-xs text-muted-foreground" data-testid="rules-empty">
          No rules yet: block actions, rewrite or truncate observations, cap steps or add feedback
          without code.
        </p>
      ) : null}
      <ol className="flex flex-col gap-2">
        {rules.map((rule, i) => {
          const id = `${nodeId}-rule-${i}`;
          return (
            <li
              // Rules have no identity of their own; the position is what the spec keeps.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              key={i}
              className="flex flex-col gap-2 rounded-md border bg-muted/30 p-2"
              data-testid="contract-rule"
              data-kind={rule.kind}
            >
              <div className="flex items-center gap-2">
                <Select
                  aria-label={`Rule ${i + 1} kind`}
                  data-testid="rule-kind"
                  className="flex-1"
                  value={rule.kind}
                  onChange={(e) => set(i, fresh(e.target.value as RuleKind, rule), 'kind')}
                >
                  {RULE_KINDS.map((k) => (
                    <option key={k} value={k}>
                      {KIND_LABEL[k]}
                    </option>
                  ))}
                </Select>
                <Button
                  size="sm"
                  variant="ghost"
                  aria-label={`Remove rule ${i + 1}`}
                  data-testid="rule-remove"
                  onClick={() => onChange(rules.filter((_, j) => j !== i))}
                >
                  <Trash2 className="size-4" />
                </Button>
              </div>
              <p className="text-xs text-muted-foreground">{KIND_HELP[rule.kind]}</p>
              <RuleFields rule={rule} id={id} onChange={(r, field) => set(i, r, field)} />
            </li>
          );
        })}
      </ol>
    </div>
  );
}
