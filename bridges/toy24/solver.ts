// Exhaustive search over the 24 game's move sequences: which quadruples are solvable, how many move
// sequences reach 24 (the difficulty measure), and one solution for a given position.
import { apply, equals, format, OPS, type Op, type Rational, rat } from './rational.ts';

export const TARGET = rat(24);

export interface Move {
  a: Rational;
  op: Op;
  b: Rational;
  result: Rational;
}

/**
 * The moves available on `numbers`: every ordered pair of distinct positions and every operation,
 * minus divisions by zero. Ordered pairs, so `a + b` and `b + a` are two sequences: the count below
 * is over what an agent can actually choose.
 */
function* moves(numbers: readonly Rational[]): Generator<{ i: number; j: number; move: Move }> {
  for (let i = 0; i < numbers.length; i++) {
    for (let j = 0; j < numbers.length; j++) {
      if (i === j) continue;
      const a = numbers[i]!;
      const b = numbers[j]!;
      for (const op of OPS) {
        const result = apply(a, op, b);
        if (result) yield { i, j, move: { a, op, b, result } };
      }
    }
  }
}

function rest(numbers: readonly Rational[], i: number, j: number, result: Rational): Rational[] {
  return [...numbers.filter((_, k) => k !== i && k !== j), result];
}

/** Move sequences from n numbers down to one: prod over k=n..2 of k(k-1)*4 (9,216 for four numbers). */
export function totalSequences(count: number): number {
  let total = 1;
  for (let k = count; k >= 2; k--) total *= k * (k - 1) * OPS.length;
  return total;
}

const memo = new Map<string, number>();

function key(numbers: readonly Rational[]): string {
  return numbers.map(format).sort().join(' ');
}

/** How many complete move sequences (divisions by zero are dead ends) end in exactly 24. */
export function countSolutions(numbers: readonly Rational[]): number {
  if (numbers.length === 1) return equals(numbers[0]!, TARGET) ? 1 : 0;
  const k = key(numbers);
  const cached = memo.get(k);
  if (cached !== undefined) return cached;
  let count = 0;
  for (const { i, j, move } of moves(numbers))
    count += countSolutions(rest(numbers, i, j, move.result));
  memo.set(k, count);
  return count;
}

/** One sequence of moves from `numbers` to 24, or undefined when there is none. */
export function solve(numbers: readonly Rational[]): Move[] | undefined {
  if (numbers.length === 1) return equals(numbers[0]!, TARGET) ? [] : undefined;
  for (const { i, j, move } of moves(numbers)) {
    const next = rest(numbers, i, j, move.result);
    if (countSolutions(next) === 0) continue;
    const tail = solve(next);
    if (tail) return [move, ...tail];
  }
  return undefined;
}
