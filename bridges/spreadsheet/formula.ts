// A small spreadsheet formula engine for the task families: numbers, strings, cell and range
// references (also on other sheets), + - * / ^, unary minus, parentheses, and SUM, AVERAGE, MIN,
// MAX, COUNT, ROUND, ABS. Errors are values (#DIV/0!, #REF!, #NAME?, #VALUE!, #CIRC!), as in Excel.
import { type CellRef, parseCell, parseRange, type RangeRef, rangeCells } from './address.ts';

export type Scalar = number | string | boolean | null;
export const ERRORS = ['#DIV/0!', '#REF!', '#NAME?', '#VALUE!', '#CIRC!', '#ERROR!'] as const;
export type ErrorValue = (typeof ERRORS)[number];
export const isError = (v: Scalar): v is ErrorValue =>
  typeof v === 'string' && (ERRORS as readonly string[]).includes(v);

type Node =
  | { k: 'num'; v: number }
  | { k: 'str'; v: string }
  | { k: 'ref'; ref: CellRef }
  | { k: 'range'; ref: RangeRef }
  | { k: 'neg'; e: Node }
  | { k: 'bin'; op: '+' | '-' | '*' | '/' | '^'; a: Node; b: Node }
  | { k: 'call'; name: string; args: Node[] };

export class FormulaSyntaxError extends Error {
  override name = 'FormulaSyntaxError';
}

const TOKEN =
  /\s*(?:(\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)|("(?:[^"]|"")*")|((?:'[^']+'|[A-Za-z_][\w.]*)!\$?[A-Za-z]{1,2}\$?\d+(?::\$?[A-Za-z]{1,2}\$?\d+)?|\$?[A-Za-z]{1,2}\$?\d+(?::\$?[A-Za-z]{1,2}\$?\d+)?)(?![\w(])|([A-Za-z_][A-Za-z0-9_.]*)(?=\s*\()|([-+*/^(),]))/y;

type Tok = { t: 'num' | 'str' | 'ref' | 'fn' | 'op'; v: string };

function tokenize(text: string): Tok[] {
  const out: Tok[] = [];
  TOKEN.lastIndex = 0;
  let i = 0;
  while (i < text.length) {
    if (/^\s*$/.test(text.slice(i))) break;
    TOKEN.lastIndex = i;
    const m = TOKEN.exec(text);
    if (!m) throw new FormulaSyntaxError(`unexpected '${text.slice(i).trim().slice(0, 12)}'`);
    i = TOKEN.lastIndex;
    if (m[1]) out.push({ t: 'num', v: m[1] });
    else if (m[2]) out.push({ t: 'str', v: m[2].slice(1, -1).replace(/""/g, '"') });
    else if (m[3]) out.push({ t: 'ref', v: m[3] });
    else if (m[4]) out.push({ t: 'fn', v: m[4].toUpperCase() });
    else if (m[5]) out.push({ t: 'op', v: m[5] });
  }
  return out;
}

export function parseFormula(source: string): Node {
  const text = source.trim().replace(/^=/, '');
  const toks = tokenize(text);
  let p = 0;
  const peek = () => toks[p];
  const expectOp = (v: string) => {
    if (peek()?.t !== 'op' || peek()?.v !== v) throw new FormulaSyntaxError(`expected '${v}'`);
    p += 1;
  };
  const primary = (): Node => {
    const t = toks[p++];
    if (!t) throw new FormulaSyntaxError('unexpected end of formula');
    if (t.t === 'num') return { k: 'num', v: Number(t.v) };
    if (t.t === 'str') return { k: 'str', v: t.v };
    if (t.t === 'ref') {
      if (t.v.includes(':')) {
        const ref = parseRange(t.v);
        if (!ref) throw new FormulaSyntaxError(`bad range ${t.v}`);
        return { k: 'range', ref };
      }
      const ref = parseCell(t.v);
      if (!ref) throw new FormulaSyntaxError(`bad reference ${t.v}`);
      return { k: 'ref', ref };
    }
    if (t.t === 'fn') {
      expectOp('(');
      const args: Node[] = [];
      if (!(peek()?.t === 'op' && peek()?.v === ')')) {
        args.push(expr());
        while (peek()?.t === 'op' && peek()?.v === ',') {
          p += 1;
          args.push(expr());
        }
      }
      expectOp(')');
      return { k: 'call', name: t.v, args };
    }
    if (t.v === '(') {
      const e = expr();
      expectOp(')');
      return e;
    }
    if (t.v === '-') return { k: 'neg', e: unary() };
    if (t.v === '+') return unary();
    throw new FormulaSyntaxError(`unexpected '${t.v}'`);
  };
  const unary = (): Node => primary();
  const power = (): Node => {
    let a = unary();
    while (peek()?.t === 'op' && peek()?.v === '^') {
      p += 1;
      a = { k: 'bin', op: '^', a, b: unary() };
    }
    return a;
  };
  const term = (): Node => {
    let a = power();
    while (peek()?.t === 'op' && (peek()?.v === '*' || peek()?.v === '/')) {
      const op = toks[p++]!.v as '*' | '/';
      a = { k: 'bin', op, a, b: power() };
    }
    return a;
  };
  const expr = (): Node => {
    let a = term();
    while (peek()?.t === 'op' && (peek()?.v === '+' || peek()?.v === '-')) {
      const op = toks[p++]!.v as '+' | '-';
      a = { k: 'bin', op, a, b: term() };
    }
    return a;
  };
  if (toks.length === 0) throw new FormulaSyntaxError('empty formula');
  const node = expr();
  if (p < toks.length) throw new FormulaSyntaxError(`unexpected '${toks[p]!.v}'`);
  return node;
}

export interface FormulaContext {
  /** The computed value of a cell (may recurse into its formula). */
  value(sheet: string, col: number, row: number): Scalar;
  hasSheet(sheet: string): boolean;
  defaultSheet: string;
}

class CellError extends Error {
  constructor(readonly value: ErrorValue) {
    super(value);
  }
}

function toNumber(v: Scalar): number {
  if (isError(v)) throw new CellError(v);
  if (v === null || v === '') return 0;
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  const n = Number(v);
  if (v.trim() === '' || Number.isNaN(n)) throw new CellError('#VALUE!');
  return n;
}

const FUNCTIONS = new Set(['SUM', 'AVERAGE', 'MIN', 'MAX', 'COUNT', 'ROUND', 'ABS']);

export function evaluateNode(node: Node, ctx: FormulaContext): Scalar {
  const sheetOf = (s?: string) => {
    const sheet = s ?? ctx.defaultSheet;
    if (!ctx.hasSheet(sheet)) throw new CellError('#REF!');
    return sheet;
  };
  // Range arguments: numbers only (text and blanks are skipped, as in Excel's SUM/AVERAGE).
  const numbersOf = (args: Node[]): number[] => {
    const out: number[] = [];
    for (const a of args) {
      if (a.k === 'range') {
        const sheet = sheetOf(a.ref.sheet);
        for (const c of rangeCells(a.ref)) {
          const v = ctx.value(sheet, c.col, c.row);
          if (isError(v)) throw new CellError(v);
          if (typeof v === 'number') out.push(v);
        }
      } else out.push(toNumber(ev(a)));
    }
    return out;
  };
  const ev = (n: Node): Scalar => {
    switch (n.k) {
      case 'num':
      case 'str':
        return n.v;
      case 'ref':
        return ctx.value(sheetOf(n.ref.sheet), n.ref.col, n.ref.row);
      case 'range':
        throw new CellError('#VALUE!');
      case 'neg':
        return -toNumber(ev(n.e));
      case 'bin': {
        const a = toNumber(ev(n.a));
        const b = toNumber(ev(n.b));
        if (n.op === '+') return a + b;
        if (n.op === '-') return a - b;
        if (n.op === '*') return a * b;
        if (n.op === '^') return a ** b;
        if (b === 0) throw new CellError('#DIV/0!');
        return a / b;
      }
      case 'call': {
        if (!FUNCTIONS.has(n.name)) throw new CellError('#NAME?');
        if (n.name === 'ROUND') {
          if (n.args.length !== 2) throw new CellError('#VALUE!');
          const x = toNumber(ev(n.args[0]!));
          const digits = Math.trunc(toNumber(ev(n.args[1]!)));
          const f = 10 ** digits;
          return (Math.sign(x) * Math.round(Math.abs(x) * f + 1e-9)) / f;
        }
        if (n.name === 'ABS') {
          if (n.args.length !== 1) throw new CellError('#VALUE!');
          return Math.abs(toNumber(ev(n.args[0]!)));
        }
        const xs = numbersOf(n.args);
        if (n.name === 'SUM') return xs.reduce((s, x) => s + x, 0);
        if (n.name === 'COUNT') return xs.length;
        if (n.name === 'AVERAGE') {
          if (xs.length === 0) throw new CellError('#DIV/0!');
          return xs.reduce((s, x) => s + x, 0) / xs.length;
        }
        if (xs.length === 0) return 0;
        return n.name === 'MIN' ? Math.min(...xs) : Math.max(...xs);
      }
    }
  };
  try {
    const v = ev(node);
    if (typeof v === 'number' && !Number.isFinite(v)) return '#VALUE!';
    return v;
  } catch (error) {
    if (error instanceof CellError) return error.value;
    throw error;
  }
}

/** Evaluates formula text; a syntax error is the value #ERROR! (the message via parseFormula). */
export function evaluateFormula(text: string, ctx: FormulaContext): Scalar {
  let node: Node;
  try {
    node = parseFormula(text);
  } catch (error) {
    if (error instanceof FormulaSyntaxError) return '#ERROR!';
    throw error;
  }
  return evaluateNode(node, ctx);
}
