// Household candidate templates. Set-ups are written from the state view right after reset (the
// designer sees the state, as in the paper) and replayed on a fresh environment before they are
// proposed, so a template never hands Validate a set-up the environment would reject.
import type { Action } from '../../../../bridges/core/types.ts';
import { canHold } from '../../../../bridges/household/data.ts';
import type { HouseholdStateView } from '../../../../bridges/household/state.ts';
import type { HarnessNode } from '../../../harness/spec.ts';
import type { DesignContext } from '../../types.ts';
import type { BridgeDesign, Structural } from './design.ts';
import { HOUSEHOLD_DEFECT_HINTS, householdFindings } from './household-findings.ts';

type View = HouseholdStateView;
type Obj = View['objects'][number];

const act = (command: string): Action => ({ name: 'act', args: { command } });

const APPLIANCE: Record<string, { verb: 'clean' | 'heat' | 'cool'; type: string }> = {
  pick_clean_then_place_in_recep: { verb: 'clean', type: 'SinkBasin' },
  pick_heat_then_place_in_recep: { verb: 'heat', type: 'Microwave' },
  pick_cool_then_place_in_recep: { verb: 'cool', type: 'Fridge' },
};

class StageBuilder {
  readonly commands: string[] = [];
  private at: string | null;
  private readonly open = new Map<string, boolean>();
  constructor(private readonly view: View) {
    this.at = view.agent.location;
    for (const r of view.receptacles) if (r.openable) this.open.set(r.name, r.open === true);
  }
  goTo(r: string): this {
    if (this.at !== r) this.commands.push(`go to ${r}`);
    this.at = r;
    return this;
  }
  openHere(r: string): this {
    if (this.open.get(r) === false) {
      this.goTo(r);
      this.commands.push(`open ${r}`);
      this.open.set(r, true);
    }
    return this;
  }
  closeHere(r: string): this {
    if (this.open.get(r) === true) {
      this.goTo(r);
      this.commands.push(`close ${r}`);
      this.open.set(r, false);
    }
    return this;
  }
  take(o: string, r: string): this {
    this.goTo(r).openHere(r);
    this.commands.push(`take ${o} from ${r}`);
    return this;
  }
  put(o: string, r: string): this {
    this.goTo(r).openHere(r);
    this.commands.push(this.view.dialect === 'move' ? `move ${o} to ${r}` : `put ${o} in/on ${r}`);
    return this;
  }
  raw(command: string): this {
    this.commands.push(command);
    return this;
  }
  isOpen(r: string): boolean | undefined {
    return this.open.get(r);
  }
  actions(): Action[] {
    return this.commands.map(act);
  }
}

function targets(view: View): Obj[] {
  const goalRec = view.task.receptacleType;
  const typeOf = new Map(view.receptacles.map((r) => [r.name, r.type]));
  return view.objects.filter(
    (o) =>
      o.type === view.task.objectType &&
      o.pickable &&
      !o.held &&
      o.location !== null &&
      (goalRec === null || typeOf.get(o.location) !== goalRec),
  );
}

async function replays(ctx: DesignContext, actions: Action[]): Promise<boolean> {
  if (actions.length === 0) return false;
  const out = await ctx.tryActions(actions);
  return out.length === actions.length && out.every((r) => !r.invalid);
}

/** Scaffold: open the closed receptacles that matter (where the goal objects are, the goal receptacles, the appliance). */
export async function openReceptacles(
  ctx: DesignContext,
  view: View,
): Promise<Structural | undefined> {
  const b = new StageBuilder(view);
  const appliance = APPLIANCE[view.task.type]?.type;
  const wanted = view.receptacles.filter(
    (r) =>
      r.openable &&
      r.open !== true &&
      (r.type === view.task.receptacleType ||
        r.type === appliance ||
        r.contents.some(
          (name) => view.objects.find((o) => o.name === name)?.type === view.task.objectType,
        )),
  );
  for (const r of wanted) b.openHere(r.name);
  const actions = b.actions();
  if (!(await replays(ctx, actions))) return undefined;
  return {
    name: 'open-receptacles',
    plan: { stage: actions },
    rationale: `Stage: open the ${wanted.length} closed receptacle(s) that hold a ${view.task.objectType.toLowerCase()} or that the goal needs (${wanted.map((r) => r.name).join(', ')}), so what the agent needs is in plain sight and reachable without typing \`open\`.`,
  };
}

/** Scaffold: pre-complete the pick-up sub-goal (and open a closed goal receptacle). */
export async function holdTarget(ctx: DesignContext, view: View): Promise<Structural | undefined> {
  const o = targets(view)[0];
  if (!o?.location) return undefined;
  const b = new StageBuilder(view);
  for (const r of view.receptacles)
    if (r.type === view.task.receptacleType && r.openable && r.open !== true) b.openHere(r.name);
  b.take(o.name, o.location);
  const actions = b.actions();
  if (!(await replays(ctx, actions))) return undefined;
  return {
    name: 'hold-target',
    plan: { stage: actions },
    rationale: `Stage: pre-complete the first sub-goal — the agent starts holding ${o.name} (taken from ${o.location})${b.commands.some((c) => c.startsWith('open ')) ? ' and the goal receptacle is already open' : ''}; only the rest of the task remains.`,
  };
}

/** Scaffold: pre-clean / heat / cool every goal object and put it back where it was. */
export async function preTransform(
  ctx: DesignContext,
  view: View,
): Promise<Structural | undefined> {
  const need = APPLIANCE[view.task.type];
  if (!need) return undefined;
  const appliance = view.receptacles.find((r) => r.type === need.type);
  if (!appliance) return undefined;
  const done: string[] = [];
  let kept: string[] = [];
  const b = new StageBuilder(view);
  for (const o of targets(view)) {
    if (!o.location) continue;
    const wasClosed = b.isOpen(o.location) === false;
    const before = b.commands.length;
    b.take(o.name, o.location).goTo(appliance.name);
    b.raw(`${need.verb} ${o.name} with ${appliance.name}`).put(o.name, o.location);
    if (wasClosed) b.closeHere(o.location);
    if (await replays(ctx, b.actions())) {
      kept = [...b.commands];
      done.push(o.name);
    } else {
      b.commands.splice(before);
      // The appliance may need opening first (microwave, fridge): try once more that way.
      b.openHere(appliance.name).take(o.name, o.location).goTo(appliance.name);
      b.raw(`${need.verb} ${o.name} with ${appliance.name}`).put(o.name, o.location);
      if (wasClosed) b.closeHere(o.location);
      if (await replays(ctx, b.actions())) {
        kept = [...b.commands];
        done.push(o.name);
      } else b.commands.splice(before);
    }
  }
  if (done.length === 0) return undefined;
  return {
    name: 'pre-transform',
    plan: { stage: kept.map(act) },
    rationale: `Stage: pre-complete the "${need.verb}" sub-goal — ${done.join(', ')} ${done.length === 1 ? 'is' : 'are'} ${need.verb === 'heat' ? 'heated' : `${need.verb}ed`} with ${appliance.name} and put back where ${done.length === 1 ? 'it was' : 'they were'}; the agent still has to find and place it.`,
  };
}

/** Harder: hide the goal objects that stand in plain sight inside closed receptacles. */
export async function hideTarget(ctx: DesignContext, view: View): Promise<Structural | undefined> {
  const recType = new Map(view.receptacles.map((r) => [r.name, r]));
  const visible = targets(view).filter((o) => {
    const r = o.location ? recType.get(o.location) : undefined;
    return r && (!r.openable || r.open === true);
  });
  if (visible.length === 0) return undefined;
  const hideIn = view.receptacles.filter(
    (r) =>
      r.openable &&
      r.open !== true &&
      canHold(r.type, view.task.objectType) &&
      r.type !== view.task.receptacleType,
  );
  if (hideIn.length === 0) return undefined;
  const b = new StageBuilder(view);
  const moved: string[] = [];
  visible.forEach((o, i) => {
    const into = hideIn[i % hideIn.length];
    if (!into || !o.location) return;
    b.take(o.name, o.location).put(o.name, into.name).closeHere(into.name);
    moved.push(`${o.name} -> ${into.name}`);
  });
  const actions = b.actions();
  if (!(await replays(ctx, actions))) return undefined;
  return {
    name: 'hide-target',
    plan: { stage: actions },
    rationale: `Stage: hide the ${view.task.objectType.toLowerCase()}(s) in plain sight inside closed receptacles (${moved.join(', ')}) — a small, local obstacle: the agent must open receptacles to find the object; the task stays solvable.`,
  };
}

/** @teaches tag lines make the lesson of a Contract explicit for co-evolution. */
export const SKIP_REPEATS_CONTRACT = `// Scaffold against action loops: a command that just failed is not replayed again (the agent
// looks around instead), and \`open\` on something that cannot be opened shows what is on it.
// @teaches avoid-repeating-failed-actions
let lastFailed = null;
export function filterAction(action, state) {
  const command = String(action.args.command ?? '').trim();
  if (command !== '' && command === lastFailed) return { name: action.name, args: { command: 'look' } };
  const m = /^open (.+)$/.exec(command);
  if (m) {
    const r = state.receptacles.find((x) => x.name === m[1]);
    if (r && !r.openable) return { name: action.name, args: { command: 'examine ' + m[1] } };
  }
  return action;
}
export function modifyTransition(action, result) {
  const command = String(action.args.command ?? '').trim();
  lastFailed = /^\\s*nothing happens\\.?\\s*$/i.test(result.observation.text) ? command : null;
  return result;
}
`;

/** Structured feedback: say what a closed receptacle means and what state the goal needs. */
export function feedbackContract(view: View): string {
  const need = APPLIANCE[view.task.type];
  const obj = view.task.objectType.toLowerCase();
  return `// Structured feedback: explain closed receptacles and the state the goal needs.
// @teaches open-closed-receptacles${need ? '\n// @teaches verify-state-before-placing' : ''}
export function modifyTransition(action, result) {
  let text = result.observation.text;
  const closed = /The ([a-z]+ \\d+) is closed\\./.exec(text);
  if (closed) text += '\\nHint: the ' + closed[1] + ' is closed — open it to see inside.';
${
  need
    ? `  const placed = /You (?:move|put) the (${obj} \\d+)/i.exec(text);
  if (placed) text += '\\nHint: the task needs a ${need.verb === 'heat' ? 'hot' : need.verb === 'cool' ? 'cool' : 'clean'} ${obj}; ${need.verb} it with the ${need.type.toLowerCase()} before placing it.';
`
    : ''
}  return text === result.observation.text ? result : { ...result, observation: { text } };
}
`;
}

/** Harder: keep only the first two sentences of long observations (the task line is kept). */
export const TRUNCATE_CONTRACT = `// Partial observability: only the first two sentences of each observation are shown.
export function filterObservation(observation) {
  const [body, ...rest] = observation.text.split('\\n\\nYour task is to:');
  const sentences = body.match(/[^.!?]+[.!?]+/g) ?? [body];
  const kept = sentences.slice(0, 2).join('').trim();
  return rest.length ? kept + '\\n\\nYour task is to:' + rest.join('') : kept;
}
`;

/** Harder: chain a second task in the same room after the first. */
export async function chainSecond(ctx: DesignContext, view: View): Promise<Structural | undefined> {
  const scene = /@scene(\d+)$/.exec(ctx.taskId)?.[0] ?? '';
  const other = (await ctx.listTasks({ split: view.task.split })).find(
    (t) =>
      t.meta?.layout === view.task.layout && t.id !== view.task.id && t.type !== view.task.type,
  );
  if (!other) return undefined;
  const second: HarnessNode = { type: 'base', bridge: 'household', task: `${other.id}${scene}` };
  return {
    name: 'chain-second-task',
    plan: { chain: second },
    rationale: `Chain: after the task, the agent must also "${other.goal}" in the same room; the composite succeeds only when both verifiers pass.`,
  };
}

/** The ordered structural candidates for a diagnosis: from the lightest to the strongest change. */
export function householdStructurals(
  view: View,
  label: string,
  direction: 'scaffold' | 'harder',
): ((ctx: DesignContext, view: View) => Promise<Structural | undefined>)[] {
  const contract =
    (name: string, code: string, rationale: string) => async (): Promise<Structural> => ({
      name,
      plan: { contracts: [code] },
      rationale,
    });
  const skipRepeats = contract(
    'skip-repeated-failures',
    SKIP_REPEATS_CONTRACT,
    'Contract: a command that just failed is turned into `look` instead of failing again, and `open` on a surface shows it instead — a loop costs one step, not five.',
  );
  const withStage =
    (
      first: typeof skipRepeats,
      second: (c: DesignContext, v: View) => Promise<Structural | undefined>,
    ) =>
    async (c: DesignContext, v: View): Promise<Structural | undefined> => {
      const a = await first();
      const s = await second(c, v);
      if (!s) return undefined;
      return {
        name: `${a.name}+${s.name}`,
        plan: { ...s.plan, contracts: [...(a.plan.contracts ?? []), ...(s.plan.contracts ?? [])] },
        rationale: `${a.rationale} ${s.rationale}`,
      };
    };
  if (direction === 'harder')
    return [
      hideTarget,
      chainSecond,
      async () => ({
        name: 'truncate-observations',
        plan: { contracts: [TRUNCATE_CONTRACT] },
        rationale:
          'Contract: partial observability — only the first two sentences of each observation are shown.',
      }),
    ];
  switch (label) {
    case 'never-opens-closed-receptacles':
      return [openReceptacles, holdTarget];
    case 'skips-required-transformation':
      return [
        preTransform,
        async () => ({
          name: 'feedback',
          plan: { contracts: [feedbackContract(view)] },
          rationale:
            'Contract: structured feedback — closed receptacles and the state the goal needs are spelled out.',
        }),
      ];
    case 'repeats-failed-actions':
    case 'invalid-action-streak':
    case 'invalid-action-loop':
      return [
        async () => skipRepeats(),
        withStage(skipRepeats, openReceptacles),
        withStage(skipRepeats, holdTarget),
      ];
    default:
      return [openReceptacles, holdTarget, preTransform];
  }
}

/** The household bridge's module for the heuristic designer (bridges.ts). */
export const householdDesign: BridgeDesign = {
  structurals(state, diagnosis) {
    const view = state as unknown as View;
    return householdStructurals(view, diagnosis.label, diagnosis.direction).map(
      (f) => (c: DesignContext) => f(c, view),
    );
  },
  findings: householdFindings,
  defectHints: HOUSEHOLD_DEFECT_HINTS,
};
