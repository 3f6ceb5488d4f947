// Seeded randomness and a string hash that are the same on every machine and Node version: task
// generation, scenes, splits, contract-suite action plans and scripted policies all derive from
// them, so nothing here may depend on Math.random or on object key order.

/** mulberry32: a tiny, fast PRNG, good enough for layouts, shuffles and tie-breaking. Uniform in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a, 32 bit (unsigned): stable seeds and split assignments from ids. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}
