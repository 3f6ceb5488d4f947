// Small deterministic PRNG and string hash: scenes and splits must be identical on every machine and
// Node version, so nothing here may depend on Math.random or on object key order.

import { fnv1a, mulberry32 } from '../core/rng.ts';

/** FNV-1a 32-bit hash of a string (bridges/core). */
export const hashString: (text: string) => number = fnv1a;

export interface Rng {
  /** Uniform float in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
  /** Uniform integer in [lo, hi] inclusive. */
  range(lo: number, hi: number): number;
  pick<T>(items: readonly T[]): T;
  shuffle<T>(items: T[]): T[];
}

/** mulberry32 (bridges/core): tiny, fast and good enough for layout and placement choices. */
export function createRng(seed: number): Rng {
  const next = mulberry32(seed);
  const int = (n: number): number => Math.floor(next() * n);
  return {
    next,
    int,
    range: (lo, hi) => lo + int(hi - lo + 1),
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new RangeError('pick from an empty list');
      return items[int(items.length)] as T;
    },
    shuffle: <T>(items: T[]): T[] => {
      for (let i = items.length - 1; i > 0; i--) {
        const j = int(i + 1);
        const tmp = items[i] as T;
        items[i] = items[j] as T;
        items[j] = tmp;
      }
      return items;
    },
  };
}

export function rngFor(key: string): Rng {
  return createRng(hashString(key));
}
