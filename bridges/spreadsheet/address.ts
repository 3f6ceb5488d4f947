// A1-style addresses: `B7`, `$B$7`, `Sheet1!B7`, ranges `A1:C5`.

export interface CellRef {
  sheet?: string;
  col: number; // 1-based
  row: number; // 1-based
}

export interface RangeRef {
  sheet?: string;
  start: { col: number; row: number };
  end: { col: number; row: number };
}

export const MAX_ROWS = 10_000;
export const MAX_COLS = 702; // A..ZZ

export function colName(col: number): string {
  let out = '';
  let n = col;
  while (n > 0) {
    const r = (n - 1) % 26;
    out = String.fromCharCode(65 + r) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

export function colNumber(name: string): number {
  let n = 0;
  for (const ch of name.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

export function addr(col: number, row: number): string {
  return `${colName(col)}${row}`;
}

const CELL = /^\$?([A-Za-z]{1,2})\$?(\d{1,5})$/;

function splitSheet(text: string): { sheet?: string; rest: string } {
  const bang = text.lastIndexOf('!');
  if (bang === -1) return { rest: text.trim() };
  let sheet = text.slice(0, bang).trim();
  if (sheet.startsWith("'") && sheet.endsWith("'")) sheet = sheet.slice(1, -1);
  return { sheet, rest: text.slice(bang + 1).trim() };
}

function cellPart(text: string): { col: number; row: number } | undefined {
  const m = CELL.exec(text);
  if (!m) return undefined;
  const col = colNumber(m[1]!);
  const row = Number(m[2]);
  if (row < 1 || row > MAX_ROWS || col > MAX_COLS) return undefined;
  return { col, row };
}

export function parseCell(text: string): CellRef | undefined {
  const { sheet, rest } = splitSheet(text);
  const cell = cellPart(rest);
  return cell ? { ...(sheet ? { sheet } : {}), ...cell } : undefined;
}

export function parseRange(text: string): RangeRef | undefined {
  const { sheet, rest } = splitSheet(text);
  const [a, b, extra] = rest.split(':');
  if (extra !== undefined || !a) return undefined;
  const start = cellPart(a);
  const end = b === undefined ? start : cellPart(b);
  if (!start || !end) return undefined;
  return {
    ...(sheet ? { sheet } : {}),
    start: { col: Math.min(start.col, end.col), row: Math.min(start.row, end.row) },
    end: { col: Math.max(start.col, end.col), row: Math.max(start.row, end.row) },
  };
}

export function rangeCells(r: RangeRef): { col: number; row: number }[] {
  const out: { col: number; row: number }[] = [];
  for (let row = r.start.row; row <= r.end.row; row++)
    for (let col = r.start.col; col <= r.end.col; col++) out.push({ col, row });
  return out;
}

export function rangeText(r: RangeRef): string {
  const body = `${addr(r.start.col, r.start.row)}:${addr(r.end.col, r.end.row)}`;
  return r.sheet ? `${r.sheet}!${body}` : body;
}
