// Declarative Contract rules (contracts/contract-rules.ts) compiled to plain closures: no sandbox,
// no JSON crossing, no user code. ContractLayer records their changes as it does a hook's.

import type { Action, Json } from '../../bridges/core/types.ts';
import type { ContractRule } from '../../contracts/contract-rules.ts';
import { actionLine } from '../../contracts/steps.ts';

/** What the rules make of a step's result, before the engine applies it. */
export interface RuleTransition {
  text: string;
  /** Read only: an episode that ended by itself is not also cut. */
  readonly terminated: boolean;
  truncated: boolean;
  hint: string | undefined;
}

export interface CompiledRules {
  readonly blocks: boolean;
  /** Transition rules (cap, feedback) are present. */
  readonly transitions: boolean;
  /** Observation rules (rewrite, truncate) are present. */
  readonly observations: boolean;
  /** The step count the earliest cap rule truncates at; a blocked step counts too. */
  readonly capAt: number | undefined;
  /**
   * The blocked reason for an action, or undefined. `stateAt` reads one path of the state view
   * (ActionableEnv.getEnvStateAt), and only when a pattern matches.
   */
  block(action: Action, stateAt: StateAt): string | undefined;
  /** Cap and feedback for step `step` (1-based) of the episode. */
  transition(step: number, action: Action, t: RuleTransition): RuleTransition;
  /** Rewrite and truncate, in list order. */
  observation(text: string): string;
}

type Match = RegExpExecArray | null;

/** The value at a key path of the state view, as `jsonAt` reads it. */
export type StateAt = (path: readonly string[]) => Json | undefined;

/** `$1`…`$9`, `$&` from the match and `{action}`. Unknown `$x` stay as written. */
function template(source: string): (m: Match, action: () => string) => string {
  if (!/\$[1-9&]|\{action\}/.test(source)) return () => source;
  const parts = source.split(/(\$[1-9&]|\{action\})/);
  return (m, action) => {
    let out = '';
    for (const [i, part] of parts.entries()) {
      if (i % 2 === 0) out += part;
      else if (part === '{action}') out += action();
      else out += (part === '$&' ? m?.[0] : m?.[Number(part.slice(1))]) ?? '';
    }
    return out;
  };
}

const SENTENCE = /[^.!?]+[.!?]+/g;

/**
 * The first `max` sentences, trimmed (the whole text, trimmed, when it has none). Consecutive
 * matches touch, so the kept sentences are one slice.
 */
function sentences(body: string, max: number): string {
  if (max === 0) return '';
  SENTENCE.lastIndex = 0;
  let end = 0;
  let first = -1;
  for (let n = 0; n < max; n++) {
    const m = SENTENCE.exec(body);
    if (!m) break;
    if (first < 0) first = m.index;
    end = SENTENCE.lastIndex;
  }
  SENTENCE.lastIndex = 0;
  if (first < 0) return body.trim();
  return body.slice(first, end).trim();
}

function truncator(rule: Extract<ContractRule, { kind: 'truncate' }>): (text: string) => string {
  const cut =
    rule.unit === 'sentences'
      ? (body: string) => sentences(body, rule.max)
      : (body: string) => body.slice(0, rule.max);
  const keep = rule.keep;
  if (keep === undefined) return cut;
  return (text) => {
    const at = text.indexOf(keep);
    return at < 0 ? cut(text) : cut(text.slice(0, at)) + text.slice(at);
  };
}

function applyTransitions(
  transitions: readonly ((step: number, line: () => string, t: RuleTransition) => RuleTransition)[],
  step: number,
  t: RuleTransition,
  line: () => string,
): RuleTransition {
  let out = t;
  for (const f of transitions) out = f(step, line, out);
  return out;
}

export function compileRules(rules: readonly ContractRule[]): CompiledRules {
  const blocks: ((action: Action, line: string, stateAt: StateAt) => string | undefined)[] = [];
  const transitions: ((step: number, line: () => string, t: RuleTransition) => RuleTransition)[] =
    [];
  const observations: ((text: string) => string)[] = [];
  for (const rule of rules) {
    switch (rule.kind) {
      case 'block': {
        const re = new RegExp(rule.pattern);
        const reason = template(rule.reason);
        const unless = rule.unless;
        const path = unless?.state.split('.') ?? [];
        const equals = unless && template(unless.equals);
        blocks.push((_action, line, stateAt) => {
          const m = re.exec(line);
          if (!m) return undefined;
          const lineOf = () => line;
          if (equals && stateAt(path) === equals(m, lineOf)) return undefined;
          return reason(m, lineOf);
        });
        break;
      }
      case 'rewrite': {
        const re = new RegExp(rule.pattern, 'g');
        observations.push((text) => text.replace(re, rule.replacement));
        break;
      }
      case 'truncate':
        observations.push(truncator(rule));
        break;
      case 'cap':
        transitions.push((step, _line, t) =>
          step >= rule.steps && !t.truncated && !t.terminated ? { ...t, truncated: true } : t,
        );
        break;
      case 'feedback': {
        const when = rule.when === undefined ? undefined : new RegExp(rule.when);
        const text = template(rule.text);
        transitions.push((_step, line, t) => {
          const m = when ? when.exec(t.text) : null;
          if (when && !m) return t;
          const said = text(m, line);
          switch (rule.to) {
            case 'append':
              return { ...t, text: t.text + said };
            case 'prepend':
              return { ...t, text: said + t.text };
            case 'hint':
              return { ...t, hint: said };
          }
        });
        break;
      }
    }
  }
  const caps = rules.flatMap((r) => (r.kind === 'cap' ? [r.steps] : []));
  return {
    capAt: caps.length > 0 ? Math.min(...caps) : undefined,
    blocks: blocks.length > 0,
    transitions: transitions.length > 0,
    observations: observations.length > 0,
    block(action, stateAt) {
      const line = actionLine(action);
      for (const b of blocks) {
        const reason = b(action, line, stateAt);
        if (reason !== undefined) return reason;
      }
      return undefined;
    },
    transition(step, action, t) {
      let line: string | undefined;
      // An argument, not a named const: tsx/esbuild's keepNames would rename it on every call.
      return applyTransitions(transitions, step, t, () => {
        line ??= actionLine(action);
        return line;
      });
    },
    observation(text) {
      let out = text;
      for (const f of observations) out = f(out);
      return out;
    },
  };
}
