// Plain JSON, strictly: what a state view, a snapshot and a step result must be to survive a store.

/** First reason `value` is not plain JSON (undefined, functions, class instances, NaN, cycles...), or undefined. */
export function plainJsonProblem(
  value: unknown,
  path = '$',
  seen = new Set<object>(),
): string | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : `${path} is ${value}`;
  if (value === undefined) return `${path} is undefined`;
  if (typeof value !== 'object') return `${path} is a ${typeof value}`;
  if (seen.has(value)) return `${path} is a cycle`;
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        if (!(i in value)) return `${path}[${i}] is a hole`;
        const problem = plainJsonProblem(value[i], `${path}[${i}]`, seen);
        if (problem) return problem;
      }
      return undefined;
    }
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      return `${path} is a ${value.constructor?.name ?? 'non-plain'} object`;
    }
    if (Object.getOwnPropertySymbols(value).length > 0) return `${path} has symbol keys`;
    for (const [key, item] of Object.entries(value)) {
      const problem = plainJsonProblem(item, `${path}.${key}`, seen);
      if (problem) return problem;
    }
    return undefined;
  } finally {
    seen.delete(value);
  }
}
