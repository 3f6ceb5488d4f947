// Writes server/policies/prompts/household.txt: the ReAct text mode's few-shot examples for the
// household bridge, in ALFWorld's style ("> " before each command, "think:" answered "OK."). Each
// example is an episode played here on the bridge itself (seed 0): the oracle's plan, preceded by a
// look at one receptacle the object is not in, so the example shows searching too; every line after
// a command is what the simulator answered. server/policies/react.test.ts replays them.
// Run: npx tsx scripts/react-household-examples.ts
import { writeFileSync } from 'node:fs';
import type { Action, ActionableEnv } from '../bridges/core/types.ts';
import { householdBridge } from '../bridges/household/index.ts';
import { oraclePlan } from '../bridges/household/oracle.ts';
import type { HouseholdStateView } from '../bridges/household/state.ts';

/** One task of each of these families, the first in the train split whose plan is short. */
const FAMILIES = [
  'pick_clean_then_place_in_recep',
  'pick_heat_then_place_in_recep',
  'look_at_obj_in_light',
] as const;

export const EXAMPLE_FILE = 'server/policies/prompts/household.txt';

const act = (command: string): Action => ({ name: 'act', args: { command } });
const lower = (type: string) => type.toLowerCase();

/** The thought before the first command: what the goal asks, in order. */
function plan(view: HouseholdStateView): string {
  const t = view.task;
  const obj = lower(t.objectType);
  if (t.type === 'look_at_obj_in_light')
    return `To do this, I need to find a ${obj}, take it, then find a ${lower(t.toggleType ?? 'lamp')} and turn it on while I hold the ${obj}.`;
  const how =
    t.type === 'pick_clean_then_place_in_recep'
      ? 'clean it with a sinkbasin'
      : t.type === 'pick_heat_then_place_in_recep'
        ? 'heat it with a microwave'
        : 'cool it with a fridge';
  return `To do this, I need to find a ${obj}, ${how}, then put it in a ${lower(t.receptacleType ?? '')}.`;
}

/** The thought once the object is in hand. */
function next(view: HouseholdStateView, taken: string): string {
  const t = view.task;
  if (t.type === 'look_at_obj_in_light')
    return `Now I hold ${taken}. Next, I go to the ${lower(t.toggleType ?? 'lamp')} and use it.`;
  const station =
    t.type === 'pick_clean_then_place_in_recep'
      ? 'clean it with the sinkbasin'
      : t.type === 'pick_heat_then_place_in_recep'
        ? 'heat it with the microwave'
        : 'cool it with the fridge';
  return `Now I hold ${taken}. Next, I ${station}, then put it in the ${lower(t.receptacleType ?? '')}.`;
}

async function example(env: ActionableEnv, taskId: string): Promise<string[] | undefined> {
  const start = await env.reset({ taskId, seed: 0 });
  const view = env.getEnvState() as unknown as HouseholdStateView;
  const commands = oraclePlan(view);
  if (commands.length === 0 || commands.length > 9) return undefined;
  const first = commands[0] ?? '';
  // One receptacle looked at first that is not where the plan goes: searching, as an agent would.
  const visited = new Set(commands.filter((c) => c.startsWith('go to ')).map((c) => c.slice(6)));
  const typeOf = new Map(view.objects.map((o) => [o.name, o.type]));
  const detour = view.receptacles.find(
    (r) =>
      !r.openable &&
      !visited.has(r.name) &&
      !r.contents.some((n) => typeOf.get(n) === view.task.objectType),
  )?.name;
  if (!first.startsWith('go to ') || !detour) return undefined;
  const lines = start.observation.text
    .replace(/^-= Welcome to TextWorld, ALFRED! =-\n\n/, '')
    .split('\n');
  lines.push(`> think: ${plan(view)}`, 'OK.');
  for (const command of [`go to ${detour}`, ...commands]) {
    const r = await env.step(act(command));
    lines.push(`> ${command}`, r.observation.text);
    if (command.startsWith('take '))
      lines.push(`> think: ${next(view, command.split(' ').slice(1, 3).join(' '))}`, 'OK.');
  }
  if (!(await env.evaluate()).success) return undefined;
  return lines;
}

/** The examples and the tasks they were played on. */
export async function householdExamples(): Promise<{ tasks: string[]; text: string }> {
  const tasks = await householdBridge.listTasks({ split: 'train' });
  const env = await householdBridge.create();
  const chosen: string[] = [];
  const blocks: string[] = [];
  try {
    for (const family of FAMILIES) {
      for (const task of tasks.filter((t) => t.type === family)) {
        const lines = await example(env, task.id);
        if (!lines) continue;
        chosen.push(task.id);
        blocks.push([`Example ${blocks.length + 1}.`, ...lines].join('\n'));
        break;
      }
    }
  } finally {
    await env.close();
  }
  const header = `<!-- Few-shot examples for the household bridge in ReAct text mode, in ALFWorld's style ("> " before
each command, "think:" for a thought, which the environment answers "OK."). Written for this
project by scripts/react-household-examples.ts from episodes played on our own household simulator
(${chosen.join(', ')}, seed 0); not taken from the ReAct repository. Everything above the first
example line is dropped. -->`;
  return { tasks: chosen, text: `${header}\n${blocks.join('\n\n')}\n` };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { tasks, text } = await householdExamples();
  writeFileSync(EXAMPLE_FILE, text);
  console.log(`wrote ${EXAMPLE_FILE} from ${tasks.join(', ')}`);
}
