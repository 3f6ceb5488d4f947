// RFC 4180 CSV: quoted fields may hold separators, quotes (doubled) and line breaks.

export function parseRows(text, separator = ',') {
  const rows = [];
  let row = [];
  let field = '';
  let inQuotes = false;
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (inQuotes) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (ch === '"') {
        inQuotes = false;
        i += 1;
        continue;
      }
      field += ch;
      i += 1;
      continue;
    }
    if (ch === '"' && field.length === 0) {
      inQuotes = true;
    } else if (ch === separator) {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      if (ch === '\r' && text[i + 1] === '\n') i += 1;
    } else {
      field += ch;
    }
    i += 1;
  }
  if (inQuotes) throw new SyntaxError('unterminated quoted field');
  if (field.length > 0 || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

export function parse(text, options = {}) {
  const separator = options.separator ?? ',';
  const rows = parseRows(text, separator);
  if (rows.length === 0) return [];
  const header = rows[0];
  const out = [];
  for (let r = 1; r < rows.length; r++) {
    const row = rows[r];
    if (options.skipEmpty && row.length === 1 && row[0] === '') continue;
    if (row.length !== header.length && options.strict) {
      throw new RangeError(`row ${r + 1} has ${row.length} fields, expected ${header.length}`);
    }
    const record = {};
    for (let c = 0; c < header.length; c++) {
      record[header[c]] = c < row.length ? row[c] : '';
    }
    out.push(record);
  }
  return out;
}

function quote(value, separator) {
  const text = value === null || value === undefined ? '' : String(value);
  const needsQuotes =
    text.includes(separator) || text.includes('"') || text.includes('\n') || text.includes('\r');
  if (!needsQuotes) return text;
  return `"${text.split('"').join('""')}"`;
}

export function stringify(records, columns, separator = ',') {
  const lines = [columns.map((c) => quote(c, separator)).join(separator)];
  for (const record of records) {
    lines.push(columns.map((c) => quote(record[c], separator)).join(separator));
  }
  return `${lines.join('\n')}\n`;
}

export function column(records, name) {
  return records.map((record) => record[name]);
}

export function toNumbers(values) {
  return values.map((value) => {
    const trimmed = value.trim();
    if (trimmed === '') return null;
    const number = Number(trimmed);
    if (Number.isNaN(number)) throw new TypeError(`not a number: ${value}`);
    return number;
  });
}
