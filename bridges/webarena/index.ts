// The `webarena` bridge: WebArena-style sites (a Postmill-like forum and a GitLab-like code host)
// served on loopback from seeded data and driven through Chromium with WebArena's action space.
import { restoredEnv } from '../core/helpers.ts';
import type { Bridge, EnvSnapshot, TaskFilter } from '../core/types.ts';
import { WebArenaEnv } from './env.ts';
import { webarenaAvailability } from './runtime.ts';
import { allTasks, findTask, listWebarenaTasks, SPLITS } from './tasks.ts';
import { ENV_TYPE, TEXT_TOOL, webarenaStateSchema, webarenaTools } from './tools.ts';

export { WebArenaEnv } from './env.ts';
export { openAiFuzzyJudge } from './evaluators.ts';
export { configureWebarena, shutdownWebarenaSites, webarenaSettings } from './runtime.ts';
export { DISPLAY_ORIGIN } from './server.ts';
export { allTasks, findTask, type WebarenaTask } from './tasks.ts';
export { parseCommand, type WebarenaState, WebarenaStateSchema } from './tools.ts';

export const webarenaBridge: Bridge = {
  name: ENV_TYPE,
  description:
    `WebArena-style web tasks on two sites served on loopback from seeded data (a Postmill-like forum and a GitLab-like code host), ` +
    `driven through Chromium (Playwright): ${allTasks().length} tasks (information seeking, navigation, content and configuration); ` +
    "observations are WebArena's accessibility tree with element ids, the URL and the tabs; actions are WebArena's " +
    '(click [id], type [id] [text], goto [url], stop [answer], …); verified by string_match, url_match and program_html.',
  splits: [...SPLITS],
  textTool: TEXT_TOOL,
  async listTasks(filter?: TaskFilter) {
    return listWebarenaTasks(filter);
  },
  async getTask(taskId: string) {
    return findTask(taskId)?.info;
  },
  tools: () => webarenaTools,
  stateSchema: () => webarenaStateSchema,
  async create() {
    return new WebArenaEnv();
  },
  fromState: (snapshot: EnvSnapshot) => restoredEnv(new WebArenaEnv(), snapshot),
  availability: webarenaAvailability,
  // Every reset is a browser context and a restore replays the episode: 30 s a check is too little
  // on a loaded machine.
  contractTimeoutMs: 240_000,
};
