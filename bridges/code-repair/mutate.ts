// Mutation operators that inject realistic bugs into a package's source at task-generation time
// (the SWE-Smith / mutation-testing recipe). Each mutation replaces whole lines, so a task stores
// the exact before/after text and the episode re-applies it with a check.

export const OPERATORS = [
  'flip-comparison',
  'wrong-operator',
  'off-by-one',
  'flip-logic',
  'missing-guard',
  'swapped-arguments',
  'wrong-function',
] as const;
export type Operator = (typeof OPERATORS)[number];

export interface Mutation {
  operator: Operator;
  file: string;
  /** 1-based first line replaced. */
  line: number;
  before: string[];
  after: string[];
  /** What changed, for the task's metadata (never shown to the agent). */
  change: string;
  /** The enclosing function or method, for the problem statement. */
  symbol: string;
}

/** Marks characters inside strings, template literals and comments, which mutations never touch. */
function codeMask(line: string): boolean[] {
  const mask: boolean[] = new Array(line.length).fill(true);
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote) {
      mask[i] = false;
      if (ch === '\\') {
        mask[i + 1] = false;
        i += 1;
      } else if (ch === quote) quote = null;
      continue;
    }
    if (ch === '/' && line[i + 1] === '/') {
      for (let j = i; j < line.length; j++) mask[j] = false;
      break;
    }
    if (ch === "'" || ch === '"' || ch === '`') {
      quote = ch;
      mask[i] = false;
    }
  }
  return mask;
}

function hasRegexLiteral(line: string): boolean {
  return /(^|[=(,:!&|?{};]|return)\s*\/[^/*]/.test(line);
}

interface Site {
  at: number;
  from: string;
  to: string;
  operator: Operator;
}

const COMPARISON_FLIPS: Record<string, string> = {
  '<=': '<',
  '>=': '>',
  '<': '<=',
  '>': '>=',
  '===': '!==',
  '!==': '===',
};
const ARITHMETIC_FLIPS: Record<string, string> = { '+': '-', '-': '+', '*': '/', '/': '*' };
const FUNCTION_FLIPS: Record<string, string> = {
  'Math.max': 'Math.min',
  'Math.min': 'Math.max',
  'Math.floor': 'Math.ceil',
  'Math.ceil': 'Math.floor',
  startsWith: 'endsWith',
  endsWith: 'startsWith',
  padStart: 'padEnd',
  padEnd: 'padStart',
};

function sitesOf(line: string): Site[] {
  if (hasRegexLiteral(line) || /^\s*(import|export \{|\/\/|\*)/.test(line)) return [];
  const mask = codeMask(line);
  const code = (from: number, to: number) => mask.slice(from, to).every(Boolean);
  const sites: Site[] = [];
  const tokens = /===|!==|=>|<=|>=|&&|\|\||\+\+|--|\+=|-=|\*=|\/=|[<>+\-*/]/g;
  for (const m of line.matchAll(tokens)) {
    const at = m.index;
    const tok = m[0];
    if (!code(at, at + tok.length)) continue;
    const prev = line.slice(0, at).trimEnd();
    const prevChar = prev[prev.length - 1] ?? '';
    const binary = /[\w)\]]/.test(prevChar) && !/\b(return|typeof|case)$/.test(prev);
    if (tok in COMPARISON_FLIPS) {
      sites.push({ at, from: tok, to: COMPARISON_FLIPS[tok]!, operator: 'flip-comparison' });
    } else if (tok === '&&' || tok === '||') {
      sites.push({ at, from: tok, to: tok === '&&' ? '||' : '&&', operator: 'flip-logic' });
    } else if (tok in ARITHMETIC_FLIPS && binary && line[at + 1] !== '=') {
      sites.push({ at, from: tok, to: ARITHMETIC_FLIPS[tok]!, operator: 'wrong-operator' });
    }
  }
  for (const m of line.matchAll(/(?<![\w.])([0-3])(?![\w.])/g)) {
    if (!code(m.index, m.index + 1)) continue;
    const n = Number(m[1]);
    for (const to of [n + 1, n - 1]) {
      if (to < 0) continue;
      sites.push({ at: m.index, from: m[1]!, to: String(to), operator: 'off-by-one' });
    }
  }
  for (const [from, to] of Object.entries(FUNCTION_FLIPS)) {
    for (const m of line.matchAll(new RegExp(`(?<![\\w])${from.replace('.', '\\.')}\\(`, 'g'))) {
      if (code(m.index, m.index + from.length))
        sites.push({ at: m.index, from, to, operator: 'wrong-function' });
    }
  }
  // Two simple arguments: identifiers, member accesses or literals (no nested calls or commas).
  const simple = String.raw`[\w.$\[\]'"]+`;
  for (const m of line.matchAll(new RegExp(String.raw`\b(\w+)\((${simple}), (${simple})\)`, 'g'))) {
    const [whole, name, a, b] = m;
    if (!code(m.index, m.index + whole.length) || a === b) continue;
    // Declarations are not calls, and commutative calls would give equivalent mutants.
    if (/\bfunction\s*$/.test(line.slice(0, m.index))) continue;
    if (['if', 'while', 'for', 'push', 'set', 'test', 'max', 'min'].includes(name!)) continue;
    sites.push({
      at: m.index,
      from: whole,
      to: `${name}(${b}, ${a})`,
      operator: 'swapped-arguments',
    });
  }
  return sites;
}

function symbolAt(lines: string[], index: number): string {
  for (let i = index; i >= 0; i--) {
    const line = lines[i]!;
    const fn = /^\s*(?:export\s+)?(?:async\s+)?function\s+(\w+)/.exec(line);
    if (fn) return fn[1]!;
    const method = /^ {2}(?:get |static )?(\w+)\([^)]*\)\s*\{\s*$/.exec(line);
    if (method && !['if', 'for', 'while', 'switch'].includes(method[1]!)) {
      const cls = lines
        .slice(0, i)
        .reverse()
        .find((l) => /^\s*(?:export\s+)?class\s+\w+/.test(l));
      const className = cls ? /class\s+(\w+)/.exec(cls)?.[1] : undefined;
      return className ? `${className}.${method[1]}` : method[1]!;
    }
  }
  return '(module)';
}

/** Every mutation of one source file, in a stable order. */
export function mutationsOf(file: string, text: string): Mutation[] {
  const lines = text.split('\n');
  const out: Mutation[] = [];
  lines.forEach((line, index) => {
    for (const site of sitesOf(line)) {
      const mutated = line.slice(0, site.at) + site.to + line.slice(site.at + site.from.length);
      out.push({
        operator: site.operator,
        file,
        line: index + 1,
        before: [line],
        after: [mutated],
        change: `${site.from} -> ${site.to}`,
        symbol: symbolAt(lines, index),
      });
    }
    // A guard clause on one line, or an `if (...) {` whose body only returns / throws.
    if (/^\s*if \(.+\) (return|throw|continue|break)\b.*;$/.test(line)) {
      out.push({
        operator: 'missing-guard',
        file,
        line: index + 1,
        before: [line],
        after: [],
        change: `removed: ${line.trim()}`,
        symbol: symbolAt(lines, index),
      });
    } else if (/^\s*if \(.+\) \{$/.test(line)) {
      const body = lines[index + 1] ?? '';
      const close = lines[index + 2] ?? '';
      if (/^\s*(return|throw)\b/.test(body) && close.trim() === '}') {
        out.push({
          operator: 'missing-guard',
          file,
          line: index + 1,
          before: [line, body, close],
          after: [],
          change: `removed: ${line.trim()} ${body.trim()} }`,
          symbol: symbolAt(lines, index),
        });
      }
    }
  });
  return out;
}

/** Applies a mutation to the file text; throws when the text is not what the mutation expects. */
export function applyMutation(
  text: string,
  m: Pick<Mutation, 'line' | 'before' | 'after'>,
): string {
  const lines = text.split('\n');
  const current = lines.slice(m.line - 1, m.line - 1 + m.before.length);
  if (current.join('\n') !== m.before.join('\n'))
    throw new Error(`mutation does not apply at line ${m.line}: the source changed`);
  lines.splice(m.line - 1, m.before.length, ...m.after);
  return lines.join('\n');
}
