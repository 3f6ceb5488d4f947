// Small pieces every bridge needs the same way: step results, task filtering, rebuilding an env
// from a snapshot. One copy here instead of one per bridge.
import type {
  ActionableEnv,
  EnvSnapshot,
  Json,
  JsonObject,
  Observation,
  StepInfo,
  StepResult,
  TaskFilter,
  TaskInfo,
} from './types.ts';

/** A step the environment carried out: reward 0 and not over unless told otherwise. */
export function stepResult(
  observation: Observation,
  o: { reward?: number; terminated?: boolean; truncated?: boolean; info?: StepInfo } = {},
): StepResult {
  return {
    observation,
    reward: o.reward ?? 0,
    terminated: o.terminated ?? false,
    truncated: o.truncated ?? false,
    info: o.info ?? {},
  };
}

/**
 * A step the environment rejected (unknown tool, bad arguments, failed precondition): reward 0 and
 * `info.invalid: true`, which is how the harness (Stage set-up, EnvRigger) tells a rejected action.
 */
export function invalidStep(
  observation: Observation,
  o: { terminated?: boolean; info?: StepInfo } = {},
): StepResult {
  return stepResult(observation, {
    terminated: o.terminated ?? false,
    info: { invalid: true, ...o.info },
  });
}

/** listTasks' filter: split and type exactly, `text` case-insensitively in the id or the goal. */
export function filterTasks(tasks: TaskInfo[], filter?: TaskFilter): TaskInfo[] {
  if (!filter) return tasks;
  const text = filter.text?.toLowerCase();
  return tasks.filter(
    (t) =>
      (!filter.split || t.split === filter.split) &&
      (!filter.type || t.type === filter.type) &&
      (!text || t.id.toLowerCase().includes(text) || t.goal.toLowerCase().includes(text)),
  );
}

/**
 * `Bridge.fromState` for envs with a `restore(snapshot)` method: a fresh env restored from the
 * snapshot, closed again (temp checkouts, browser pages) when the snapshot cannot be restored.
 */
export async function restoredEnv<E extends ActionableEnv>(
  env: E & { restore(snapshot: EnvSnapshot): void | Promise<void> },
  snapshot: EnvSnapshot,
): Promise<E> {
  try {
    await env.restore(snapshot);
  } catch (error) {
    await env.close();
    throw error;
  }
  return env;
}

/**
 * The value at a key path of a JSON value (`['agent', 'holding']`): undefined where a key is
 * missing or an array or a scalar stands in the way.
 */
export function jsonAt(value: Json, path: readonly string[]): Json | undefined {
  let v: Json | undefined = value;
  for (const key of path) {
    if (v === null || typeof v !== 'object' || Array.isArray(v) || !Object.hasOwn(v, key)) {
      return undefined;
    }
    v = (v as JsonObject)[key];
  }
  return v;
}
