// Loop instrumentation, so that a hook stopped by its deadline is reported where it loops. QuickJS's
// backtrace of an interrupt is often stale: the interpreter saves a frame's position only at some
// operations, so `while (true) {}` is reported at the first line of its function. Every loop is
// therefore wrapped so the guest knows which loop is running (guest/runtime.js):
//
//   {const __loop=__loopEnter();try{ <the loop, its body starting with __loopTick(id);> }finally{__loopLeave(__loop)}}
//
// An interrupt is uncatchable, so the `finally` does not run and the innermost running loop is
// still recorded when the host asks (__loopAt). Insertions never add lines, so line numbers stay
// the user's; columns after an insertion are mapped back.
import { type Node, parse } from 'acorn';

export interface Position {
  line: number;
  column?: number;
}

interface Range {
  start: number;
  end: number;
}

interface Loop extends Range {
  /** Where the loop statement (its label included) starts, 1-based. */
  at: { line: number; column: number };
  /** The innermost function around the loop (undefined: the top level). */
  fn: Range | undefined;
}

interface Insertion {
  offset: number;
  text: string;
  /** Closings go before openings at one offset; outer openings first, inner closings first. */
  phase: 0 | 1;
  size: number;
  loop: number;
}

export interface InstrumentedCode {
  code: string;
  /** A position in `code` (1-based line and column) as a position in the original text. */
  toOriginal(where: Position): Position;
  /**
   * Where an interrupted hook was: the running loop `loopId` (guest __loopAt), unless QuickJS's own
   * position `reported` (in the original text) is in another function — one the loop called.
   */
  interruptAt(reported: Position | undefined, loopId: number): Position | undefined;
}

const LOOPS = new Set([
  'WhileStatement',
  'DoWhileStatement',
  'ForStatement',
  'ForInStatement',
  'ForOfStatement',
]);
const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

type AnyNode = Node & { body?: AnyNode; label?: Node };

/** Every node with the innermost function around it and the label chain just above it. */
function* walk(
  value: unknown,
  fn: Range | undefined,
  labelStart: number | undefined,
): Generator<{ node: AnyNode; fn: Range | undefined; labelStart: number | undefined }> {
  if (Array.isArray(value)) {
    for (const v of value) yield* walk(v, fn, undefined);
    return;
  }
  if (value === null || typeof value !== 'object' || typeof (value as Node).type !== 'string')
    return;
  const node = value as AnyNode;
  yield { node, fn, labelStart };
  const inner = FUNCTIONS.has(node.type) ? { start: node.start, end: node.end } : fn;
  for (const [key, child] of Object.entries(node)) {
    if (child === null || typeof child !== 'object') continue;
    const label = node.type === 'LabeledStatement' && key === 'body';
    yield* walk(child, inner, label ? (labelStart ?? node.start) : undefined);
  }
}

function lineStarts(code: string): number[] {
  const starts = [0];
  for (let i = 0; i < code.length; i++) if (code[i] === '\n') starts.push(i + 1);
  return starts;
}

function positionOf(starts: number[], offset: number): { line: number; column: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - (starts[lo] ?? 0) + 1 };
}

function analyse(code: string): { loops: Loop[]; functions: Range[]; insertions: Insertion[] } {
  let program: Node;
  try {
    program = parse(code, {
      ecmaVersion: 'latest',
      sourceType: 'script',
      // The code is the body of a factory function (guest.ts factorySource).
      allowReturnOutsideFunction: true,
    });
  } catch {
    // QuickJS reports the syntax error itself.
    return { loops: [], functions: [], insertions: [] };
  }
  const starts = lineStarts(code);
  const loops: Loop[] = [];
  const functions: Range[] = [];
  const insertions: Insertion[] = [];
  for (const { node, fn, labelStart } of walk(program, undefined, undefined)) {
    if (FUNCTIONS.has(node.type)) functions.push({ start: node.start, end: node.end });
    if (!LOOPS.has(node.type) || !node.body) continue;
    const id = loops.length;
    const start = labelStart ?? node.start;
    loops.push({ start, end: node.end, at: positionOf(starts, start), fn });
    const size = node.end - start;
    const open = (offset: number, text: string, n: number): Insertion => ({
      offset,
      text,
      phase: 1,
      size: n,
      loop: id,
    });
    const close = (offset: number, text: string, n: number): Insertion => ({
      offset,
      text,
      phase: 0,
      size: n,
      loop: id,
    });
    insertions.push(open(start, '{const __loop=__loopEnter();try{', size));
    insertions.push(close(node.end, '}finally{__loopLeave(__loop)}}', size));
    const body = node.body;
    const tick = `__loopTick(${id});`;
    const bodySize = body.end - body.start;
    if (body.type === 'BlockStatement') {
      insertions.push(open(body.start + 1, tick, bodySize - 1));
    } else {
      // A single-statement body becomes a block (the same in strict code).
      insertions.push(open(body.start, `{${tick}`, bodySize));
      insertions.push(close(body.end, '}', bodySize));
    }
  }
  insertions.sort(
    (a, b) =>
      a.offset - b.offset ||
      a.phase - b.phase ||
      (a.phase === 1 ? b.size - a.size : a.size - b.size),
  );
  return { loops, functions, insertions };
}

export function instrumentLoops(code: string): InstrumentedCode {
  const { loops, functions, insertions } = analyse(code);
  if (insertions.length === 0) {
    return { code, toOriginal: (where) => where, interruptAt: (reported) => reported };
  }
  const starts = lineStarts(code);
  let out = '';
  let at = 0;
  // Per line: each insertion's column in the instrumented line, its length and its loop.
  const perLine = new Map<number, { column: number; length: number; loop: number }[]>();
  for (const ins of insertions) {
    out += code.slice(at, ins.offset) + ins.text;
    at = ins.offset;
    const { line, column } = positionOf(starts, ins.offset);
    const list = perLine.get(line) ?? [];
    const shift = list.reduce((n, x) => n + x.length, 0);
    list.push({ column: column + shift, length: ins.text.length, loop: ins.loop });
    perLine.set(line, list);
  }
  out += code.slice(at);

  const offsetOf = (p: Position) => (starts[p.line - 1] ?? 0) + (p.column ?? 1) - 1;
  const innermost = (offset: number) =>
    functions
      .filter((f) => f.start <= offset && offset < f.end)
      .sort((a, b) => a.end - a.start - (b.end - b.start))[0];
  return {
    code: out,
    toOriginal(where) {
      const list = perLine.get(where.line);
      if (!list || where.column === undefined) return where;
      let shift = 0;
      for (const ins of list) {
        if (where.column < ins.column) break;
        // Inside inserted text: the loop it belongs to.
        if (where.column < ins.column + ins.length) return loops[ins.loop]?.at ?? where;
        shift += ins.length;
      }
      return { line: where.line, column: where.column - shift };
    },
    interruptAt(reported, loopId) {
      const loop = loops[loopId];
      if (!loop) return reported;
      if (!reported || reported.column === undefined) return loop.at;
      // In the loop's own function QuickJS's position may be stale (or anywhere in the loop): the
      // loop it is. In another function (one the loop called), QuickJS saw it last: that place.
      const fn = innermost(offsetOf(reported));
      const elsewhere = fn?.start !== loop.fn?.start || fn?.end !== loop.fn?.end;
      return elsewhere ? reported : loop.at;
    },
  };
}
