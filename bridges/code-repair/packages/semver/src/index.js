// Semantic versions MAJOR.MINOR.PATCH[-prerelease], as semver.org orders them.

function parseNumber(text, what) {
  if (text === '' || !/^\d+$/.test(text)) throw new TypeError(`invalid ${what}: '${text}'`);
  if (text.length > 1 && text[0] === '0') throw new TypeError(`leading zero in ${what}`);
  return Number(text);
}

export function parse(version) {
  const text = version.trim().replace(/^v/, '');
  const dash = text.indexOf('-');
  const core = dash === -1 ? text : text.slice(0, dash);
  const prerelease = dash === -1 ? [] : text.slice(dash + 1).split('.');
  const parts = core.split('.');
  if (parts.length !== 3) throw new TypeError(`invalid version: '${version}'`);
  return {
    major: parseNumber(parts[0], 'major'),
    minor: parseNumber(parts[1], 'minor'),
    patch: parseNumber(parts[2], 'patch'),
    prerelease,
  };
}

export function format(v) {
  const core = `${v.major}.${v.minor}.${v.patch}`;
  return v.prerelease.length > 0 ? `${core}-${v.prerelease.join('.')}` : core;
}

function comparePrerelease(a, b) {
  if (a.length === 0 && b.length === 0) return 0;
  if (a.length === 0) return 1;
  if (b.length === 0) return -1;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    const xNum = /^\d+$/.test(x);
    const yNum = /^\d+$/.test(y);
    if (xNum && yNum) return Number(x) < Number(y) ? -1 : 1;
    if (xNum) return -1;
    if (yNum) return 1;
    return x < y ? -1 : 1;
  }
  return Math.sign(a.length - b.length);
}

export function compare(a, b) {
  const x = typeof a === 'string' ? parse(a) : a;
  const y = typeof b === 'string' ? parse(b) : b;
  if (x.major !== y.major) return x.major < y.major ? -1 : 1;
  if (x.minor !== y.minor) return x.minor < y.minor ? -1 : 1;
  if (x.patch !== y.patch) return x.patch < y.patch ? -1 : 1;
  return comparePrerelease(x.prerelease, y.prerelease);
}

export function gt(a, b) {
  return compare(a, b) > 0;
}

export function lt(a, b) {
  return compare(a, b) < 0;
}

export function eq(a, b) {
  return compare(a, b) === 0;
}

export function sort(versions) {
  return [...versions].sort((a, b) => compare(a, b));
}

export function maxSatisfying(versions, range) {
  let best = null;
  for (const v of versions) {
    if (satisfies(v, range) && (best === null || gt(v, best))) best = v;
  }
  return best;
}

function satisfiesOne(v, comparator) {
  if (comparator.startsWith('^')) {
    const base = parse(comparator.slice(1));
    if (compare(v, base) < 0) return false;
    if (base.major > 0) return v.major === base.major;
    if (base.minor > 0) return v.major === 0 && v.minor === base.minor;
    return v.major === 0 && v.minor === 0 && v.patch === base.patch;
  }
  if (comparator.startsWith('~')) {
    const base = parse(comparator.slice(1));
    return compare(v, base) >= 0 && v.major === base.major && v.minor === base.minor;
  }
  if (comparator.startsWith('>=')) return compare(v, parse(comparator.slice(2))) >= 0;
  if (comparator.startsWith('<=')) return compare(v, parse(comparator.slice(2))) <= 0;
  if (comparator.startsWith('>')) return compare(v, parse(comparator.slice(1))) > 0;
  if (comparator.startsWith('<')) return compare(v, parse(comparator.slice(1))) < 0;
  if (comparator.startsWith('=')) return compare(v, parse(comparator.slice(1))) === 0;
  return compare(v, parse(comparator)) === 0;
}

export function satisfies(version, range) {
  const v = typeof version === 'string' ? parse(version) : version;
  const comparators = range.trim().split(/\s+/);
  return comparators.every((c) => satisfiesOne(v, c));
}

export function inc(version, release) {
  const v = parse(version);
  if (release === 'major')
    return format({ major: v.major + 1, minor: 0, patch: 0, prerelease: [] });
  if (release === 'minor') {
    return format({ major: v.major, minor: v.minor + 1, patch: 0, prerelease: [] });
  }
  if (release === 'patch') {
    if (v.prerelease.length > 0) return format({ ...v, prerelease: [] });
    return format({ major: v.major, minor: v.minor, patch: v.patch + 1, prerelease: [] });
  }
  throw new RangeError(`unknown release type: ${release}`);
}
