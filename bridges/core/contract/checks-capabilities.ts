// Checks of the optional bridge capabilities (types.ts `Bridge.pinTask` / `displayTaskId`,
// `ActionableEnv.afterSetup` / `describeState`): they pass trivially for a bridge without them,
// and hold a bridge that has them to what generic code assumes.
import type { Json } from '../types.ts';
import { type ContractCheck, label } from './context.ts';
import { fail, firstDifference, same } from './support.ts';

/** Metrics that count what happened in the episode: zero right after a Stage's afterSetup. */
const COUNTERS = ['steps', 'invalidActions', 'moves', 'edits', 'testRuns', 'writes', 'reads'];

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
  {
    name: 'capabilities: afterSetup leaves no trace of the set-up in the counters, and a snapshot keeps it so',
    async run(ctx) {
      for (const plan of await ctx.plans()) {
        const where = label(plan);
        const first = await ctx.withEnv(async (env) => {
          if (!env.afterSetup && !env.describeState) return undefined;
          await env.reset({ taskId: plan.task.id, seed: plan.seed });
          for (const action of plan.actions) await env.step(action);
          if (env.describeState) {
            const d = env.describeState();
            if (!d || typeof d.text !== 'string' || d.text === '')
              fail(`${where}: describeState() returned ${JSON.stringify(d)}, not an observation`);
          }
          if (!env.afterSetup) return undefined;
          await env.afterSetup();
          const metrics = (await env.evaluate()).metrics;
          for (const name of COUNTERS) {
            if ((metrics[name] ?? 0) !== 0)
              fail(
                `${where}: after afterSetup() the counter metric '${name}' is ${metrics[name]}, not 0 (set-up steps must not count)`,
              );
          }
          return { metrics, snapshot: await env.saveState() };
        });
        if (!first) return;
        const restored = await ctx.bridge.fromState(first.snapshot);
        try {
          const metrics = (await restored.evaluate()).metrics;
          if (!same(metrics as unknown as Json, first.metrics as unknown as Json))
            fail(
              `${where}: a snapshot taken after afterSetup() restores other metrics: ${firstDifference(first.metrics as unknown as Json, metrics as unknown as Json)}`,
            );
        } finally {
          await restored.close();
        }
      }
    },
  },
];
