// The `webshop` bridge: a WebShop-style store served on loopback and driven through Chromium.
import { restoredEnv } from '../core/helpers.ts';
import type { Bridge, EnvSnapshot, TaskFilter } from '../core/types.ts';
import { catalogue } from './catalogue.ts';
import { WebShopEnv } from './env.ts';
import { webshopAvailability } from './runtime.ts';
import { allTasks, findTask, listWebshopTasks, SPLITS } from './tasks.ts';
import { ENV_TYPE, TEXT_TOOL, webshopStateSchema, webshopTools } from './tools.ts';

export { catalogue, findProduct, type Product } from './catalogue.ts';
export { WebShopEnv } from './env.ts';
export { parseCommand } from './observation.ts';
export { getReward } from './reward.ts';
export {
  BROWSER_MARKER,
  CHROMIUM_FIX,
  configureWebshop,
  livePages,
  runtimeStats,
  shutdownWebshopRuntime,
} from './runtime.ts';
export { search } from './search.ts';
export { allTasks, findTask, type Goal } from './tasks.ts';
export { type WebshopState, WebshopStateSchema } from './tools.ts';

export const webshopBridge: Bridge = {
  name: ENV_TYPE,
  description:
    `WebShop-style store served on loopback and driven through Chromium (Playwright): ` +
    `${catalogue().products.length.toLocaleString('en-US')} generated products in 5 categories, ` +
    `${allTasks().length} instructions with attributes, options and a price cap; actions ` +
    'search[query] / click[element]; reward as WebShop (type x attribute/option/price match), success when it is 1.',
  splits: [...SPLITS],
  textTool: TEXT_TOOL,
  async listTasks(filter?: TaskFilter) {
    return listWebshopTasks(filter);
  },
  async getTask(taskId: string) {
    return findTask(taskId)?.info;
  },
  tools: () => webshopTools,
  stateSchema: () => webshopStateSchema,
  async create() {
    return new WebShopEnv();
  },
  fromState: (snapshot: EnvSnapshot) => restoredEnv(new WebShopEnv(), snapshot),
  availability: webshopAvailability,
};
