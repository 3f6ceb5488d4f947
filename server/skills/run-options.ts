// A recorded run that carries a skill bank: `policyOptions.skillBankId` is what the run stores (the
// Run row keeps the id, not a copy of the skills); the process that executes the run's episodes
// loads the bank once per run and hands the skills to the policy the same way the comparison does —
// a bpe(...) policy gets the whole bank as its experience store, any other policy the top-k skills
// retrieved for each task's goal (tags, search priors, skill text).
import type { BridgeResolver, Json } from '../../bridges/core/types.ts';
import type { Db } from '../db/index.ts';
import { InvalidInputError, NotFoundError } from '../errors.ts';
import { parseBpeId } from '../policies/bpe/index.ts';
import type { PolicyOptionsResolver, ResolvedRunOptions } from '../rollouts/engine.ts';
import { skilledOptions } from './skilled.ts';
import { getBank } from './store.ts';

export const SKILL_BANK_OPTION = 'skillBankId';
/** Skills retrieved per task for a policy that is not a bpe wrapper (the comparison's default). */
export const RUN_TOP_K = 6;

/** The bank id a run's policy options name, if any (a non-string value is an input error). */
export function skillBankIdOf(options: Record<string, Json> | undefined): string | undefined {
  const v = options?.[SKILL_BANK_OPTION];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' || v.length === 0) {
    throw new InvalidInputError(`policyOptions.${SKILL_BANK_OPTION}: expected a skill bank id`);
  }
  return v;
}

/** Throws NotFoundError before a run is written when its skill bank does not exist. */
export async function assertSkillBank(
  db: Db,
  options: Record<string, Json> | undefined,
): Promise<void> {
  const id = skillBankIdOf(options);
  if (id !== undefined) await getBank(db, id);
}

/** Expands `policyOptions.skillBankId` into the skills the policy reads; other options pass through. */
export async function resolveRunPolicyOptions(
  db: Db,
  bridges: BridgeResolver,
  run: {
    policy: string;
    bridge: string;
    taskIds: string[];
    policyOptions: Record<string, Json> | undefined;
  },
): Promise<ResolvedRunOptions> {
  const id = skillBankIdOf(run.policyOptions);
  if (id === undefined) return { shared: run.policyOptions };
  const { skills } = await getBank(db, id);
  if (parseBpeId(run.policy)) {
    return {
      shared: { ...run.policyOptions, experience: skills as unknown as Json },
    };
  }
  const bridge = await bridges.get(run.bridge);
  if (!bridge) throw new NotFoundError(`unknown bridge '${run.bridge}'`);
  const perTask: Record<string, Record<string, Json>> = {};
  for (const taskId of run.taskIds) {
    const task = await bridge.getTask(taskId);
    if (!task) throw new NotFoundError(`unknown task '${taskId}' for bridge '${run.bridge}'`);
    perTask[taskId] = skilledOptions(run.policy, skills, task, RUN_TOP_K);
  }
  return { shared: run.policyOptions, perTask };
}

/** Skill banks behind the rollout service's policy-options port. */
export function skillBankOptions(db: Db, bridges: BridgeResolver): PolicyOptionsResolver {
  return {
    check: (options) => assertSkillBank(db, options),
    resolve: (run) => resolveRunPolicyOptions(db, bridges, run),
  };
}
