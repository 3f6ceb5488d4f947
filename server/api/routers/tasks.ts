// Bridges and their tasks, straight from the bridge registry (no database involved).
import { z } from 'zod';
import type { Bridge, TaskInfo } from '../../../bridges/core/types.ts';
import '../../bridges.ts';
import { getBridge, listBridges } from '../../../bridges/index.ts';
import { NotFoundError } from '../../errors.ts';
import { publicProcedure, router } from '../trpc.ts';

// Task lists are generated (toy24: 1,362 quadruples; household: seeded scenes) and never change
// while the process runs, so one listing per bridge is kept.
const taskCache = new Map<string, Promise<TaskInfo[]>>();

function allTasks(bridge: Bridge): Promise<TaskInfo[]> {
  let tasks = taskCache.get(bridge.name);
  if (!tasks) {
    tasks = bridge.listTasks();
    taskCache.set(bridge.name, tasks);
  }
  return tasks;
}

async function requireBridge(name: string): Promise<Bridge> {
  const bridge = await getBridge(name);
  if (!bridge) throw new NotFoundError(`unknown bridge '${name}'`);
  return bridge;
}

export const TaskListInputSchema = z.object({
  bridge: z.string().min(1),
  split: z.string().optional(),
  type: z.string().optional(),
  text: z.string().max(200).optional(),
  cursor: z.number().int().min(0).nullish(),
  limit: z.number().int().min(1).max(500).default(100),
});

export const bridgesRouter = router({
  list: publicProcedure.query(async () => {
    const bridges = await listBridges();
    return Promise.all(
      bridges.map(async (b) => {
        const tasks = await allTasks(b);
        return {
          name: b.name,
          description: b.description,
          splits: b.splits,
          taskCount: tasks.length,
          types: [...new Set(tasks.map((t) => t.type))].sort(),
          tools: b.tools().map((t) => t.name),
        };
      }),
    );
  }),
});

export const tasksRouter = router({
  list: publicProcedure.input(TaskListInputSchema).query(async ({ input }) => {
    const bridge = await requireBridge(input.bridge);
    const text = input.text?.trim().toLowerCase();
    const matching = (await allTasks(bridge)).filter(
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
  }),

  byId: publicProcedure
    .input(z.object({ bridge: z.string().min(1), task: z.string().min(1) }))
    .query(async ({ input }) => {
      const bridge = await requireBridge(input.bridge);
      const task = await bridge.getTask(input.task);
      if (!task)
        throw new NotFoundError(`unknown task '${input.task}' for bridge '${input.bridge}'`);
      return {
        bridge: { name: bridge.name, description: bridge.description, textTool: bridge.textTool },
        task,
        tools: bridge.tools(),
        stateSchema: bridge.stateSchema(),
      };
    }),
});
