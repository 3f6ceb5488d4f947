// A baseline as a rig observes it — the policy's rollouts through the real rollout service, its
// episodes read back from the database — and the heuristic designer's diagnosis of it, for the
// diagnosis tests (no Write, no Validate: only what the checker looks at).
import { pinTask } from '../../../bridges/core/capabilities.ts';
import type { TaskInfo } from '../../../bridges/core/types.ts';
import { designFor } from '../designers/heuristic/bridges.ts';
import { heuristicDiagnosis } from '../designers/heuristic/diagnose.ts';
import { rollouts } from '../observe.ts';
import type { RigDeps } from '../round-env.ts';
import type { Batch, DiagnosisReport } from '../types.ts';

export interface Observed {
  batch: Batch;
  task: TaskInfo;
  diagnosis: DiagnosisReport;
}

export async function diagnoseBaseline(
  deps: RigDeps,
  o: { task: string; policy: string; seeds: number[]; maxSteps?: number; band?: [number, number] },
): Promise<Observed> {
  const [bridgeName = '', id = ''] = o.task.split(':');
  const bridge = await deps.bridges.get(bridgeName);
  if (!bridge) throw new Error(`no bridge ${bridgeName}`);
  const taskId = pinTask(bridge, id, 0);
  const task = await bridge.getTask(taskId);
  if (!task) throw new Error(`no task ${taskId}`);
  const batch = await rollouts(deps.rollouts, {
    spec: { version: 1, env: { type: 'base', bridge: bridgeName, task: taskId } },
    policy: o.policy,
    seeds: o.seeds,
    kind: 'baseline',
    maxSteps: o.maxSteps ?? 50,
  });
  const band = o.band ?? [0.4, 0.6];
  return {
    batch,
    task,
    diagnosis: heuristicDiagnosis(batch, task, { band }, designFor(bridgeName)),
  };
}
