// OfficeQA-style questions over the corpus, from templates: single-fact lookups, footnote
// corrections, arithmetic over retrieved figures (change, share, difference; units and rounding
// stated in the question) and cross-document joins. Every gold answer is computed from the fiscal
// dataset, never typed; the question wording is ours.
import { filterTasks } from '../core/helpers.ts';
import { fnv1a, mulberry32 } from '../core/rng.ts';
import type { TaskFilter, TaskInfo } from '../core/types.ts';
import { appendixName, fmt, memoName, reportName } from './corpus.ts';
import {
  type Cell,
  cellValue,
  DEPARTMENTS,
  department,
  fiscalData,
  ITEMS,
  type Item,
  itemTotal,
  QUARTERS,
  type Quarter,
  YEARS,
  type Year,
  yearOf,
} from './data.ts';

export const KINDS = ['lookup', 'footnote', 'arithmetic', 'cross_document'] as const;
export type Kind = (typeof KINDS)[number];
export const SPLITS = ['train', 'test'] as const;

export interface OfficeqaTask {
  info: TaskInfo;
  /** The gold answer as a person would write it (number with its separators). */
  gold: string;
  unit: 'thousand dollars' | 'percent' | 'people';
  /** The documents (and pages) the answer rests on. */
  sources: { document: string; page: number }[];
}

interface Draft {
  question: string;
  gold: string;
  unit: OfficeqaTask['unit'];
  sources: OfficeqaTask['sources'];
}

const deptPage = (key: string) => 3 + DEPARTMENTS.findIndex((d) => d.key === key);
const pct = (x: number) => `${(Math.round(x * 1000) / 10).toFixed(1)}`;

function shuffled<T>(rng: () => number, xs: readonly T[]): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

interface CellRef {
  dept: string;
  year: Year;
  item: Item;
  q: Quarter;
  cell: Cell;
}

function cells(): CellRef[] {
  const data = fiscalData();
  return DEPARTMENTS.flatMap((d) =>
    YEARS.flatMap((year) =>
      ITEMS.flatMap((item) =>
        QUARTERS.map((q) => ({
          dept: d.key,
          year,
          item,
          q,
          cell: yearOf(data, d.key, year).cells[item][q],
        })),
      ),
    ),
  );
}

const cellQuestion = (c: CellRef) =>
  `What was the ${c.item.toLowerCase()} spending of ${department(c.dept).name} in ${c.q} FY${c.year}, in thousand dollars?`;

interface Template {
  id: string;
  kind: Kind;
  count: number;
  make(rng: () => number): Draft[];
}

const TEMPLATES: Template[] = [
  {
    id: 'cell',
    kind: 'lookup',
    count: 50,
    make: (rng) =>
      shuffled(
        rng,
        cells().filter((c) => !c.cell.note),
      ).map((c) => ({
        question: cellQuestion(c),
        gold: fmt(c.cell.reported),
        unit: 'thousand dollars',
        sources: [{ document: reportName(c.year), page: deptPage(c.dept) }],
      })),
  },
  {
    id: 'headcount',
    kind: 'lookup',
    count: 16,
    make: (rng) =>
      shuffled(
        rng,
        DEPARTMENTS.flatMap((d) => YEARS.map((y) => ({ d, y }))),
      ).map(({ d, y }) => ({
        question: `How many people did ${d.name} employ at the end of FY${y}?`,
        gold: fmt(yearOf(fiscalData(), d.key, y).headcount),
        unit: 'people',
        sources: [{ document: memoName(d.key), page: 2 }],
      })),
  },
  {
    id: 'capital',
    kind: 'lookup',
    count: 12,
    make: (rng) =>
      shuffled(rng, fiscalData().projects).map((p) => ({
        question: `How much had been spent on the capital project "${p.name}" by the end of FY2024, in thousand dollars?`,
        gold: fmt(p.spent),
        unit: 'thousand dollars',
        sources: [{ document: appendixName(2024), page: 2 }],
      })),
  },
  {
    id: 'restated',
    kind: 'footnote',
    count: 30,
    make: (rng) =>
      shuffled(
        rng,
        cells().filter((c) => c.cell.note),
      ).map((c) => ({
        question: cellQuestion(c),
        gold: fmt(cellValue(c.cell)),
        unit: 'thousand dollars',
        sources: [{ document: reportName(c.year), page: deptPage(c.dept) }],
      })),
  },
  {
    id: 'growth',
    kind: 'arithmetic',
    count: 30,
    make: (rng) => {
      const data = fiscalData();
      return shuffled(
        rng,
        DEPARTMENTS.flatMap((d) => ITEMS.map((item) => ({ d, item }))),
      ).map(({ d, item }) => {
        const a = itemTotal(yearOf(data, d.key, 2023), item);
        const b = itemTotal(yearOf(data, d.key, 2024), item);
        return {
          question: `By what percentage did the ${item.toLowerCase()} spending of ${d.name} change from FY2023 to FY2024 (after restatements)? Give a percentage rounded to one decimal place, negative for a decrease.`,
          gold: `${pct((b - a) / a)}%`,
          unit: 'percent',
          sources: [
            { document: reportName(2023), page: deptPage(d.key) },
            { document: reportName(2024), page: deptPage(d.key) },
          ],
        };
      });
    },
  },
  {
    id: 'share',
    kind: 'arithmetic',
    count: 25,
    make: (rng) => {
      const data = fiscalData();
      return shuffled(
        rng,
        DEPARTMENTS.flatMap((d) => YEARS.flatMap((y) => ITEMS.map((item) => ({ d, y, item })))),
      ).map(({ d, y, item }) => {
        const dy = yearOf(data, d.key, y);
        const total = ITEMS.reduce((n, i) => n + itemTotal(dy, i), 0);
        return {
          question: `What share of the total FY${y} spending of ${d.name} (after restatements) went to ${item.toLowerCase()}? Give a percentage rounded to one decimal place.`,
          gold: `${pct(itemTotal(dy, item) / total)}%`,
          unit: 'percent',
          sources: [{ document: reportName(y), page: deptPage(d.key) }],
        };
      });
    },
  },
  {
    id: 'difference',
    kind: 'arithmetic',
    count: 20,
    make: (rng) => {
      const data = fiscalData();
      return shuffled(
        rng,
        DEPARTMENTS.flatMap((d) => YEARS.flatMap((y) => ITEMS.map((item) => ({ d, y, item })))),
      ).map(({ d, y, item }) => {
        const row = yearOf(data, d.key, y).cells[item];
        return {
          question: `How much more did ${d.name} spend on ${item.toLowerCase()} in Q4 than in Q1 of FY${y} (after restatements), in thousand dollars? Answer with a negative number if it spent less.`,
          gold: fmt(cellValue(row.Q4) - cellValue(row.Q1)),
          unit: 'thousand dollars',
          sources: [{ document: reportName(y), page: deptPage(d.key) }],
        };
      });
    },
  },
  {
    id: 'per-fte',
    kind: 'cross_document',
    count: 16,
    make: (rng) => {
      const data = fiscalData();
      return shuffled(
        rng,
        DEPARTMENTS.flatMap((d) => YEARS.map((y) => ({ d, y }))),
      ).map(({ d, y }) => {
        const dy = yearOf(data, d.key, y);
        const q4 = ITEMS.reduce((n, i) => n + cellValue(dy.cells[i].Q4), 0);
        return {
          question: `What was the Q4 FY${y} spending of ${d.name} per full-time equivalent? Divide its Q4 department total from the annual report (after restatements) by its Q4 full-time equivalents from the appendix; answer in thousand dollars, rounded to two decimal places.`,
          gold: (q4 / dy.fte.Q4).toFixed(2),
          unit: 'thousand dollars',
          sources: [
            { document: reportName(y), page: deptPage(d.key) },
            { document: appendixName(y), page: 1 },
          ],
        };
      });
    },
  },
  {
    id: 'budget-gap',
    kind: 'cross_document',
    count: 16,
    make: (rng) => {
      const data = fiscalData();
      return shuffled(
        rng,
        DEPARTMENTS.flatMap((d) => YEARS.map((y) => ({ d, y }))),
      ).map(({ d, y }) => {
        const spent = ITEMS.reduce((n, i) => n + itemTotal(yearOf(data, d.key, y), i), 0);
        return {
          question: `How much larger is the approved FY2025 budget of ${d.name} than its FY${y} spending after restatements, in thousand dollars? Answer with a negative number if it is smaller.`,
          gold: fmt((data.approved2025[d.key] as number) - spent),
          unit: 'thousand dollars',
          sources: [
            { document: memoName(d.key), page: 3 },
            { document: reportName(y), page: deptPage(d.key) },
          ],
        };
      });
    },
  },
];

let cached: OfficeqaTask[] | undefined;

export function allTasks(): OfficeqaTask[] {
  if (cached) return cached;
  const out: OfficeqaTask[] = [];
  for (const t of TEMPLATES) {
    const rng = mulberry32(fnv1a(`officeqa:${t.id}`));
    const seen = new Set<string>();
    const drafts = t.make(rng).filter((d) => !seen.has(d.question) && seen.add(d.question));
    drafts.slice(0, t.count).forEach((d, k) => {
      const id = `oq-${t.id}-${String(k + 1).padStart(2, '0')}`;
      out.push({
        info: {
          id,
          type: t.kind,
          goal: d.question,
          split: fnv1a(id) % 10 < 7 ? 'train' : 'test',
          meta: { template: t.id, unit: d.unit },
        },
        gold: d.gold,
        unit: d.unit,
        sources: d.sources,
      });
    });
  }
  cached = out;
  return out;
}

export function findTask(id: string): OfficeqaTask | undefined {
  return allTasks().find((t) => t.info.id === id);
}

export function listOfficeqaTasks(filter?: TaskFilter): TaskInfo[] {
  return filterTasks(
    allTasks().map((t) => t.info),
    filter,
  );
}
