// The in-memory workbook an episode edits, with computed values (formula.ts) and a real .xlsx
// round trip through exceljs (reset writes the task file; the verifier reads back the result file).
import ExcelJS from 'exceljs';
import { addr, colName, parseCell } from './address.ts';
import { evaluateFormula, type FormulaContext, type Scalar } from './formula.ts';

export interface Cell {
  value: Scalar;
  /** Formula text without the leading '='. */
  formula?: string;
}

export interface SheetJson {
  name: string;
  cells: Record<string, { v: Scalar; f?: string }>;
}

export class Workbook {
  readonly sheets: { name: string; cells: Map<string, Cell> }[] = [];
  private computed = new Map<string, Scalar>();

  static fromJson(sheets: SheetJson[]): Workbook {
    const wb = new Workbook();
    for (const s of sheets) {
      const sheet = wb.addSheet(s.name);
      for (const [a, c] of Object.entries(s.cells))
        sheet.cells.set(a, c.f !== undefined ? { value: c.v, formula: c.f } : { value: c.v });
    }
    return wb;
  }

  toJson(): SheetJson[] {
    return this.sheets.map((s) => ({
      name: s.name,
      cells: Object.fromEntries(
        [...s.cells.entries()]
          .sort(([a], [b]) => cellOrder(a) - cellOrder(b))
          .map(([a, c]) => [
            a,
            c.formula !== undefined ? { v: c.value, f: c.formula } : { v: c.value },
          ]),
      ),
    }));
  }

  sheet(name: string) {
    return this.sheets.find((s) => s.name.toLowerCase() === name.toLowerCase());
  }

  addSheet(name: string) {
    const sheet = { name, cells: new Map<string, Cell>() };
    this.sheets.push(sheet);
    this.computed.clear();
    return sheet;
  }

  set(sheet: string, a: string, cell: Cell | null): void {
    const s = this.sheet(sheet);
    if (!s) throw new Error(`no sheet ${sheet}`);
    if (cell === null || (cell.value === null && cell.formula === undefined)) s.cells.delete(a);
    else s.cells.set(a, cell);
    this.computed.clear();
  }

  raw(sheet: string, a: string): Cell | undefined {
    return this.sheet(sheet)?.cells.get(a);
  }

  /** The computed value of a cell; cycles give #CIRC!. */
  value(sheet: string, col: number, row: number): Scalar {
    const s = this.sheet(sheet);
    if (!s) return '#REF!';
    const a = addr(col, row);
    const key = `${s.name}!${a}`;
    if (this.computed.has(key)) return this.computed.get(key)!;
    const cell = s.cells.get(a);
    if (!cell) return null;
    if (cell.formula === undefined) return cell.value;
    this.computed.set(key, '#CIRC!');
    const v = evaluateFormula(cell.formula, this.context(s.name));
    this.computed.set(key, v);
    return v;
  }

  context(defaultSheet: string): FormulaContext {
    return {
      defaultSheet,
      hasSheet: (name) => this.sheet(name) !== undefined,
      value: (sheet, col, row) => this.value(this.sheet(sheet)?.name ?? sheet, col, row),
    };
  }

  /** The used range of a sheet, e.g. A1:D20 (A1:A1 when empty). */
  usedRange(name: string): string {
    const s = this.sheet(name);
    let maxCol = 1;
    let maxRow = 1;
    for (const a of s?.cells.keys() ?? []) {
      const c = parseCell(a)!;
      maxCol = Math.max(maxCol, c.col);
      maxRow = Math.max(maxRow, c.row);
    }
    return `A1:${colName(maxCol)}${maxRow}`;
  }

  async writeXlsx(path: string): Promise<void> {
    const wb = new ExcelJS.Workbook();
    // Fixed dates keep the file bytes a function of the cells.
    wb.created = new Date(0);
    wb.modified = new Date(0);
    for (const s of this.sheets) {
      const ws = wb.addWorksheet(s.name);
      for (const [a, c] of s.cells) {
        const cell = ws.getCell(a);
        if (c.formula !== undefined) {
          const result = this.value(s.name, parseCell(a)!.col, parseCell(a)!.row);
          cell.value = {
            formula: c.formula,
            ...(typeof result === 'number' ||
            (typeof result === 'string' && !result.startsWith('#'))
              ? { result }
              : {}),
          } as ExcelJS.CellFormulaValue;
        } else cell.value = c.value as ExcelJS.CellValue;
      }
    }
    await wb.xlsx.writeFile(path);
  }

  static async readXlsx(path: string): Promise<Workbook> {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(path);
    const out = new Workbook();
    wb.eachSheet((ws) => {
      const sheet = out.addSheet(ws.name);
      ws.eachRow({ includeEmpty: false }, (row) => {
        row.eachCell({ includeEmpty: false }, (cell) => {
          const formula = cell.formula;
          if (formula) {
            sheet.cells.set(cell.address, { value: null, formula });
            return;
          }
          const v = cell.value;
          if (v === null || v === undefined) return;
          if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean')
            sheet.cells.set(cell.address, { value: v });
          else if (v instanceof Date) sheet.cells.set(cell.address, { value: v.getTime() });
          else if (typeof v === 'object' && 'richText' in v)
            sheet.cells.set(cell.address, { value: v.richText.map((r) => r.text).join('') });
          else sheet.cells.set(cell.address, { value: String(cell.text) });
        });
      });
    });
    return out;
  }
}

function cellOrder(a: string): number {
  const c = parseCell(a)!;
  return c.row * 1000 + c.col;
}
