/** One measured figure of `npm run bench`. */
export interface BenchRow {
  /** A stable id for comparing runs (e.g. `bridges.webarena.raw_step`). */
  id?: string;
  name: string;
  value: number;
  unit: string;
  note?: string;
}
