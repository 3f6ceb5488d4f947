import { loadavg } from 'node:os';

/** One measured figure of `npm run bench`. */
export interface BenchRow {
  /**
   * A stable id for comparing runs (e.g. `bridges.webarena.raw_step`). Rows named in the issue's
   * bench contract (`engine.hooks3.added_cpu_us`, `cli.help_ms`, …) must carry exactly that id; a
   * row without one gets `<part>.<slug of its name>` in bench/out/latest.json.
   */
  id?: string;
  name: string;
  value: number;
  unit: string;
  note?: string;
  /** The 1-minute load average when the figure was measured (stamped by `measured()` or run.ts). */
  load?: number;
}

/** The 1-minute load average now, to two decimals. */
export function loadNow(): number {
  return Math.round((loadavg()[0] ?? 0) * 100) / 100;
}

/** A row stamped with the load average at the moment it was measured. */
export function measured(row: Omit<BenchRow, 'load'>): BenchRow {
  return { ...row, load: loadNow() };
}
