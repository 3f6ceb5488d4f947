// The paper's composition example on the household bridge, chain(contract(stage(E))):
//   Stage    - hide the mug: take it from where it stands, put it in a closed receptacle, close it;
//   Contract - keep only the first two sentences of each observation (the task line is kept) and
//              refuse `clean X with Y` unless the agent holds X;
//   Chain    - then heat a potato and put it somewhere.
// ALFWorld's affordance table does not let a Mug go into a Drawer, so the hiding place is the
// first closed receptacle that may hold a mug (a cabinet in kitchens).

import type { Action } from '../../../bridges/core/types.ts';
import { canHold } from '../../../bridges/household/data.ts';
import { type HouseholdStateView, householdBridge } from '../../../bridges/household/index.ts';
import type { ContractRule } from '../../../contracts/contract-rules.ts';
import type { HarnessSpec } from '../spec.ts';

export const act = (command: string): Action => ({ name: 'act', args: { command } });

/** Three hooks, as the paper's example describes them. */
export const MUG_CONTRACT = `// Partial observability + a tool constraint (EnvHarness paper, Contract example).
export function filterAction(action, state) {
  const m = /^clean (.+?) with /.exec(String(action.args.command ?? ''));
  if (m && state.agent.holding !== m[1]) {
    return { blocked: 'Nothing happens. You must hold the ' + m[1] + ' to clean it.' };
  }
  return action;
}

export function modifyTransition(action, result) {
  if (result.observation.text === 'Nothing happens.') {
    return { ...result, info: { ...result.info, hint: 'check the preconditions of: ' + action.args.command } };
  }
  return result;
}

export function filterObservation(observation) {
  const [body, ...rest] = observation.text.split('\\n\\nYour task is to:');
  const sentences = body.match(/[^.!?]+[.!?]+/g) ?? [body];
  const kept = sentences.slice(0, 2).join('').trim();
  return rest.length ? kept + '\\n\\nYour task is to:' + rest.join('') : kept;
}
`;

/** The same three hooks as declarative rules: the same trajectories, natively. */
export const MUG_RULES: ContractRule[] = [
  {
    kind: 'block',
    pattern: '^clean (.+?) with ',
    reason: 'Nothing happens. You must hold the $1 to clean it.',
    unless: { state: 'agent.holding', equals: '$1' },
  },
  {
    kind: 'feedback',
    when: '^Nothing happens\\.$',
    text: 'check the preconditions of: {action}',
    to: 'hint',
  },
  { kind: 'truncate', max: 2, unit: 'sentences', keep: '\n\nYour task is to:' },
];

export interface MugScene {
  taskId: string;
  seed: number;
  mug: string;
  from: string;
  hideIn: string;
  setup: Action[];
}

const OPEN_SURFACES = new Set([
  'CounterTop',
  'DiningTable',
  'SideTable',
  'Shelf',
  'Desk',
  'CoffeeTable',
]);

/** The first clean-a-mug task (train split) and seed where a mug stands in plain sight. */
export async function findMugScene(maxTasks = 40, maxSeed = 4): Promise<MugScene> {
  const tasks = (await householdBridge.listTasks({ split: 'train' })).filter(
    (t) => t.type === 'pick_clean_then_place_in_recep' && t.meta?.objectType === 'Mug',
  );
  const env = await householdBridge.create();
  try {
    for (const task of tasks.slice(0, maxTasks)) {
      for (let seed = 0; seed <= maxSeed; seed++) {
        await env.reset({ taskId: task.id, seed });
        const view = env.getEnvState() as unknown as HouseholdStateView;
        const type = new Map(view.receptacles.map((r) => [r.name, r.type]));
        const mug = view.objects.find(
          (o) => o.type === 'Mug' && o.location && OPEN_SURFACES.has(type.get(o.location) ?? ''),
        );
        const hiding = view.receptacles.filter(
          (r) =>
            r.openable && r.open === false && canHold(r.type, 'Mug') && r.contents.length === 0,
        );
        const hide =
          hiding.find((r) => r.type === 'Drawer') ?? hiding.find((r) => r.type === 'Cabinet');
        if (!mug?.location || !hide) continue;
        const setup = [
          act(`go to ${mug.location}`),
          act(`take ${mug.name} from ${mug.location}`),
          act(`go to ${hide.name}`),
          act(`open ${hide.name}`),
          act(`move ${mug.name} to ${hide.name}`),
          act(`close ${hide.name}`),
        ];
        return {
          taskId: task.id,
          seed,
          mug: mug.name,
          from: mug.location,
          hideIn: hide.name,
          setup,
        };
      }
    }
  } finally {
    await env.close();
  }
  throw new Error('no household scene with a mug in plain sight and a closed cabinet');
}

/** A heat-the-potato task to chain after the mug. */
export async function potatoTaskId(): Promise<string> {
  const task = (await householdBridge.listTasks({ split: 'train' })).find(
    (t) => t.type === 'pick_heat_then_place_in_recep' && t.meta?.objectType === 'Potato',
  );
  if (!task) throw new Error('no heat-a-potato household task');
  return task.id;
}

/** The paper example; `contract` is hook code, or declarative rules. */
export function mugSpec(
  scene: MugScene,
  potato: string,
  contract: string | ContractRule[] = MUG_CONTRACT,
): HarnessSpec {
  return {
    version: 1,
    env: {
      type: 'chain',
      mode: 'sequential',
      carryContext: true,
      first: {
        type: 'contract',
        ...(typeof contract === 'string' ? { code: contract } : { rules: contract }),
        env: {
          type: 'stage',
          actions: scene.setup,
          env: { type: 'base', bridge: 'household', task: scene.taskId },
        },
      },
      second: { type: 'base', bridge: 'household', task: potato },
    },
  };
}
