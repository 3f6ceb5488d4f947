// The seeded fiscal dataset the office corpus is written from: departments' quarterly spending by
// line item for two fiscal years (some figures restated by footnotes), year-end headcounts and
// approved budgets (memos), staffing and capital projects (appendix workbooks). Built once per
// process from a fixed seed; the questions' gold answers are computed from it.
import { mulberry32 } from '../core/rng.ts';

export const DATASET_SEED = 31_415;
export const YEARS = [2023, 2024] as const;
export type Year = (typeof YEARS)[number];
export const QUARTERS = ['Q1', 'Q2', 'Q3', 'Q4'] as const;
export type Quarter = (typeof QUARTERS)[number];
export const ITEMS = [
  'Personnel',
  'Equipment',
  'Contracted services',
  'Maintenance',
  'Grants awarded',
] as const;
export type Item = (typeof ITEMS)[number];

export interface Department {
  /** Short name used in file names and questions' keys. */
  key: string;
  name: string;
  director: string;
}

export const DEPARTMENTS: Department[] = [
  { key: 'parks', name: 'Parks and Recreation', director: 'Ines Laurent' },
  { key: 'transit', name: 'Public Transit', director: 'Marcus Bell' },
  { key: 'libraries', name: 'Libraries', director: 'Ana Soto' },
  { key: 'water', name: 'Water Utility', director: 'Tomasz Nowak' },
  { key: 'health', name: 'Public Health', director: 'Grace Mensah' },
  { key: 'housing', name: 'Housing Services', director: 'Olu Bakare' },
  { key: 'fire', name: 'Fire and Rescue', director: 'Priya Raman' },
  { key: 'planning', name: 'City Planning', director: 'Erik Lund' },
];

/** One reported cell; `corrected` when a footnote restates it. */
export interface Cell {
  reported: number;
  corrected?: number;
  /** Footnote letter on the report page. */
  note?: string;
}

export interface DepartmentYear {
  dept: string;
  year: Year;
  cells: Record<Item, Record<Quarter, Cell>>;
  /** Year-end headcount (memo). */
  headcount: number;
  /** Full-time equivalents by quarter (appendix). */
  fte: Record<Quarter, number>;
}

export interface CapitalProject {
  name: string;
  dept: string;
  approved: number;
  spent: number;
}

export interface FiscalData {
  years: DepartmentYear[];
  /** Approved budget for FY2025 (memo), thousand dollars. */
  approved2025: Record<string, number>;
  projects: CapitalProject[];
}

const BASE: Record<Item, [number, number]> = {
  Personnel: [900, 2600],
  Equipment: [120, 700],
  'Contracted services': [200, 1100],
  Maintenance: [80, 500],
  'Grants awarded': [40, 420],
};

const PROJECT_WORDS = [
  'Riverside',
  'North Depot',
  'Central',
  'Harbor',
  'Eastgate',
  'Hillcrest',
  'Old Mill',
  'Westfield',
];
const PROJECT_KINDS = [
  'renovation',
  'fleet renewal',
  'network upgrade',
  'new branch',
  'pump station',
  'clinic fit-out',
];

let cached: FiscalData | undefined;

export function fiscalData(): FiscalData {
  if (cached) return cached;
  const rng = mulberry32(DATASET_SEED);
  const int = (lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));
  const years: DepartmentYear[] = [];
  const letters = 'abcdefghij';
  for (const d of DEPARTMENTS) {
    const scale = 0.6 + rng() * 0.9;
    let prev: DepartmentYear | undefined;
    for (const year of YEARS) {
      let notes = 0;
      const cells = {} as DepartmentYear['cells'];
      for (const item of ITEMS) {
        const [lo, hi] = BASE[item];
        const row = {} as Record<Quarter, Cell>;
        for (const q of QUARTERS) {
          const before = prev?.cells[item][q];
          const base = before
            ? Math.round((before.corrected ?? before.reported) * (0.92 + rng() * 0.24))
            : Math.round(int(lo, hi) * scale);
          const cell: Cell = { reported: Math.max(10, base) };
          // About one cell in nine is restated by a footnote, by 6–18% either way.
          if (notes < 4 && rng() < 0.11) {
            const factor = (rng() < 0.5 ? -1 : 1) * (0.06 + rng() * 0.12);
            cell.corrected = Math.max(5, Math.round(cell.reported * (1 + factor)));
            cell.note = letters[notes] as string;
            notes += 1;
          }
          row[q] = cell;
        }
        cells[item] = row;
      }
      const headcount = int(40, 420);
      const fte = {} as Record<Quarter, number>;
      for (const q of QUARTERS) fte[q] = Math.round(headcount * (0.9 + rng() * 0.15) * 10) / 10;
      const dy: DepartmentYear = { dept: d.key, year, cells, headcount, fte };
      years.push(dy);
      prev = dy;
    }
  }
  const approved2025: Record<string, number> = {};
  for (const d of DEPARTMENTS) {
    const total = yearTotal(
      years.find((y) => y.dept === d.key && y.year === 2024) as DepartmentYear,
    );
    approved2025[d.key] = Math.round(total * (0.95 + rng() * 0.15));
  }
  const projects: CapitalProject[] = [];
  const used = new Set<string>();
  for (const d of DEPARTMENTS)
    for (let k = 0; k < 2; k++) {
      let name = '';
      do
        name = `${PROJECT_WORDS[int(0, PROJECT_WORDS.length - 1)]} ${PROJECT_KINDS[int(0, PROJECT_KINDS.length - 1)]}`;
      while (used.has(name));
      used.add(name);
      const approved = int(300, 4800);
      projects.push({
        name,
        dept: d.key,
        approved,
        spent: Math.round(approved * (0.2 + rng() * 0.75)),
      });
    }
  cached = { years, approved2025, projects };
  return cached;
}

export function cellValue(cell: Cell): number {
  return cell.corrected ?? cell.reported;
}

export function yearOf(data: FiscalData, dept: string, year: Year): DepartmentYear {
  return data.years.find((y) => y.dept === dept && y.year === year) as DepartmentYear;
}

export function itemTotal(dy: DepartmentYear, item: Item, reported = false): number {
  return QUARTERS.reduce(
    (n, q) => n + (reported ? dy.cells[item][q].reported : cellValue(dy.cells[item][q])),
    0,
  );
}

export function yearTotal(dy: DepartmentYear, reported = false): number {
  return ITEMS.reduce((n, item) => n + itemTotal(dy, item, reported), 0);
}

export function department(key: string): Department {
  return DEPARTMENTS.find((d) => d.key === key) as Department;
}
