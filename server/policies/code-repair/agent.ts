// The scripted code-repair agent: reads the bug report, runs the visible tests, finds the function
// the report names, and tries candidate fixes by inverting common mutations (the bug patterns it
// knows: flipped comparisons, wrong operators, off-by-one literals, swapped arguments ...).
// Each policy switches one flaw on (policies.ts).
import { mutationsOf } from '../../../bridges/code-repair/mutate.ts';
import type { Action, Observation } from '../../../bridges/core/types.ts';
import { shuffled } from '../rng.ts';
import type { AgentIo } from './coroutine.ts';

export interface AgentFlaws {
  /** Never runs the tests: applies the first candidate fix and submits. */
  hasty?: boolean;
  /** Edits at the first search match, which may be a call site rather than the definition. */
  firstMatch?: boolean;
}

export interface TestSummary {
  total: number;
  failed: number;
  failing: string[];
}

export function parseTestRun(text: string): TestSummary | undefined {
  const m = /(\d+) tests: (\d+) passed, (\d+) failed\./.exec(text);
  if (!m) return undefined;
  const failing = [...text.matchAll(/^FAIL (\S+?)::/gm)].map((f) => f[1]!);
  return { total: Number(m[1]), failed: Number(m[3]), failing };
}

/** The symbol the bug report names ("The behaviour involves `LRUCache.get`"). */
export function reportedSymbol(goal: string): string | undefined {
  return /involves `([^`]+)`/.exec(goal)?.[1];
}

interface Located {
  path: string;
  line: number;
}

function firstMatch(text: string): Located | undefined {
  const m = /^([^\s:]+):(\d+): /m.exec(text);
  return m ? { path: m[1]!, line: Number(m[2]) } : undefined;
}

/** Numbered lines of a read_file observation. */
export function numberedLines(text: string): Map<number, string> {
  const out = new Map<number, string>();
  for (const m of text.matchAll(/^ *(\d+) \| (.*)$/gm)) out.set(Number(m[1]), m[2]!);
  return out;
}

/** The function starting at `start`: lines up to the brace that closes it. */
export function functionBody(lines: Map<number, string>, start: number): number[] {
  const out: number[] = [];
  let depth = 0;
  let opened = false;
  for (let n = start; lines.has(n); n++) {
    const text = lines.get(n)!;
    out.push(n);
    for (const ch of text) {
      if (ch === '{') {
        depth += 1;
        opened = true;
      } else if (ch === '}') depth -= 1;
    }
    if (opened && depth <= 0) break;
  }
  return out;
}

export interface Candidate {
  line: number;
  from: string;
  to: string;
  change: string;
}

/** Inverse-mutation candidates for the given lines (deleted code cannot be recovered this way). */
export function candidates(lines: Map<number, string>, numbers: number[]): Candidate[] {
  const out: Candidate[] = [];
  for (const n of numbers) {
    const text = lines.get(n)!;
    for (const m of mutationsOf('x.js', text)) {
      if (m.after.length !== 1 || m.operator === 'missing-guard') continue;
      out.push({ line: n, from: text, to: m.after[0]!, change: m.change });
    }
  }
  return out;
}

const act = (name: string, args: Action['args'] = {}): Action => ({ name, args });

/** `old` text that is unique in the file: the line, widened with neighbours when it repeats. */
function uniqueOld(
  lines: Map<number, string>,
  line: number,
  text: string,
): { old: string; prefix: string } {
  const all = [...lines.values()];
  if (all.filter((l) => l === text).length <= 1) return { old: text, prefix: '' };
  const prev = lines.get(line - 1);
  return prev === undefined
    ? { old: text, prefix: '' }
    : { old: `${prev}\n${text}`, prefix: `${prev}\n` };
}

export async function repairAgent(
  io: AgentIo,
  first: Observation,
  goal: string,
  maxSteps: number,
  flaws: AgentFlaws,
  rng: () => number,
): Promise<string> {
  const budgetLeft = () => maxSteps - io.steps;
  const submit = async (why: string) => {
    await io.act(act('submit'), why);
    return why;
  };
  void first;
  let failingFile: string | undefined;
  if (!flaws.hasty) {
    const run = parseTestRun((await io.act(act('run_tests'), 'run the visible tests first')).text);
    // Trusting the visible tests: when none fails there is nothing to aim at.
    if (!run || run.failed === 0) return submit('the visible tests pass; submitting as is');
    failingFile = run.failing[0];
  }
  const symbol = reportedSymbol(goal);
  if (!symbol) return submit('the report names no function');
  const name = symbol.split('.').pop()!;
  const pattern = flaws.firstMatch
    ? `\\b${name}\\(`
    : `^\\s*(export )?(async )?(function )?(get )?${name}\\(`;
  const found = firstMatch(
    (await io.act(act('search', { pattern, path: 'src' }), `find ${symbol}`)).text,
  );
  if (!found) return submit(`could not find ${symbol}`);
  const read = await io.act(
    act('read_file', { path: found.path, start: found.line, end: found.line + 60 }),
    `read ${symbol}`,
  );
  const lines = numberedLines(read.text);
  // first-match takes the first candidate at or after the hit, wherever the hit was.
  const body = flaws.firstMatch
    ? [...lines.keys()].filter((n) => n >= found.line)
    : functionBody(lines, found.line).slice(1);
  // The policy seed's choice: the order it tries candidate fixes in (which one a hasty agent
  // applies), so G policy seeds play differently.
  const tries = shuffled(candidates(lines, body), rng);
  if (tries.length === 0) return submit('no candidate fix in that code');
  if (flaws.hasty) {
    const c = tries[0]!;
    const { old, prefix } = uniqueOld(lines, c.line, c.from);
    await io.act(act('edit', { path: found.path, old, new: prefix + c.to }), `try ${c.change}`);
    return submit('looks fixed');
  }
  if (flaws.firstMatch) {
    const c = tries[0]!;
    const { old, prefix } = uniqueOld(lines, c.line, c.from);
    await io.act(act('edit', { path: found.path, old, new: prefix + c.to }), `try ${c.change}`);
    await io.act(act('run_tests', failingFile ? { file: failingFile } : {}), 'check the fix');
    return submit('edited the first match');
  }
  const fixedBy = await tryEach(io, found.path, lines, tries, failingFile, budgetLeft);
  return submit(fixedBy ? `fixed by ${fixedBy}` : 'out of ideas; submitting the best attempt');
}

/**
 * The careful agent: tries each candidate, keeps the one that makes the tests pass and undoes the
 * others. Returns the change that fixed it, if any.
 */
async function tryEach(
  io: AgentIo,
  path: string,
  lines: Map<number, string>,
  tries: Candidate[],
  failingFile: string | undefined,
  budgetLeft: () => number,
): Promise<string | undefined> {
  let current: { line: number; text: string } | undefined;
  for (const c of tries) {
    const fromText = current && current.line === c.line ? current.text : c.from;
    if (current && current.line !== c.line) {
      if (budgetLeft() < 4) break;
      const { old, prefix } = uniqueOld(lines, current.line, current.text);
      await io.act(act('edit', { path, old, new: prefix + lines.get(current.line)! }), 'undo');
      current = undefined;
    }
    if (budgetLeft() < 3) break;
    const view = new Map(lines);
    view.set(c.line, fromText);
    const { old, prefix } = uniqueOld(view, c.line, fromText);
    const edited = await io.act(act('edit', { path, old, new: prefix + c.to }), `try ${c.change}`);
    if (!edited.text.startsWith('Edited')) continue;
    current = { line: c.line, text: c.to };
    const check = parseTestRun(
      (await io.act(act('run_tests', failingFile ? { file: failingFile } : {}), 'did it help?'))
        .text,
    );
    if (check && check.failed === 0 && check.total > 0) {
      const all = parseTestRun((await io.act(act('run_tests'), 'run everything')).text);
      if (all && all.failed === 0) return c.change;
    }
  }
  return undefined;
}
