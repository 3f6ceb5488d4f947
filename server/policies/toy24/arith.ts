// Move search for the toy24 policies. They read the numbers off the observation like any agent
// would; for the exact-fraction arithmetic itself they use the bridge's pure maths module (no state,
// no verifier), so there is one implementation of it.
import {
  apply as applyOp,
  type Rational as Frac,
  OPS,
  type Op,
  parse as parseNumber,
  format as show,
} from '../../../bridges/toy24/rational.ts';

export { type Frac, OPS, type Op, show };

export const is24 = (x: Frac) => x.n === 24 && x.d === 1;

/** The current numbers: the last "Numbers: ..." in the text, else observation data.numbers. */
export function readNumbers(text: string, data: unknown): Frac[] | undefined {
  const all = [...text.matchAll(/numbers:?\s+((?:-?\d+(?:\/\d+)?[\s,]*)+)/gi)];
  const last = all.at(-1)?.[1];
  if (last) {
    const parsed = last
      .split(/[\s,]+/)
      .filter((s) => s.length > 0)
      .map(parseNumber);
    if (parsed.length > 0 && parsed.every((x) => x !== undefined)) return parsed as Frac[];
  }
  if (data && typeof data === 'object' && 'numbers' in data && Array.isArray(data.numbers)) {
    const parsed = data.numbers.map((x: unknown) =>
      typeof x === 'string' || typeof x === 'number' ? parseNumber(String(x)) : undefined,
    );
    if (parsed.every((x) => x !== undefined)) return parsed as Frac[];
  }
  return undefined;
}

export interface Move {
  i: number;
  j: number;
  op: Op;
  result: Frac;
}

/** Every move on the list: ordered pairs for - and /, one order for + and *. */
export function moves(numbers: readonly Frac[]): Move[] {
  const out: Move[] = [];
  numbers.forEach((a, i) => {
    numbers.forEach((b, j) => {
      if (i === j) return;
      for (const op of OPS) {
        if ((op === '+' || op === '*') && j < i) continue;
        const result = applyOp(a, op, b);
        if (result) out.push({ i, j, op, result });
      }
    });
  });
  return out;
}

export function after(numbers: readonly Frac[], m: Move): Frac[] {
  return [...numbers.filter((_, k) => k !== m.i && k !== m.j), m.result];
}

/** A full sequence of moves reaching 24, trying moves in the given order; undefined when none. */
export function solve(
  numbers: readonly Frac[],
  order: (ms: Move[]) => Move[] = (ms) => ms,
): Move[] | undefined {
  if (numbers.length === 1) return numbers[0] && is24(numbers[0]) ? [] : undefined;
  for (const m of order(moves(numbers))) {
    const rest = solve(after(numbers, m), order);
    if (rest) return [m, ...rest];
  }
  return undefined;
}
