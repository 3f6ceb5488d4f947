import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { parseCell, parseRange, rangeCells } from './address.ts';
import { SpreadsheetEnv } from './env.ts';
import { evaluateFormula, type Scalar } from './formula.ts';
import { allTasks, FAMILIES, findTask, spreadsheetBridge, Workbook } from './index.ts';

function book(cells: Record<string, Scalar | { f: string }>, extra?: Record<string, Scalar>) {
  const wb = new Workbook();
  wb.addSheet('S');
  for (const [a, v] of Object.entries(cells))
    wb.set(
      'S',
      a,
      typeof v === 'object' && v !== null ? { value: null, formula: v.f } : { value: v },
    );
  if (extra) {
    wb.addSheet('Other');
    for (const [a, v] of Object.entries(extra)) wb.set('Other', a, { value: v });
  }
  return wb;
}

describe('formula engine', () => {
  const wb = book(
    { A1: 2, A2: 3, A3: 'text', B1: { f: 'A1*A2+1' }, B2: { f: 'B3' }, B3: { f: 'B2' } },
    { A1: 10 },
  );
  const ev = (f: string) => evaluateFormula(f, wb.context('S'));
  it('arithmetic with precedence, parentheses and unary minus', () => {
    expect(ev('=1+2*3')).toBe(7);
    expect(ev('=(1+2)*3')).toBe(9);
    expect(ev('=-A1^2')).toBe(4);
    expect(ev('=2^3^1')).toBe(8);
  });
  it('references, ranges, other sheets and functions', () => {
    expect(ev('=B1')).toBe(7);
    expect(ev('=SUM(A1:A3)')).toBe(5);
    expect(ev('=AVERAGE($A$1:$A$3)')).toBe(2.5);
    expect(ev('=MAX(A1:A2)+MIN(A1:A2)+COUNT(A1:A3)')).toBe(7);
    expect(ev('=Other!A1*2')).toBe(20);
    expect(ev('=ROUND(2/3,4)')).toBe(0.6667);
    expect(ev('=ABS(-3)')).toBe(3);
  });
  it('errors are values', () => {
    expect(ev('=1/0')).toBe('#DIV/0!');
    expect(ev('=A3+1')).toBe('#VALUE!');
    expect(ev('=NOPE(1)')).toBe('#NAME?');
    expect(ev('=Missing!A1')).toBe('#REF!');
    expect(ev('=B2')).toBe('#CIRC!');
    expect(ev('=1+')).toBe('#ERROR!');
  });
  it('addresses', () => {
    expect(parseCell("'My Sheet'!$B$7")).toEqual({ sheet: 'My Sheet', col: 2, row: 7 });
    expect(rangeCells(parseRange('C2:A1')!)).toHaveLength(6);
    expect(parseRange('A1:B2:C3')).toBeUndefined();
  });
});

describe('tasks and verifier', () => {
  it('has 150 tasks in five families', () => {
    expect(allTasks()).toHaveLength(150);
    expect(new Set(allTasks().map((t) => t.family))).toEqual(new Set(FAMILIES));
  });

  it.each(FAMILIES)(
    '%s: writing the reference values succeeds, the untouched workbook fails',
    async (family) => {
      const task = allTasks().find((t) => t.family === family)!;
      const reference = task.build();
      task.solve(reference);
      const env = new SpreadsheetEnv();
      await env.reset({ taskId: task.info.id, seed: 0 });
      expect((await env.evaluate()).success).toBe(false);
      for (const target of task.targets) {
        const range = parseRange(target)!;
        if (
          !env.getEnvState() ||
          !(await env.step({ name: 'list_sheets', args: {} })).observation.text.includes(
            range.sheet!,
          )
        )
          await env.step({ name: 'add_sheet', args: { name: range.sheet! } });
        const values: Scalar[][] = [];
        for (let row = range.start.row; row <= range.end.row; row++) {
          const line: Scalar[] = [];
          for (let col = range.start.col; col <= range.end.col; col++)
            line.push(reference.value(range.sheet!, col, row));
          values.push(line);
        }
        await env.step({
          name: 'write_range',
          args: { start: `${range.sheet}!${target.split('!')[1]!.split(':')[0]}`, values },
        });
      }
      const done = await env.step({ name: 'submit', args: {} });
      expect(done).toMatchObject({ reward: 1, terminated: true });
      await env.close();
    },
  );

  it('the task file is a real .xlsx and the verifier reads formulas back from result.xlsx', async () => {
    const env = new SpreadsheetEnv();
    const task = allTasks().find((t) => t.family === 'row-sum')!;
    await env.reset({ taskId: task.info.id, seed: 0 });
    const dir = readdirSync(tmpdir())
      .filter((d) => d.startsWith('envharness-spreadsheet-'))
      .map((d) => join(tmpdir(), d))
      .find((d) => existsSync(join(d, 'task.xlsx')))!;
    const xlsx = new ExcelJS.Workbook();
    await xlsx.xlsx.readFile(join(dir, 'task.xlsx'));
    expect(xlsx.getWorksheet('Sales')!.getCell('A1').value).toBe('Product');
    await env.step({ name: 'write_cell', args: { cell: 'Sales!D2', formula: '=B2+C2' } });
    await env.evaluate();
    const result = new ExcelJS.Workbook();
    await result.xlsx.readFile(join(dir, 'result.xlsx'));
    expect(result.getWorksheet('Sales')!.getCell('D2').formula).toBe('B2+C2');
    await env.close();
    expect(existsSync(dir)).toBe(false);
  });
});

describe('tools', () => {
  it('reads ranges with formulas, rejects bad input clearly, writes nothing on a bad formula', async () => {
    const env = await spreadsheetBridge.create();
    const task = findTask('share-00')!;
    await env.reset({ taskId: task.info.id, seed: 0 });
    await env.step({
      name: 'write_cell',
      args: { cell: 'Budget!C2', value: '=ROUND(B2/SUM(B2:B3),2)' },
    });
    const read = await env.step({ name: 'read_range', args: { range: 'Budget!A1:C2' } });
    expect(read.observation.text).toMatch(
      /^Budget!A1:C2 \(row \| A \| B \| C\)\n1 \| Category \| Amount \| Share\n2 \| .* \| \d+ \| [\d.]+ \(=ROUND\(B2\/SUM\(B2:B3\),2\)\)$/,
    );
    const bad = await env.step({
      name: 'write_range',
      args: { start: 'Budget!D2', values: [[1], ['=SUM(']] },
    });
    expect(bad).toMatchObject({ info: { invalid: true } });
    expect(bad.observation.text).toMatch(/Nothing was written/);
    expect(
      (await env.step({ name: 'read_range', args: { range: 'Budget!D2' } })).observation.text,
    ).toMatch(/\n2 \| $/);
    const sheet = await env.step({ name: 'read_range', args: { range: 'Nope!A1:B2' } });
    expect(sheet.observation.text).toMatch(/No sheet 'Nope'. Sheets: Budget./);
    const value = await env.step({
      name: 'evaluate',
      args: { formula: '=COUNT(B2:B100)', sheet: 'Budget' },
    });
    expect(value.observation.text).toBe(`=COUNT(B2:B100) = ${Number(task.info.meta!.rows)}`);
    expect(env.getEnvState()).toMatchObject({
      writes: 1,
      formulasWritten: 1,
      changed: ['Budget!C2'],
    });
    await env.close();
  });
});
