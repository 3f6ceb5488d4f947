// The toy24 bridge: the 24 game (PAPERS.md: the paper's Toy24 arithmetic bridge).
import { filterTasks, restoredEnv } from '../core/helpers.ts';
import type { Bridge, EnvSnapshot, TaskFilter } from '../core/types.ts';
import { TEXT_TOOL, Toy24Env, toy24StateSchema, toy24Tools } from './env.ts';
import { allTasks, findTask, SPLITS } from './tasks.ts';

export { parseExpression, Toy24Env, Toy24StateSchema } from './env.ts';
export { solve } from './solver.ts';

export const toy24Bridge: Bridge = {
  name: 'toy24',
  description:
    'The 24 game: combine four numbers from 1..13 with + - * / (two at a time) until one number ' +
    'remains; success iff it is exactly 24. 1,362 solvable quadruples, banded easy/medium/hard.',
  splits: [...SPLITS],
  textTool: TEXT_TOOL,
  async listTasks(filter?: TaskFilter) {
    return filterTasks(allTasks(), filter);
  },
  async getTask(taskId: string) {
    return findTask(taskId);
  },
  tools: () => toy24Tools,
  stateSchema: () => toy24StateSchema,
  async create() {
    return new Toy24Env();
  },
  fromState: (snapshot: EnvSnapshot) => restoredEnv(new Toy24Env(), snapshot),
};
