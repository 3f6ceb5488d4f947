// Household runs on the rollout service, timed, and the CPU of a process or one of its threads: what
// the embedded bench (rollouts.ts) and the BullMQ one (scale-out.ts) both measure with.
import { readFileSync } from 'node:fs';
import { getBridge } from '../bridges/index.ts';
import type { HarnessSpec } from '../server/harness/spec.ts';
import type { LaunchRunInput, Rollouts } from '../server/rollouts/service.ts';

export const POLICY = 'scripted:household-explorer';

export async function householdRun(tasks: number, seedsPerTask: number) {
  const bridge = await getBridge('household');
  if (!bridge) throw new Error('household bridge missing');
  const taskIds = (await bridge.listTasks({ split: 'eval_seen' })).slice(0, tasks).map((t) => t.id);
  const first = taskIds[0];
  if (!first) throw new Error('no household tasks');
  const spec: HarnessSpec = { version: 1, env: { type: 'base', bridge: 'household', task: first } };
  return { spec, taskIds, k: seedsPerTask };
}

export async function timedRun(rollouts: Rollouts, input: LaunchRunInput) {
  const t0 = performance.now();
  const { runId } = await rollouts.launchRun(input);
  const summary = await rollouts.waitForRun(runId);
  const seconds = (performance.now() - t0) / 1000;
  return { runId, summary, seconds };
}

/**
 * User + system CPU so far of a process, all its threads, or of one thread (`/proc/<pid>/task/<tid>`)
 * — Linux /proc, 100 ticks a second — in ms.
 */
export function procCpuMs(pid: number | undefined, thread?: number): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(
      `/proc/${pid}${thread === undefined ? '' : `/task/${thread}`}/stat`,
      'utf8',
    );
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}
