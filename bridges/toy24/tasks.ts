// The toy24 task set: every multiset of four numbers from 1..13 that can make 24 (1,362 of the 1,820),
// with a difficulty, a difficulty band as the task type, and a deterministic train/test split.
import { fnv1a } from '../core/rng.ts';
import type { TaskInfo } from '../core/types.ts';
import { format, rat } from './rational.ts';
import { countSolutions, totalSequences } from './solver.ts';

export const MIN_NUMBER = 1;
export const MAX_NUMBER = 13;
export const SPLITS = ['train', 'test'] as const;
export const TYPES = ['easy', 'medium', 'hard'] as const;
/** Share of tasks in `test`: about 1 in 5, chosen by a hash of the id so it never moves. */
const TEST_BUCKETS = 2;
const BUCKETS = 10;

export function taskId(numbers: readonly number[]): string {
  return numbers.join('-');
}

export function goalText(numbers: readonly number[]): string {
  return `Make 24 from the numbers ${numbers.join(' ')}, using each exactly once, with + - * /.`;
}

function* quadruples(): Generator<number[]> {
  for (let a = MIN_NUMBER; a <= MAX_NUMBER; a++)
    for (let b = a; b <= MAX_NUMBER; b++)
      for (let c = b; c <= MAX_NUMBER; c++)
        for (let d = c; d <= MAX_NUMBER; d++) yield [a, b, c, d];
}

let cache: TaskInfo[] | undefined;

/**
 * Difficulty: the share s of the 9,216 move sequences (ordered pair x operation at each of the three
 * moves) that end in 24 measures how forgiving a quadruple is. Raw shares cluster near 0, so the
 * difficulty is the mid-rank of 1 - s among all solvable quadruples, in [0, 1]: 0 = the most
 * forgiving, 1 = the least. Bands: easy < 1/3 <= medium < 2/3 <= hard (about a third each).
 */
export function allTasks(): TaskInfo[] {
  if (cache) return cache;
  const total = totalSequences(4);
  const solvable: { numbers: number[]; solutions: number }[] = [];
  for (const numbers of quadruples()) {
    const solutions = countSolutions(numbers.map((n) => rat(n)));
    if (solutions > 0) solvable.push({ numbers, solutions });
  }
  const shares = solvable.map((t) => t.solutions).sort((x, y) => y - x);
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  shares.forEach((s, i) => {
    if (!first.has(s)) first.set(s, i);
    last.set(s, i);
  });
  const denom = Math.max(1, solvable.length - 1);
  cache = solvable.map(({ numbers, solutions }) => {
    const midRank = ((first.get(solutions) ?? 0) + (last.get(solutions) ?? 0)) / 2;
    const difficulty = Math.round((midRank / denom) * 1e4) / 1e4;
    const type = difficulty < 1 / 3 ? 'easy' : difficulty < 2 / 3 ? 'medium' : 'hard';
    const id = taskId(numbers);
    const split = fnv1a(id) % BUCKETS < TEST_BUCKETS ? 'test' : 'train';
    return {
      id,
      type,
      goal: goalText(numbers),
      split,
      difficulty,
      meta: {
        numbers: numbers.map((n) => format(rat(n))),
        solvingSequences: solutions,
        totalSequences: total,
        solvingShare: Math.round((solutions / total) * 1e6) / 1e6,
      },
    };
  });
  return cache;
}

const byId = new Map<string, TaskInfo>();

export function findTask(id: string): TaskInfo | undefined {
  if (byId.size === 0) for (const t of allTasks()) byId.set(t.id, t);
  return byId.get(id);
}
