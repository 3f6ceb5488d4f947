// The code-repair bridge (SWE-bench style): small real JavaScript packages with injected bugs.
import { filterTasks, restoredEnv } from '../core/helpers.ts';
import type { Bridge, EnvSnapshot, TaskFilter } from '../core/types.ts';
import { CodeRepairEnv } from './env.ts';
import { allTaskInfos, SPLITS } from './tasks.ts';
import { codeRepairStateSchema, codeRepairTools } from './tools.ts';

export { liveResources, sweepStale } from './cleanup.ts';
export { CodeRepairEnv } from './env.ts';
export { applyMutation, mutationsOf, OPERATORS } from './mutate.ts';
export { allTasks, type CodeRepairTask, findTask } from './tasks.ts';
export { type CodeRepairState, CodeRepairStateSchema, LIMITS } from './tools.ts';

export const codeRepairBridge: Bridge = {
  name: 'code-repair',
  description:
    'SWE-bench style repair of six small JavaScript packages (interval, strfmt, lru, csv, semver, ' +
    'money) with bugs injected by mutation operators; tools list/read/search/edit/run_tests/submit; ' +
    'verdict from hidden FAIL_TO_PASS and PASS_TO_PASS tests.',
  splits: [...SPLITS],
  async listTasks(filter?: TaskFilter) {
    return filterTasks(allTaskInfos(), filter);
  },
  async getTask(taskId: string) {
    return allTaskInfos().find((t) => t.id === taskId);
  },
  tools: () => codeRepairTools,
  stateSchema: () => codeRepairStateSchema,
  async create() {
    return new CodeRepairEnv();
  },
  fromState: (snapshot: EnvSnapshot) => restoredEnv(new CodeRepairEnv(), snapshot),
};
