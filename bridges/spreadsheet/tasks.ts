// SpreadsheetBench-style task families, generated from a seed per task id: each has a data
// workbook, an instruction, the target cells, and a reference solution applied to the workbook.
import { fnv1a as fnv, mulberry32 as seededRandom } from '../core/rng.ts';
import type { TaskInfo } from '../core/types.ts';
import { addr } from './address.ts';
import { Workbook } from './workbook.ts';

export const FAMILIES = ['row-sum', 'aggregate', 'sort-desc', 'region-summary', 'share'] as const;
export type Family = (typeof FAMILIES)[number];
export const PER_FAMILY = 30;
export const SPLITS = ['train', 'test'] as const;

export interface SpreadsheetTask {
  info: TaskInfo;
  family: Family;
  /** Builds the task's input workbook. */
  build(): Workbook;
  /** Applies the reference solution to a workbook built by build(). */
  solve(wb: Workbook): void;
  /** Target ranges, e.g. ['Sales!D2:D14']. */
  targets: string[];
}

const PRODUCTS = ['Widget', 'Gadget', 'Sprocket', 'Bracket', 'Gear', 'Valve', 'Hinge', 'Spring'];
const STUDENTS = [
  'Ana',
  'Ben',
  'Chen',
  'Dara',
  'Eli',
  'Fay',
  'Gus',
  'Hana',
  'Ivo',
  'Jun',
  'Kai',
  'Lea',
];
const REGIONS = ['Central', 'East', 'North', 'South', 'West'];
const CATEGORIES = [
  'Rent',
  'Food',
  'Travel',
  'Tools',
  'Books',
  'Energy',
  'Phone',
  'Repairs',
  'Fees',
];

function header(wb: Workbook, sheet: string, names: string[]): void {
  names.forEach((n, i) => {
    wb.set(sheet, addr(i + 1, 1), { value: n });
  });
}

/** What a family's generator draws from: the task's seeded random source and its data rows. */
interface Draw {
  /** Last data row (row 1 is the header). */
  n: number;
  rows: number[];
  rng: () => number;
  int(lo: number, hi: number): number;
  pick<T>(xs: readonly T[]): T;
  task(goal: string, rest: Omit<SpreadsheetTask, 'info' | 'family'>): SpreadsheetTask;
}

function rowSum({ n, rows, int, pick, task }: Draw): SpreadsheetTask {
  const q = rows.map(() => [int(10, 500), int(10, 500)] as const);
  const names = rows.map((_, i) => `${pick(PRODUCTS)} ${i + 1}`);
  return task(
    `On sheet Sales, fill D2:D${n} with the total of Q1 and Q2 (columns B and C) for each product.`,
    {
      targets: [`Sales!D2:D${n}`],
      build() {
        const wb = new Workbook();
        wb.addSheet('Sales');
        header(wb, 'Sales', ['Product', 'Q1', 'Q2', 'Total']);
        rows.forEach((r, i) => {
          wb.set('Sales', `A${r}`, { value: names[i]! });
          wb.set('Sales', `B${r}`, { value: q[i]![0] });
          wb.set('Sales', `C${r}`, { value: q[i]![1] });
        });
        return wb;
      },
      solve(wb) {
        for (const r of rows) wb.set('Sales', `D${r}`, { value: null, formula: `B${r}+C${r}` });
      },
    },
  );
}

function aggregate({ n, rows, int, pick, task }: Draw): SpreadsheetTask {
  const fn = pick(['average', 'sum', 'maximum', 'minimum'] as const);
  const col = pick(['B', 'C'] as const);
  const subject = col === 'B' ? 'Math' : 'Science';
  const scores = rows.map(() => [int(35, 100), int(35, 100)] as const);
  const excel = { average: 'AVERAGE', sum: 'SUM', maximum: 'MAX', minimum: 'MIN' }[fn];
  return task(
    `On sheet Scores, write in F2 the ${fn} of the ${subject} scores (column ${col}, rows 2 to ${n}).`,
    {
      targets: ['Scores!F2'],
      build() {
        const wb = new Workbook();
        wb.addSheet('Scores');
        header(wb, 'Scores', ['Student', 'Math', 'Science']);
        rows.forEach((r, i) => {
          wb.set('Scores', `A${r}`, {
            value: `${STUDENTS[i % STUDENTS.length]} ${Math.floor(i / STUDENTS.length) + 1}`,
          });
          wb.set('Scores', `B${r}`, { value: scores[i]![0] });
          wb.set('Scores', `C${r}`, { value: scores[i]![1] });
        });
        return wb;
      },
      solve(wb) {
        wb.set('Scores', 'F2', { value: null, formula: `${excel}(${col}2:${col}${n})` });
      },
    },
  );
}

function sortDesc({ n, rows, int, pick, task }: Draw): SpreadsheetTask {
  const col = pick(['B', 'C'] as const);
  const label = col === 'B' ? 'Stock' : 'Price';
  // Distinct keys so the sorted order is unique.
  const stock = [...new Set(Array.from({ length: 60 }, () => int(1, 400)))].slice(0, n - 1);
  const price = [...new Set(Array.from({ length: 60 }, () => int(100, 9999) / 100))].slice(
    0,
    n - 1,
  );
  const items = rows.map((_, i) => `${pick(PRODUCTS)}-${100 + i}`);
  return task(
    `On sheet Inventory, sort the data rows (rows 2 to ${n}, columns A to C) by ${label} (column ${col}) in descending order, keeping the header in row 1.`,
    {
      targets: [`Inventory!A1:C${n}`],
      build() {
        const wb = new Workbook();
        wb.addSheet('Inventory');
        header(wb, 'Inventory', ['Item', 'Stock', 'Price']);
        rows.forEach((r, i) => {
          wb.set('Inventory', `A${r}`, { value: items[i]! });
          wb.set('Inventory', `B${r}`, { value: stock[i]! });
          wb.set('Inventory', `C${r}`, { value: price[i]! });
        });
        return wb;
      },
      solve(wb) {
        const data = rows.map((r) =>
          ['A', 'B', 'C'].map((c) => wb.raw('Inventory', `${c}${r}`)!.value),
        );
        const key = col === 'B' ? 1 : 2;
        data.sort((x, y) => (y[key] as number) - (x[key] as number));
        rows.forEach((r, i) => {
          ['A', 'B', 'C'].forEach((c, j) => {
            wb.set('Inventory', `${c}${r}`, { value: data[i]![j]! });
          });
        });
      },
    },
  );
}

function regionSummary({ rows, rng, int, pick, task }: Draw): SpreadsheetTask {
  const regions = REGIONS.filter(() => rng() < 0.75);
  if (regions.length < 2) regions.push(...REGIONS.filter((r) => !regions.includes(r)).slice(0, 2));
  const orders = rows.map(() => ({ region: pick(regions), sales: int(50, 2000) }));
  const present = [...new Set(orders.map((o) => o.region))].sort();
  return task(
    'Add a sheet named Summary. In A1 write Region and in B1 write Total sales; from row 2, list each region found in column B of sheet Orders once, in alphabetical order, with the sum of its Sales (column C) next to it.',
    {
      targets: [`Summary!A1:B${present.length + 1}`],
      build() {
        const wb = new Workbook();
        wb.addSheet('Orders');
        header(wb, 'Orders', ['Order', 'Region', 'Sales']);
        rows.forEach((r, i) => {
          wb.set('Orders', `A${r}`, { value: `SO-${1000 + i}` });
          wb.set('Orders', `B${r}`, { value: orders[i]!.region });
          wb.set('Orders', `C${r}`, { value: orders[i]!.sales });
        });
        return wb;
      },
      solve(wb) {
        wb.addSheet('Summary');
        wb.set('Summary', 'A1', { value: 'Region' });
        wb.set('Summary', 'B1', { value: 'Total sales' });
        present.forEach((region, i) => {
          const total = orders.filter((o) => o.region === region).reduce((s, o) => s + o.sales, 0);
          wb.set('Summary', `A${i + 2}`, { value: region });
          wb.set('Summary', `B${i + 2}`, { value: total });
        });
      },
    },
  );
}

function share({ n, rows, int, task }: Draw): SpreadsheetTask {
  const amounts = rows.map(() => int(20, 3000));
  return task(
    `On sheet Budget, fill C2:C${n} with each category's share of the total Amount: B divided by the sum of B2:B${n}, rounded to 4 decimal places.`,
    {
      targets: [`Budget!C2:C${n}`],
      build() {
        const wb = new Workbook();
        wb.addSheet('Budget');
        header(wb, 'Budget', ['Category', 'Amount', 'Share']);
        rows.forEach((r, i) => {
          wb.set('Budget', `A${r}`, {
            value: `${CATEGORIES[i % CATEGORIES.length]} ${Math.floor(i / CATEGORIES.length) + 1}`,
          });
          wb.set('Budget', `B${r}`, { value: amounts[i]! });
        });
        return wb;
      },
      solve(wb) {
        for (const r of rows)
          wb.set('Budget', `C${r}`, { value: null, formula: `ROUND(B${r}/SUM($B$2:$B$${n}),4)` });
      },
    },
  );
}

const GENERATORS: Record<Family, (draw: Draw) => SpreadsheetTask> = {
  'row-sum': rowSum,
  aggregate,
  'sort-desc': sortDesc,
  'region-summary': regionSummary,
  share,
};

const DIFFICULTY: Record<Family, number> = {
  'row-sum': 0.2,
  aggregate: 0.3,
  share: 0.5,
  'sort-desc': 0.6,
  'region-summary': 0.8,
};

function makeTask(family: Family, k: number): SpreadsheetTask {
  const id = `${family}-${String(k).padStart(2, '0')}`;
  const rng = seededRandom(fnv(id));
  const int = (lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rng() * xs.length)]!;
  const n = int(8, 20); // last data row
  const split = fnv(id) % 5 === 0 ? 'test' : 'train';
  const difficulty = DIFFICULTY[family];
  const task = (goal: string, rest: Omit<SpreadsheetTask, 'info' | 'family'>): SpreadsheetTask => ({
    info: { id, type: family, goal, split, difficulty, meta: { rows: n - 1 } },
    family,
    ...rest,
  });
  const rows = Array.from({ length: n - 1 }, (_, i) => i + 2);
  return GENERATORS[family]({ n, rows, rng, int, pick, task });
}

let cache: { tasks: SpreadsheetTask[]; byId: Map<string, SpreadsheetTask> } | undefined;

function load() {
  if (!cache) {
    const tasks = FAMILIES.flatMap((f) =>
      Array.from({ length: PER_FAMILY }, (_, k) => makeTask(f, k)),
    );
    cache = { tasks, byId: new Map(tasks.map((t) => [t.info.id, t])) };
  }
  return cache;
}

export const allTasks = (): SpreadsheetTask[] => load().tasks;
export const findTask = (id: string): SpreadsheetTask | undefined => load().byId.get(id);
