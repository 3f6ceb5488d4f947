// Seeded randomness for catalogue and task generation (mulberry32 from bridges/core: the same on
// every machine).
import { fnv1a, mulberry32 } from '../core/rng.ts';

export { fnv1a, mulberry32 as createRng };

export function pick<T>(rng: () => number, items: readonly T[]): T {
  const item = items[Math.floor(rng() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

/** `count` distinct items in random order (partial Fisher-Yates). */
export function sample<T>(rng: () => number, items: readonly T[], count: number): T[] {
  const pool = [...items];
  const out: T[] = [];
  for (let i = 0; i < Math.min(count, pool.length); i++) {
    const j = i + Math.floor(rng() * (pool.length - i));
    const tmp = pool[i] as T;
    pool[i] = pool[j] as T;
    pool[j] = tmp;
    out.push(pool[i] as T);
  }
  return out;
}
