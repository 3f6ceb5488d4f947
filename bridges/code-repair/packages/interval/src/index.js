// Half-open intervals [start, end): numbers or epoch milliseconds.

const DAY_MS = 86400000;

export function makeInterval(start, end) {
  if (typeof start !== 'number' || typeof end !== 'number') {
    throw new TypeError('start and end must be numbers');
  }
  if (end < start) {
    throw new RangeError('end must not be before start');
  }
  return { start, end };
}

export function length(interval) {
  return interval.end - interval.start;
}

export function isEmpty(interval) {
  return interval.end <= interval.start;
}

export function contains(interval, point) {
  return point >= interval.start && point < interval.end;
}

export function overlaps(a, b) {
  return a.start < b.end && b.start < a.end;
}

export function intersection(a, b) {
  const start = Math.max(a.start, b.start);
  const end = Math.min(a.end, b.end);
  if (end <= start) return null;
  return { start, end };
}

export function merge(intervals) {
  const sorted = [...intervals].sort((x, y) => x.start - y.start);
  const out = [];
  for (const current of sorted) {
    const last = out[out.length - 1];
    if (last && current.start <= last.end) {
      last.end = Math.max(last.end, current.end);
    } else {
      out.push({ start: current.start, end: current.end });
    }
  }
  return out;
}

export function gaps(intervals, within) {
  const merged = merge(intervals);
  const out = [];
  let cursor = within.start;
  for (const current of merged) {
    if (current.start > cursor) {
      out.push({ start: cursor, end: Math.min(current.start, within.end) });
    }
    cursor = Math.max(cursor, current.end);
    if (cursor >= within.end) break;
  }
  if (cursor < within.end) out.push({ start: cursor, end: within.end });
  return out;
}

export function totalCovered(intervals) {
  let total = 0;
  for (const current of merge(intervals)) {
    total += current.end - current.start;
  }
  return total;
}

export function shift(interval, delta) {
  return { start: interval.start + delta, end: interval.end + delta };
}

export function split(interval, parts) {
  if (!Number.isInteger(parts) || parts < 1) {
    throw new RangeError('parts must be a positive integer');
  }
  const size = (interval.end - interval.start) / parts;
  const out = [];
  for (let i = 0; i < parts; i++) {
    const start = interval.start + i * size;
    const end = i === parts - 1 ? interval.end : start + size;
    out.push({ start, end });
  }
  return out;
}

export function addDays(time, days) {
  return time + days * DAY_MS;
}

export function daysBetween(from, to) {
  return Math.floor((to - from) / DAY_MS);
}

export function dayRange(from, to) {
  const out = [];
  for (let t = from; t < to; t = addDays(t, 1)) {
    out.push(t);
  }
  return out;
}
