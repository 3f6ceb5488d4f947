// Exact rational arithmetic for the 24 game, so that 8 / (3 - 8/3) is exactly 24.
// Four numbers of 1..13 and three operations keep numerators and denominators far below 2^53.

export interface Rational {
  readonly n: number;
  readonly d: number;
}

export const OPS = ['+', '-', '*', '/'] as const;
export type Op = (typeof OPS)[number];

function gcd(a: number, b: number): number {
  let x = Math.abs(a);
  let y = Math.abs(b);
  while (y !== 0) [x, y] = [y, x % y];
  return x;
}

/** Normalised: denominator positive, fraction reduced, zero is 0/1. */
export function rat(n: number, d = 1): Rational {
  if (d === 0) throw new RangeError('zero denominator');
  if (!Number.isSafeInteger(n) || !Number.isSafeInteger(d))
    throw new RangeError('not an integer ratio');
  if (n === 0) return { n: 0, d: 1 };
  const g = gcd(n, d);
  const sign = d < 0 ? -1 : 1;
  return { n: (sign * n) / g, d: (sign * d) / g };
}

export function equals(a: Rational, b: Rational): boolean {
  return a.n === b.n && a.d === b.d;
}

/** `undefined` for a division by zero. */
export function apply(a: Rational, op: Op, b: Rational): Rational | undefined {
  switch (op) {
    case '+':
      return rat(a.n * b.d + b.n * a.d, a.d * b.d);
    case '-':
      return rat(a.n * b.d - b.n * a.d, a.d * b.d);
    case '*':
      return rat(a.n * b.n, a.d * b.d);
    case '/':
      return b.n === 0 ? undefined : rat(a.n * b.d, a.d * b.n);
  }
}

export function format(r: Rational): string {
  return r.d === 1 ? String(r.n) : `${r.n}/${r.d}`;
}

export const NUMBER_PATTERN = '^-?\\d+(/\\d+)?$';
const NUMBER_RE = new RegExp(NUMBER_PATTERN);

/** Parses `8`, `-4`, `8/3`; `undefined` when the text is not such a number. */
export function parse(text: string): Rational | undefined {
  const t = text.trim();
  if (!NUMBER_RE.test(t)) return undefined;
  const [num, den] = t.split('/');
  const n = Number(num);
  const d = den === undefined ? 1 : Number(den);
  if (d === 0 || !Number.isSafeInteger(n) || !Number.isSafeInteger(d)) return undefined;
  return rat(n, d);
}

export function isOp(value: unknown): value is Op {
  return typeof value === 'string' && (OPS as readonly string[]).includes(value);
}
