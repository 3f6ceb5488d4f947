// The `household` bridge: an ALFWorld-style text household (our simulator, ALFWorld's interface).
import { restoredEnv } from '../core/helpers.ts';
import type { Bridge, EnvSnapshot } from '../core/types.ts';
import {
  ENV_TYPE,
  HOUSEHOLD_TOOLS,
  HouseholdEnv,
  householdStateSchema,
  listHouseholdTasks,
  pinScene,
  resolveTaskId,
  TEXT_TOOL,
  taskInfo,
  withoutScene,
} from './env.ts';
import { SPLITS } from './tasks.ts';

export { HouseholdEnv } from './env.ts';
export { oraclePlan } from './oracle.ts';
export type { HouseholdStateView } from './state.ts';

export const householdBridge: Bridge = {
  name: ENV_TYPE,
  description:
    "ALFWorld-style text household: ALFWorld's command grammar, feedback strings and affordances, " +
    'six task types (pick, look, clean, heat, cool, pick2) in seeded kitchens, living rooms, ' +
    'bathrooms and bedrooms; splits train / eval_seen (140) / eval_unseen (134, unseen rooms).',
  splits: [...SPLITS],
  textTool: TEXT_TOOL,
  async listTasks(filter) {
    return listHouseholdTasks(filter);
  },
  async getTask(taskId) {
    const resolved = resolveTaskId(taskId);
    return resolved ? { ...taskInfo(resolved.task), id: taskId } : undefined;
  },
  tools() {
    return HOUSEHOLD_TOOLS;
  },
  stateSchema() {
    return householdStateSchema();
  },
  async create() {
    return new HouseholdEnv();
  },
  fromState: (snapshot: EnvSnapshot) => restoredEnv(new HouseholdEnv(), snapshot),
  // An ALFWorld game file is one fixed scene: `@scene<N>` pins the scene, the seed then varies
  // nothing else, so a Stage written against it replays under every episode seed.
  pinTask: pinScene,
  displayTaskId: withoutScene,
};
