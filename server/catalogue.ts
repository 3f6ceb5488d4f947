// The bridges and their tasks as the studio and the CLI list them. Task lists are generated
// (toy24: 1,362 quadruples; household: seeded scenes) and never change while the process runs, so
// one listing per bridge is kept. Each bridge says whether it can run on this machine (a runtime it
// drives may be missing): an unavailable one is listed with why and the command that fixes it, and
// every other bridge works as usual.
import { z } from 'zod';
import { availabilityOf } from '../bridges/core/capabilities.ts';
import type {
  Bridge,
  BridgeAvailability,
  BridgeResolver,
  TaskInfo,
} from '../bridges/core/types.ts';
import type { BridgeRegistry } from '../bridges/index.ts';
import { NotFoundError } from './errors.ts';

export const TaskListInputSchema = z.object({
  bridge: z.string().min(1),
  split: z.string().optional(),
  type: z.string().optional(),
  text: z.string().max(200).optional(),
  cursor: z.number().int().min(0).nullish(),
  limit: z.number().int().min(1).max(500).default(100),
});
export type TaskListInput = z.output<typeof TaskListInputSchema>;

/** A bridge by name, or a NotFoundError that lists what exists. */
export async function requireBridge(bridges: BridgeResolver, name: string): Promise<Bridge> {
  const bridge = await bridges.get(name);
  if (!bridge) {
    throw new NotFoundError(
      `unknown bridge '${name}' (known: ${bridges.names().join(', ') || 'none'})`,
    );
  }
  return bridge;
}

export class Catalogue {
  constructor(private readonly registry: BridgeRegistry) {}

  private readonly taskCache = new Map<string, Promise<TaskInfo[]>>();

  private allTasks(bridge: Bridge): Promise<TaskInfo[]> {
    let tasks = this.taskCache.get(bridge.name);
    if (!tasks) {
      tasks = bridge.listTasks();
      this.taskCache.set(bridge.name, tasks);
    }
    return tasks;
  }

  private readonly availabilityCache = new Map<string, BridgeAvailability>();

  /** Whether a bridge can run here, checked once per process (installing needs a restart anyway). */
  availability(bridge: Bridge): BridgeAvailability {
    let known = this.availabilityCache.get(bridge.name);
    if (!known) {
      known = availabilityOf(bridge);
      this.availabilityCache.set(bridge.name, known);
    }
    return known;
  }

  /** The bridges that cannot run here, with why and the fix: said once at start-up. */
  async unavailable(): Promise<{ name: string; reason: string; fix: string }[]> {
    const out: { name: string; reason: string; fix: string }[] = [];
    for (const b of await this.registry.list()) {
      const a = this.availability(b);
      if (!a.available) out.push({ name: b.name, reason: a.reason, fix: a.fix });
    }
    return out;
  }

  /** Every bridge that loads, with its task counts, types, tools and availability. */
  async bridges() {
    const bridges = await this.registry.list();
    return Promise.all(
      bridges.map(async (b) => {
        const tasks = await this.allTasks(b);
        return {
          name: b.name,
          description: b.description,
          splits: b.splits,
          taskCount: tasks.length,
          types: [...new Set(tasks.map((t) => t.type))].sort(),
          tools: b.tools().map((t) => t.name),
          protocol: b.origin?.protocol ?? null,
          availability: this.availability(b),
        };
      }),
    );
  }

  async tasks(input: TaskListInput) {
    const bridge = await requireBridge(this.registry, input.bridge);
    const text = input.text?.trim().toLowerCase();
    const matching = (await this.allTasks(bridge)).filter(
      (t) =>
        (!input.split || t.split === input.split) &&
        (!input.type || t.type === input.type) &&
        (!text || t.id.toLowerCase().includes(text) || t.goal.toLowerCase().includes(text)),
    );
    const start = input.cursor ?? 0;
    const end = start + input.limit;
    return {
      items: matching.slice(start, end),
      total: matching.length,
      nextCursor: end < matching.length ? end : null,
    };
  }

  async task(bridgeName: string, taskId: string) {
    const bridge = await requireBridge(this.registry, bridgeName);
    const task = await bridge.getTask(taskId);
    if (!task) throw new NotFoundError(`unknown task '${taskId}' for bridge '${bridgeName}'`);
    return {
      bridge: {
        name: bridge.name,
        description: bridge.description,
        textTool: bridge.textTool,
        availability: this.availability(bridge),
        origin: bridge.origin ?? null,
      },
      task,
      tools: bridge.tools(),
      stateSchema: bridge.stateSchema(),
    };
  }
}
