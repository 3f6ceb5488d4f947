// Checks of the optional bridge capabilities (types.ts `Bridge.pinTask` / `displayTaskId`): they pass
// trivially for a bridge without them, and hold a bridge that has them to what generic code assumes.
import type { Json } from '../types.ts';
import type { ContractCheck } from './context.ts';
import { fail, firstDifference, same } from './support.ts';

export const CAPABILITY_CHECKS: ContractCheck[] = [
  {
    name: 'capabilities: a pinned task resets to one start state under every seed, and displays as its task',
    async run(ctx) {
      const { bridge } = ctx;
      for (const task of await ctx.sampleTasks()) {
        const shown = bridge.displayTaskId?.(task.id);
        if (shown !== undefined && (typeof shown !== 'string' || shown === ''))
          fail(`displayTaskId('${task.id}') returned ${JSON.stringify(shown)}`);
        if (!bridge.pinTask) continue;
        const pinned = bridge.pinTask(task.id, 3);
        if (typeof pinned !== 'string' || pinned === '')
          fail(`pinTask('${task.id}', 3) returned ${JSON.stringify(pinned)}`);
        const again = bridge.pinTask(pinned, 5);
        if (again !== pinned)
          fail(`pinTask of a pinned id must return it unchanged: '${pinned}' became '${again}'`);
        if ((await bridge.getTask(pinned)) === undefined)
          fail(`getTask('${pinned}') of a pinned task id returned undefined`);
        if (bridge.displayTaskId && bridge.displayTaskId(pinned) !== shown)
          fail(
            `displayTaskId('${pinned}') is '${bridge.displayTaskId(pinned)}', not '${shown}' as for the task it pins`,
          );
        const starts: Json[] = [];
        for (const seed of ctx.seeds) {
          starts.push(
            await ctx.withEnv(async (env) => {
              const r = await env.reset({ taskId: pinned, seed });
              return { observation: r.observation, state: env.getEnvState() } as unknown as Json;
            }),
          );
        }
        starts.forEach((start, i) => {
          if (!same(start, starts[0]))
            fail(
              `pinned task ${pinned}: seeds ${ctx.seeds[0]} and ${ctx.seeds[i]} give different start states: ${firstDifference(starts[0], start)}`,
            );
        });
      }
    },
  },
];
