// Declarative Contract rules: the common hook effects as data. They run natively (no sandbox, no
// user code), show as forms in the editor and round-trip through the spec exactly.
// server/harness/rules.ts compiles them to closures; this module holds their shape and checks.
//
// When they run, like the code hooks they stand for: `block` before the step (the action as
// actionLine() shows it), then after the step the transition rules (`cap`, `feedback`) in list
// order, then the observation rules (`rewrite`, `truncate`) in list order; the observation rules
// also run on the first observation after reset. A contract with code runs its rules first.
//
// Templates (`reason`, `text`): `$1`…`$9` and `$&` are the rule's pattern match, `{action}` the
// action's text.
//
// Patterns are JavaScript regular expressions, run on every step without a deadline, so they are
// kept simple instead: at most MAX_RULE_PATTERN_CHARS characters, and no quantified group that
// itself ends in a quantifier (`(a+)+`, `(x*)*`, `(?:ab+){2,}`): the nested repetition behind
// most catastrophic backtracking. It is a guard against the common mistake, not a proof:
// overlapping alternatives under a quantifier (`(a|a)*`) still pass.
import { z } from 'zod';

export const MAX_CONTRACT_RULES = 50;
export const MAX_RULE_PATTERN_CHARS = 300;
export const MAX_RULE_TEXT_CHARS = 2000;

export const RULE_KINDS = ['block', 'rewrite', 'truncate', 'cap', 'feedback'] as const;
export type RuleKind = (typeof RULE_KINDS)[number];
export const TRUNCATE_UNITS = ['chars', 'sentences'] as const;
export const FEEDBACK_TARGETS = ['append', 'prepend', 'hint'] as const;

const pattern = z.string().min(1).max(MAX_RULE_PATTERN_CHARS);
const text = z.string().max(MAX_RULE_TEXT_CHARS);

export const ContractRuleSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    /** Refuse an action whose text matches `pattern`; the agent sees `reason`. */
    kind: z.literal('block'),
    pattern,
    reason: text.min(1),
    /** Let it through when the state field at this dotted path equals the expanded template. */
    unless: z.strictObject({ state: z.string().min(1).max(200), equals: text }).optional(),
  }),
  z.strictObject({
    /** Every match of `pattern` in the observation text becomes `replacement` (`$1` etc.). */
    kind: z.literal('rewrite'),
    pattern,
    replacement: text,
  }),
  z.strictObject({
    /**
     * Keep the first `max` characters, or sentences (`[^.!?]+[.!?]+`, trimmed), of the text;
     * with `keep`, the text from the first occurrence of `keep` on is kept whole.
     */
    kind: z.literal('truncate'),
    max: z.number().int().min(0).max(1_000_000),
    unit: z.enum(TRUNCATE_UNITS).optional(),
    keep: z.string().min(1).max(MAX_RULE_TEXT_CHARS).optional(),
  }),
  z.strictObject({
    /** The episode is truncated after this many steps through the contract (unless it ended). */
    kind: z.literal('cap'),
    steps: z.number().int().min(1).max(1_000_000),
  }),
  z.strictObject({
    /** Adds `text` to the step's observation (or as `info.hint`), only when `when` matches it. */
    kind: z.literal('feedback'),
    text: text.min(1),
    to: z.enum(FEEDBACK_TARGETS),
    when: pattern.optional(),
  }),
]);
export type ContractRule = z.infer<typeof ContractRuleSchema>;

export const ContractRulesSchema = z.array(ContractRuleSchema).max(MAX_CONTRACT_RULES);

/** Nested repetition: a group closed by a quantifier whose body also ends in one. */
const NESTED_QUANTIFIER = /[+*}?]\)(?:[+*]|\{\d+,\d*\})/;

/** Why a rule pattern is refused, or undefined when it compiles and is simple enough. */
export function patternProblem(source: string): string | undefined {
  try {
    new RegExp(source);
  } catch (e) {
    const why = (e instanceof Error ? e.message : String(e)).replace(
      /^Invalid regular expression: /,
      '',
    );
    return `invalid regular expression ${why}`;
  }
  if (NESTED_QUANTIFIER.test(source)) {
    return 'nested repetition like (a+)+ can take exponential time; rewrite it without a quantified group that ends in a quantifier';
  }
  return undefined;
}

/** The first rule problem as `path.field: message`, or undefined. `path` is e.g. `env.rules`. */
export function rulesProblem(rules: readonly ContractRule[], path: string): string | undefined {
  for (const [i, rule] of rules.entries()) {
    const field: [string, string] | undefined =
      rule.kind === 'block' || rule.kind === 'rewrite'
        ? ['pattern', rule.pattern]
        : rule.kind === 'feedback' && rule.when !== undefined
          ? ['when', rule.when]
          : undefined;
    if (!field) continue;
    const problem = patternProblem(field[1]);
    if (problem) return `${path}[${i}].${field[0]}: ${problem}`;
  }
  return undefined;
}
