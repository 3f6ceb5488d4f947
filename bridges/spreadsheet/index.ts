// The spreadsheet bridge (SpreadsheetBench style): instructions on real .xlsx workbooks.
import { filterTasks, restoredEnv } from '../core/helpers.ts';
import type { Bridge, EnvSnapshot, TaskFilter } from '../core/types.ts';
import { SpreadsheetEnv } from './env.ts';
import { allTasks, findTask, SPLITS } from './tasks.ts';
import { spreadsheetStateSchema, spreadsheetTools } from './tools.ts';

export { SpreadsheetEnv } from './env.ts';
export { evaluateFormula, parseFormula } from './formula.ts';
export { allTasks, FAMILIES, findTask } from './tasks.ts';
export { type SpreadsheetState, SpreadsheetStateSchema } from './tools.ts';
export { Workbook } from './workbook.ts';

export const spreadsheetBridge: Bridge = {
  name: 'spreadsheet',
  description:
    'SpreadsheetBench-style instructions on real .xlsx workbooks (exceljs): column formulas, ' +
    'aggregates, sorting, shares and summary sheets; verdict from the computed values of the target ' +
    'cells against the reference solution.',
  splits: [...SPLITS],
  async listTasks(filter?: TaskFilter) {
    return filterTasks(
      allTasks().map((t) => t.info),
      filter,
    );
  },
  async getTask(taskId: string) {
    return findTask(taskId)?.info;
  },
  tools: () => spreadsheetTools,
  stateSchema: () => spreadsheetStateSchema,
  async create() {
    return new SpreadsheetEnv();
  },
  fromState: (snapshot: EnvSnapshot) => restoredEnv(new SpreadsheetEnv(), snapshot),
};
