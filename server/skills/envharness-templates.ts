// EnvHarness environments for skill learning when EnvRigger is not used (`--envharness templates`):
// the rigger's two household directions as fixed templates. The direction the policy's own baseline
// episode suggests is tried first (PAPERS.md: "look at the baseline first to decide harder vs
// scaffold"), the other second; the caller validates each on K fresh rollouts and keeps the first
// whose success rate falls in the target band (`validateCandidate`). Harder: a Stage hides every
// target object in a closed receptacle. Scaffold: a Stage pre-completes the plan up to placing.
import { pinTask } from '../../bridges/core/capabilities.ts';
import type { Action, BridgeResolver } from '../../bridges/core/types.ts';
import { canHold } from '../../bridges/household/data.ts';
import { oraclePlan } from '../../bridges/household/oracle.ts';
import type { HouseholdStateView } from '../../bridges/household/state.ts';
import type { HarnessSpec } from '../harness/spec.ts';

const act = (command: string): Action => ({ name: 'act', args: { command } });

export interface TemplateCandidate {
  spec: HarnessSpec;
  direction: 'harder' | 'scaffold';
  rationale: string;
}

function hidePlan(view: HouseholdStateView): string[] {
  const plan: string[] = [];
  const openNow = new Map(
    view.receptacles.filter((r) => r.openable).map((r) => [r.name, r.open === true]),
  );
  let at = view.agent.location;
  const goTo = (r: string) => {
    if (at !== r) plan.push(`go to ${r}`);
    at = r;
  };
  const targets = view.objects.filter((o) => o.type === view.task.objectType && o.location);
  const hideouts = view.receptacles.filter(
    (r) => r.openable && r.type !== view.task.receptacleType,
  );
  for (const o of targets) {
    const from = o.location;
    if (!from) continue;
    if (openNow.get(from) === false) continue; // already hidden
    const to = hideouts.find((r) => canHold(r.type, o.type) && r.name !== from);
    if (!to) continue;
    goTo(from);
    plan.push(`take ${o.name} from ${from}`);
    goTo(to.name);
    if (openNow.get(to.name) === false) plan.push(`open ${to.name}`);
    plan.push(
      view.dialect === 'move' ? `move ${o.name} to ${to.name}` : `put ${o.name} in/on ${to.name}`,
    );
    plan.push(`close ${to.name}`);
    openNow.set(to.name, false);
  }
  return plan;
}

function scaffoldPlan(view: HouseholdStateView): string[] {
  const plan = oraclePlan(view);
  const placing = plan.findIndex((c) => /^(?:move|put|use) /.test(c));
  return placing < 0 ? plan : plan.slice(0, placing);
}

/** Candidate EnvHarness envs for `task` (household) on the scene of `seed`, the baseline's direction first. */
export async function templateCandidates(
  bridges: BridgeResolver,
  bridgeName: string,
  taskId: string,
  seed: number,
  baselineSuccess: boolean,
): Promise<TemplateCandidate[]> {
  const first = baselineSuccess ? 'harder' : 'scaffold';
  const second = baselineSuccess ? 'scaffold' : 'harder';
  const out: TemplateCandidate[] = [];
  for (const direction of [first, second] as const) {
    const c = await templateCandidate(bridges, bridgeName, taskId, seed, direction);
    if (c) out.push(c);
  }
  return out;
}

/** One candidate of the given direction; undefined when the template does not apply. */
export async function templateCandidate(
  bridges: BridgeResolver,
  bridgeName: string,
  taskId: string,
  seed: number,
  direction: 'harder' | 'scaffold',
): Promise<TemplateCandidate | undefined> {
  if (bridgeName !== 'household') return undefined;
  const bridge = await bridges.get(bridgeName);
  if (!bridge) return undefined;
  const pinned = pinTask(bridge, taskId, seed);
  const env = await bridge.create();
  try {
    await env.reset({ taskId: pinned, seed });
    const view = env.getEnvState() as unknown as HouseholdStateView;
    const commands = direction === 'harder' ? hidePlan(view) : scaffoldPlan(view);
    if (commands.length === 0) return undefined;
    // The set-up must replay cleanly (a Stage rejects an invalid set-up action before any rollout).
    for (const c of commands) {
      const r = await env.step(act(c));
      if (r.info.invalid) return undefined;
    }
    if ((await env.evaluate()).success) return undefined;
    return {
      direction,
      rationale:
        direction === 'harder'
          ? `Harder: hide the ${view.task.objectType} in closed receptacles (${commands.length} set-up actions).`
          : `Scaffold: pre-complete the plan up to placing (${commands.length} set-up actions).`,
      spec: {
        version: 1,
        env: {
          type: 'stage',
          actions: commands.map(act),
          env: { type: 'base', bridge: bridgeName, task: pinned },
        },
      },
    };
  } finally {
    await env.close();
  }
}
