// OfficeQA-style scoring: exact match after normalisation (case, punctuation, articles, thousands
// separators, units), token F1, and a numeric match within a relative tolerance (1e-2 by default).
// Success is EM, or a numeric match within tolerance; the verdict names the rule that decided.

const UNITS = [
  'thousand dollars',
  'thousands of dollars',
  'thousand',
  'dollars',
  'dollar',
  'usd',
  'percent',
  'per cent',
  'people',
  'persons',
  'employees',
];

/** Lower-case, drop thousands separators, units, punctuation (but not a number's sign or point), articles. */
export function normalize(text: string): string {
  let s = text.toLowerCase();
  s = s.replace(/(\d),(?=\d{3}\b)/g, '$1');
  s = s.replace(/[$%]/g, ' ');
  for (const u of UNITS) s = s.replace(new RegExp(`\\b${u}\\b`, 'g'), ' ');
  s = s.replace(/(?<![\d])[.](?!\d)|[^\w\s.-]|(?<!\d)-(?!\d)/g, ' ');
  s = s.replace(/\b(a|an|the)\b/g, ' ');
  return s.replace(/\s+/g, ' ').trim();
}

export function tokenF1(prediction: string, gold: string): number {
  const p = normalize(prediction).split(' ').filter(Boolean);
  const g = normalize(gold).split(' ').filter(Boolean);
  if (p.length === 0 || g.length === 0) return p.length === g.length ? 1 : 0;
  const counts = new Map<string, number>();
  for (const t of g) counts.set(t, (counts.get(t) ?? 0) + 1);
  let same = 0;
  for (const t of p) {
    const n = counts.get(t) ?? 0;
    if (n > 0) {
      same += 1;
      counts.set(t, n - 1);
    }
  }
  if (same === 0) return 0;
  const precision = same / p.length;
  const recall = same / g.length;
  return (2 * precision * recall) / (precision + recall);
}

/** The first number in a text (after normalisation), or undefined. */
export function firstNumber(text: string): number | undefined {
  const m = /-?\d+(?:\.\d+)?/.exec(normalize(text));
  return m ? Number(m[0]) : undefined;
}

export type Rule = 'exact_match' | 'numeric_tolerance' | 'none';

export interface Verdict {
  em: number;
  f1: number;
  /** 1 when both are numbers within the tolerance, 0 otherwise. */
  numeric: number;
  tolerance: number;
  rule: Rule;
  success: boolean;
}

export function score(prediction: string, gold: string, tolerance = 1e-2): Verdict {
  const em = prediction.trim() !== '' && normalize(prediction) === normalize(gold) ? 1 : 0;
  const f1 = prediction.trim() === '' ? 0 : tokenF1(prediction, gold);
  const p = firstNumber(prediction);
  const g = firstNumber(gold);
  const numeric =
    p !== undefined && g !== undefined && Math.abs(p - g) <= tolerance * Math.max(Math.abs(g), 1e-9)
      ? 1
      : 0;
  const rule: Rule = em ? 'exact_match' : numeric ? 'numeric_tolerance' : 'none';
  return { em, f1: Math.round(f1 * 1e4) / 1e4, numeric, tolerance, rule, success: rule !== 'none' };
}
