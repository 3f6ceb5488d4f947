// Small string formatting helpers with predictable edge cases.

export function format(template, ...args) {
  const named = args.length === 1 && typeof args[0] === 'object' && args[0] !== null ? args[0] : {};
  let out = '';
  let i = 0;
  while (i < template.length) {
    const ch = template[i];
    if (ch === '{' && template[i + 1] === '{') {
      out += '{';
      i += 2;
      continue;
    }
    if (ch === '}' && template[i + 1] === '}') {
      out += '}';
      i += 2;
      continue;
    }
    if (ch === '{') {
      const close = template.indexOf('}', i);
      if (close === -1) throw new SyntaxError('unclosed { in template');
      const key = template.slice(i + 1, close);
      const index = Number(key);
      const value = Number.isInteger(index) && key !== '' ? args[index] : named[key];
      if (value === undefined) throw new RangeError(`no value for {${key}}`);
      out += String(value);
      i = close + 1;
      continue;
    }
    out += ch;
    i += 1;
  }
  return out;
}

export function padLeft(text, width, fill = ' ') {
  if (fill.length !== 1) throw new RangeError('fill must be one character');
  let out = String(text);
  while (out.length < width) out = fill + out;
  return out;
}

export function padRight(text, width, fill = ' ') {
  if (fill.length !== 1) throw new RangeError('fill must be one character');
  let out = String(text);
  while (out.length < width) out = out + fill;
  return out;
}

export function center(text, width, fill = ' ') {
  const total = width - text.length;
  if (total <= 0) return text;
  const left = Math.floor(total / 2);
  return padRight(padLeft(text, text.length + left, fill), width, fill);
}

export function truncate(text, max, ellipsis = '...') {
  if (text.length <= max) return text;
  if (max <= ellipsis.length) return ellipsis.slice(0, max);
  return text.slice(0, max - ellipsis.length) + ellipsis;
}

export function capitalize(word) {
  if (word.length === 0) return word;
  return word[0].toUpperCase() + word.slice(1).toLowerCase();
}

const SMALL_WORDS = new Set(['a', 'an', 'and', 'of', 'the', 'in', 'on', 'or', 'to']);

export function titleCase(text) {
  const words = text.split(' ');
  return words
    .map((word, index) => {
      const lower = word.toLowerCase();
      if (index > 0 && index < words.length - 1 && SMALL_WORDS.has(lower)) return lower;
      return capitalize(word);
    })
    .join(' ');
}

export function slugify(text, separator = '-') {
  let out = '';
  let pendingSeparator = false;
  for (const ch of text.toLowerCase()) {
    const isWordChar = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9');
    if (isWordChar) {
      if (pendingSeparator && out.length > 0) out += separator;
      out += ch;
      pendingSeparator = false;
    } else {
      pendingSeparator = true;
    }
  }
  return out;
}

export function wrap(text, width) {
  if (width < 1) throw new RangeError('width must be at least 1');
  const lines = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (word === '') continue;
    if (line.length === 0) {
      line = word;
    } else if (line.length + 1 + word.length <= width) {
      line = `${line} ${word}`;
    } else {
      lines.push(line);
      line = word;
    }
  }
  if (line.length > 0) lines.push(line);
  return lines;
}

export function repeatJoin(text, count, separator = '') {
  if (count < 0) throw new RangeError('count must not be negative');
  const parts = [];
  for (let i = 0; i < count; i++) parts.push(text);
  return parts.join(separator);
}

export function countOccurrences(text, needle) {
  if (needle.length === 0) return 0;
  let count = 0;
  let from = 0;
  while (true) {
    const at = text.indexOf(needle, from);
    if (at === -1) return count;
    count += 1;
    from = at + needle.length;
  }
}
