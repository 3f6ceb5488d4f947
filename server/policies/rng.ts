// Seeded randomness for scripted policies: same seed -> same choices, independent of Math.random.
import { mulberry32 } from '../../bridges/core/rng.ts';

/** mulberry32 (bridges/core): tiny, fast, good enough for tie-breaking and shuffles. */
export const createRng: (seed: number) => () => number = mulberry32;

/** Mixes a label into a seed so two policies with the same seed do not make correlated choices. */
export function mixSeed(seed: number, label: string): number {
  let h = 2166136261 ^ (seed >>> 0);
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

export function shuffled<T>(items: readonly T[], rng: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    const tmp = out[i] as T;
    out[i] = out[j] as T;
    out[j] = tmp;
  }
  return out;
}

export function randomInt(rng: () => number, lo: number, hi: number): number {
  return lo + Math.floor(rng() * (hi - lo + 1));
}
