/** One measured figure of `npm run bench`. */
export interface BenchRow {
  name: string;
  value: number;
  unit: string;
  note?: string;
}
