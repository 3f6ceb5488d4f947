// The officeqa bridge: real files parsed back, the tools, computed gold, the scoring rules, and the
// audit's three inputs (gold passes, empty fails, perturbed gold fails).
import ExcelJS from 'exceljs';
import mammoth from 'mammoth';
import { describe, expect, it, vi } from 'vitest';
import type { Action } from '../core/types.ts';
import { appendixName, corpus, memoName, reportName } from './corpus.ts';
import { cellValue, DEPARTMENTS, fiscalData, yearOf } from './data.ts';
import { OfficeQaEnv } from './env.ts';
import { documentPages } from './extract.ts';
import { normalize, score, tokenF1 } from './scoring.ts';
import { allTasks, KINDS } from './tasks.ts';
import { calculate } from './tools.ts';

vi.setConfig({ testTimeout: 60_000 });

describe('corpus', () => {
  it('is real PDF, DOCX and XLSX files that their own readers open', async () => {
    const files = await corpus();
    expect(files.map((f) => f.kind).sort()).toEqual(
      [...Array(2).fill('pdf'), ...Array(8).fill('docx'), ...Array(2).fill('xlsx')].sort(),
    );
    const pdf = files.find((f) => f.name === reportName(2024))!;
    expect(pdf.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const docx = files.find((f) => f.name === memoName('transit'))!;
    expect((await mammoth.extractRawText({ buffer: docx.bytes })).value).toContain(
      'Memo — Public Transit',
    );
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(
      files.find((f) => f.name === appendixName(2024))!.bytes as unknown as ArrayBuffer,
    );
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Staffing', 'Capital projects']);
  });

  it('extracts pages with the figures and the footnotes that restate them', async () => {
    const pages = (await documentPages(reportName(2024)))!;
    expect(pages).toHaveLength(10);
    const transit = yearOf(fiscalData(), 'transit', 2024);
    const page = pages[3]!;
    expect(page.split('\n')[0]).toBe('Public Transit — FY2024 spending (thousand dollars)');
    const noted = Object.entries(transit.cells).flatMap(([item, row]) =>
      Object.entries(row)
        .filter(([, c]) => c.note)
        .map(([q, c]) => ({ item, q, c })),
    );
    for (const { item, q, c } of noted)
      expect(page).toContain(
        `[${c.note}] Restated after the audit: ${item}, ${q} FY2024 is ${cellValue(c).toLocaleString('en-US')}`,
      );
    expect((await documentPages(memoName('transit')))![1]).toMatch(
      /^Staffing\nAt the end of FY2023/,
    );
    expect((await documentPages(appendixName(2024)))![1]).toMatch(/^Sheet: Capital projects/);
    expect(await documentPages('nope.pdf')).toBeUndefined();
  });
});

describe('scoring', () => {
  it('normalises case, punctuation, articles, separators and units', () => {
    expect(normalize('The total is $1,234 thousand dollars.')).toBe('total is 1234');
    expect(normalize('-4.5%')).toBe('-4.5');
    expect(score('1,234 thousand dollars', '1,234')).toMatchObject({
      em: 1,
      rule: 'exact_match',
      success: true,
    });
    expect(score('about 1240', '1,234')).toMatchObject({
      em: 0,
      numeric: 1,
      rule: 'numeric_tolerance',
      success: true,
    });
    expect(score('1,300', '1,234')).toMatchObject({ numeric: 0, rule: 'none', success: false });
    expect(score('1,300', '1,234', 0.1)).toMatchObject({ numeric: 1, success: true });
    expect(score('', '1,234')).toMatchObject({ em: 0, f1: 0, success: false });
    expect(tokenF1('1234 people in total', '1,234 people')).toBeCloseTo(0.5, 4);
  });

  it('calculate evaluates arithmetic and refuses anything else', () => {
    expect(calculate('(1,200 - 1,000) / 1,000 * 100')).toBe(20);
    expect(calculate('-3 + 2 * 4')).toBe(5);
    expect(() => calculate('process.exit()')).toThrow(/not a number/);
    expect(() => calculate('1/0')).toThrow(/division by zero/);
  });
});

describe('questions', () => {
  it('has at least 200 in four kinds with computed gold', () => {
    const tasks = allTasks();
    expect(tasks.length).toBeGreaterThanOrEqual(200);
    for (const k of KINDS)
      expect(tasks.filter((t) => t.info.type === k).length, k).toBeGreaterThanOrEqual(25);
    const restated = tasks.find((t) => t.info.type === 'footnote')!;
    const [, item, name, q, year] = /the (.+) spending of (.+) in (Q\d) FY(\d+)/.exec(
      restated.info.goal,
    )!;
    const dept = DEPARTMENTS.find((d) => d.name === name)!;
    const row = yearOf(fiscalData(), dept.key, Number(year) as 2024).cells;
    const key = Object.keys(row).find((k) => k.toLowerCase() === item) as keyof typeof row;
    const cell = row[key][q as 'Q1'];
    expect(cell.note).toBeDefined();
    expect(restated.gold).toBe(cellValue(cell).toLocaleString('en-US'));
    expect(restated.gold).not.toBe(cell.reported.toLocaleString('en-US'));
    expect(JSON.stringify(restated.info)).not.toContain(restated.gold);
  });
});

describe('episodes', () => {
  const play = async (taskId: string, actions: (gold: Action[]) => Action[]) => {
    const env = new OfficeQaEnv();
    await env.reset({ taskId, seed: 0 });
    const gold = (await env.solve())!;
    for (const a of actions(gold)) await env.step(a);
    return { env, evaluation: await env.evaluate() };
  };

  it('gold passes, empty fails, perturbed gold fails', async () => {
    for (const t of [
      allTasks().find((x) => x.info.type === 'footnote')!,
      allTasks().find((x) => x.info.meta?.template === 'growth')!,
    ]) {
      const g = await play(t.info.id, (gold) => gold);
      expect(g.evaluation).toMatchObject({
        success: true,
        metrics: { em: 1, decided_by_exact_match: 1 },
      });
      const e = await play(t.info.id, () => []);
      expect(e.evaluation).toMatchObject({ success: false, metrics: { answered: 0 } });
      const p = await play(t.info.id, (gold) =>
        gold.map((a) => ({
          ...a,
          args: {
            text: String(a.args.text).replace(/\d/, (x) => String((Number(x) + 5) % 10)),
          },
        })),
      );
      expect(p.evaluation.success).toBe(false);
    }
  });

  it('search gives ranked passages with document and page; read shows the page; bad input is invalid', async () => {
    const env = new OfficeQaEnv();
    await env.reset({ taskId: allTasks()[0]!.info.id, seed: 0 });
    const s = await env.step({
      name: 'search',
      args: { query: 'Public Transit FY2024 Equipment' },
    });
    expect(s.observation.text).toMatch(
      /^Results for "Public Transit FY2024 Equipment":\n1\. annual-report-fy2024\.pdf, page 4: Equipment/,
    );
    expect((s.observation.data as { refs: unknown[] }).refs[0]).toEqual({
      document: 'annual-report-fy2024.pdf',
      page: 4,
    });
    const r = await env.step({ name: 'read', args: { document: 'memo-water.docx', page: 3 } });
    expect(r.observation.text).toMatch(/^memo-water\.docx, page 3 of 4:\nBudget/);
    const bad = await env.step({ name: 'read', args: { document: 'memo-water.docx', page: 9 } });
    expect(bad.info.invalid).toBe(true);
    expect(bad.observation.text).toBe(
      'Invalid action: memo-water.docx has 4 pages; page 9 does not exist.',
    );
    expect(env.getEnvState()).toMatchObject({
      reads: [{ document: 'memo-water.docx', page: 3 }],
      invalidActions: 1,
      steps: 3,
    });
  });
});
