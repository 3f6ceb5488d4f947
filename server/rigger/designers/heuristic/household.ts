// Household candidate templates. Set-ups are written from the state view right after reset (the
// designer sees the state, as in the paper) and replayed on a fresh environment before they are
// proposed, so a template never hands Validate a set-up the environment would reject.
import type { Action } from '../../../../bridges/core/types.ts';
import { canHold } from '../../../../bridges/household/data.ts';
import type { HouseholdStateView } from '../../../../bridges/household/state.ts';
import type { ContractRule } from '../../../../contracts/contract-rules.ts';
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

/**
 * Scaffold: open the closed receptacles that matter (where the goal objects are, the goal
 * receptacles, the appliance). The knob is the share opened (1: all of them), those holding a goal
 * object first.
 */
export async function openReceptacles(
  ctx: DesignContext,
  view: View,
  share = 1,
): Promise<Structural | undefined> {
  const b = new StageBuilder(view);
  const appliance = APPLIANCE[view.task.type]?.type;
  const holds = (r: View['receptacles'][number]) =>
    r.contents.some(
      (name) => view.objects.find((o) => o.name === name)?.type === view.task.objectType,
    );
  const wanted = view.receptacles
    .filter(
      (r) =>
        r.openable &&
        r.open !== true &&
        (r.type === view.task.receptacleType || r.type === appliance || holds(r)),
    )
    .sort((x, y) => Number(holds(y)) - Number(holds(x)));
  if (wanted.length === 0) return undefined;
  const count = Math.max(1, Math.round(wanted.length * share));
  const opened = wanted.slice(0, count);
  for (const r of opened) b.openHere(r.name);
  const actions = b.actions();
  if (!(await replays(ctx, actions))) return undefined;
  return {
    name: 'open-receptacles',
    plan: { stage: actions },
    rationale: `Stage: open ${opened.length} of the ${wanted.length} closed receptacle(s) that hold a ${view.task.objectType.toLowerCase()} or that the goal needs (${opened.map((r) => r.name).join(', ')}), so what the agent needs is in plain sight and reachable without typing \`open\`.`,
    ...(wanted.length > 1
      ? { knob: { value: share, min: 0, max: 1, harder: 'lower' as const } }
      : {}),
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
  // A policy whose every baseline episode already opens closed receptacles knows this lesson:
  // hiding the target behind a door would only cost it a step.
  const opens = ctx.baseline.episodes.filter((e) =>
    e.trajectory.some((st) => /^You open the /.test(st.observation.text)),
  );
  if (ctx.baseline.episodes.length > 0 && opens.length === ctx.baseline.episodes.length)
    return undefined;
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

/**
 * Scaffold against action loops: a command that failed is turned into `look` once it has been
 * retried `allowed` times (0: never retried), and `open` on something that cannot be opened shows
 * what is on it. `allowed` is the template's knob: the more retries it lets through, the weaker
 * the scaffold. @teaches tag lines make the lesson of a Contract explicit for co-evolution.
 */
export function skipRepeatsContract(allowed = 0): string {
  return `// Scaffold against action loops: a command that just failed is not replayed again after
// ${allowed} retr${allowed === 1 ? 'y' : 'ies'} (the agent looks around instead), and \`open\` on something that cannot be
// opened shows what is on it.
// @teaches avoid-repeating-failed-actions
const ALLOWED = ${allowed};
let lastFailed = null;
let retries = 0;
let replaced = false;
export function filterAction(action, state) {
  const command = String(action.args.command ?? '').trim();
  if (command !== '' && command === lastFailed) {
    retries += 1;
    if (retries > ALLOWED) {
      replaced = true;
      return { name: action.name, args: { command: 'look' } };
    }
  }
  const m = /^open (.+)$/.exec(command);
  if (m) {
    const r = state.receptacles.find((x) => x.name === m[1]);
    if (r && !r.openable) return { name: action.name, args: { command: 'examine ' + m[1] } };
  }
  return action;
}
export function modifyTransition(action, result) {
  // A replaced command keeps its count: the next repeat is replaced too.
  if (replaced) {
    replaced = false;
    return result;
  }
  const command = String(action.args.command ?? '').trim();
  const failed = /^\\s*nothing happens\\.?\\s*$/i.test(result.observation.text);
  if (!failed || command !== lastFailed) retries = 0;
  lastFailed = failed ? command : null;
  return result;
}
`;
}

/** The full scaffold (no retries), as the designer first tries it. */
export const SKIP_REPEATS_CONTRACT = skipRepeatsContract(0);

/**
 * Scaffold against blind opening: `open <r>` on a receptacle that cannot be opened is turned into
 * `examine <r>` (what is on it) with probability `redirect`, instead of failing. The knob is
 * `redirect`: the lower, the weaker the scaffold.
 */
export function redirectOpenContract(redirect: number): string {
  return `// Scaffold against blind opening: \`open <r>\` on something that cannot be opened is turned into
// \`examine <r>\` with probability ${redirect}, so the agent sees what is on it instead of failing.
// The lesson: read what a receptacle is before trying to open it.
// @teaches avoid-repeating-failed-actions
const REDIRECT = ${redirect};
export function filterAction(action, state) {
  const m = /^open (.+)$/.exec(String(action.args.command ?? '').trim().toLowerCase());
  if (!m) return action;
  const r = state.receptacles.find((x) => x.name === m[1]);
  if (r && !r.openable && Math.random() < REDIRECT)
    return { name: action.name, args: { command: 'examine ' + m[1] } };
  return action;
}
`;
}

/** ALFWorld's list join, in hook code (`a x 1, and a y 1`; `nothing` when empty). */
const THIN_LIST = `function thin(list, keep) {
  const items = list === 'nothing' ? [] : list.split(/, and |, | and /);
  const kept = items.filter(() => Math.random() < keep);
  if (kept.length === 0) return 'nothing';
  if (kept.length === 1) return kept[0];
  return kept.slice(0, -1).join(', ') + ', and ' + kept[kept.length - 1];
}`;

/**
 * Harder: a glance misses things. Arriving at or opening a receptacle lists each object in it with
 * probability `shown`; \`examine <receptacle>\` lists everything. The knob is `shown`.
 */
export function glanceContract(shown: number): string {
  return `// Partial observability, a glance: arriving at or opening a receptacle lists each object in it
// with probability ${shown}; \`examine <receptacle>\` lists everything. The lesson: a first look can
// miss things — examine a place, or look again, before moving on.
// @teaches examine-receptacles
const SHOWN = ${shown};
${THIN_LIST}
export function modifyTransition(action, result) {
  const command = String(action.args.command ?? '').trim().toLowerCase();
  if (!/^(go to|open) /.test(command)) return result;
  const text = result.observation.text.replace(/(you see )(.+?)(\\.)$/, (m, a, list, dot) => a + thin(list, SHOWN) + dot);
  return text === result.observation.text ? result : { ...result, observation: { text } };
}
`;
}

/**
 * Harder: the room description is partial. It lists each receptacle with probability `listed` (at
 * least one); every place is still reachable, and the admissible commands still name them all.
 */
export function partialRoomContract(listed: number): string {
  return `// Partial observability of the room: its description lists each receptacle with probability
// ${listed} (at least one). Every place is still there — the admissible commands name them all. The
// lesson: a description is not the whole room; explore beyond what it lists.
// @teaches explore-unlisted-places
const LISTED = ${listed};
${THIN_LIST}
export function filterObservation(observation) {
  const re = /(Looking quickly around you, you see )(.+?)(\\.)(\\n|$)/;
  const m = re.exec(observation.text);
  if (!m) return observation;
  let list = thin(m[2], LISTED);
  if (list === 'nothing') list = m[2].split(/, and |, | and /)[0];
  return { ...observation, text: observation.text.replace(re, m[1] + list + m[3] + m[4]) };
}
`;
}

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

/**
 * Harder: keep only the first two sentences of long observations (the task line is kept). A
 * declarative rule: it runs natively, no sandbox.
 */
export const TRUNCATE_RULES: ContractRule[] = [
  { kind: 'truncate', max: 2, unit: 'sentences', keep: '\n\nYour task is to:' },
];

/** Harder: a glance misses things (glanceContract); the knob is the share of objects shown. */
export async function glance(
  _ctx: DesignContext,
  _view: View,
  shown = 0.5,
): Promise<Structural | undefined> {
  return {
    name: 'glance',
    plan: { contracts: [glanceContract(shown)] },
    rationale: `Contract: partial observability — arriving at or opening a receptacle lists each object in it with probability ${shown}; \`examine\` lists everything. A small, local perturbation that rewards looking twice.`,
    knob: { value: shown, min: 0, max: 1, harder: 'lower' },
  };
}

/** Harder: a partial room description (partialRoomContract); the knob is the share listed. */
export async function partialRoom(
  _ctx: DesignContext,
  view: View,
  listed = 0.6,
): Promise<Structural | undefined> {
  if (view.receptacles.length < 3) return undefined;
  return {
    name: 'partial-room',
    plan: { contracts: [partialRoomContract(listed)] },
    rationale: `Contract: partial observability of the room — the description lists each of its ${view.receptacles.length} receptacles with probability ${listed}; the admissible commands still name every place. It rewards exploring beyond the description.`,
    knob: { value: listed, min: 0, max: 1, harder: 'lower' },
  };
}

/**
 * Harder: noisy handling. Each `take` is refused with probability `slip` ("The <o> slips from
 * your hands."), before it reaches the environment, so the state stays as it was; the same take
 * may well work the next time.
 */
export function slipperyContract(slip: number): string {
  return `// Transition noise: each take fails with probability ${slip} — the object slips from the
// agent's hands and stays where it was. The lesson: an action that failed by chance may work
// when tried again.
// @teaches retry-chance-failures
const SLIP = ${slip};
export function filterAction(action) {
  const m = /^take (.+?) from /.exec(String(action.args.command ?? '').trim().toLowerCase());
  if (m && Math.random() < SLIP) return { blocked: 'The ' + m[1] + ' slips from your hands.' };
  return action;
}
`;
}

/**
 * Harder: noisy handling (slipperyContract). The knob is the expected number of slips before a
 * take holds, s (a take slips with probability s / (s + 1)): a persistent agent pays s steps a
 * grasp, so the knob is graded where a probability would bunch up near 1.
 */
export async function slippery(
  _ctx: DesignContext,
  _view: View,
  slips = 3,
): Promise<Structural | undefined> {
  const slip = Math.round((slips / (slips + 1)) * 1000) / 1000;
  return {
    name: 'slippery-hands',
    plan: { contracts: [slipperyContract(slip)] },
    rationale: `Contract: transition noise — each \`take\` fails with probability ${slip} (about ${slips} slip${slips === 1 ? '' : 's'} before a grasp holds; the object stays where it was). It rewards trying a failed grasp again.`,
    knob: { value: slips, min: 0, max: 16, harder: 'higher' },
  };
}

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

type HouseholdMaker = (
  ctx: DesignContext,
  view: View,
  knob?: number,
) => Promise<Structural | undefined>;

/**
 * Which partial-observability or noise template a task family meets first (the others follow):
 * heat and cool need an appliance somewhere in the room, so a partial room description bites;
 * pick and look hinge on spotting one object, so a glance that misses things does; pick-two and
 * clean handle objects most (two pick-ups; take, clean, place), so noisy handling does.
 */
export const FIRST_HARDER: Record<string, 'glance' | 'partial-room' | 'slippery-hands'> = {
  pick_and_place_simple: 'glance',
  look_at_obj_in_light: 'glance',
  pick_heat_then_place_in_recep: 'partial-room',
  pick_cool_then_place_in_recep: 'partial-room',
  pick_two_obj_and_place: 'slippery-hands',
  pick_clean_then_place_in_recep: 'slippery-hands',
};

/** Loop scaffolds: these families meet `redirect-blind-opens` first, the others `skip-repeated-failures`. */
export const REDIRECT_FIRST: ReadonlySet<string> = new Set([
  'pick_clean_then_place_in_recep',
  'pick_heat_then_place_in_recep',
  'pick_cool_then_place_in_recep',
]);

/**
 * The ordered structural candidates for a diagnosis, from the lightest change to the strongest.
 * Harder: hide the target where it stands in plain sight (the agent must open things), then the
 * family's first perturbation with a knob (FIRST_HARDER) and the other two, then a Chain (opt-in,
 * beyond the paper) and truncated observations. Scaffold: what the diagnosis names, weakest first.
 */
export function householdStructurals(
  view: View,
  label: string,
  direction: 'scaffold' | 'harder',
): HouseholdMaker[] {
  const skipRepeats: HouseholdMaker = async (_c, _v, allowed = 0) => ({
    name: 'skip-repeated-failures',
    plan: { contracts: [skipRepeatsContract(allowed)] },
    rationale: `Contract: a command that failed is turned into \`look\` after ${allowed} retr${allowed === 1 ? 'y' : 'ies'} instead of failing again, and \`open\` on a surface shows it instead — a loop costs ${allowed + 1} step${allowed === 0 ? '' : 's'}, not five.`,
    knob: { value: allowed, min: 0, max: 6, harder: 'higher', integer: true },
  });
  const withStage =
    (second: HouseholdMaker): HouseholdMaker =>
    async (c, v) => {
      const a = await skipRepeats(c, v);
      const s = await second(c, v);
      if (!a || !s) return undefined;
      return {
        name: `${a.name}+${s.name}`,
        plan: { ...s.plan, contracts: [...(a.plan.contracts ?? []), ...(s.plan.contracts ?? [])] },
        rationale: `${a.rationale} ${s.rationale}`,
      };
    };
  const redirectOpen: HouseholdMaker = async (_c, _v, redirect = 1) => ({
    name: 'redirect-blind-opens',
    plan: { contracts: [redirectOpenContract(redirect)] },
    rationale: `Contract: \`open\` on a surface that cannot be opened is turned into \`examine\` with probability ${redirect} — the futile action shows what is there instead of failing (and being retried).`,
    knob: { value: redirect, min: 0, max: 1, harder: 'lower' },
  });
  if (direction === 'harder') {
    const knobbed: Record<string, HouseholdMaker> = {
      glance,
      'partial-room': partialRoom,
      'slippery-hands': slippery,
    };
    const first = FIRST_HARDER[view.task.type] ?? 'glance';
    return [
      hideTarget,
      knobbed[first] as HouseholdMaker,
      ...Object.entries(knobbed)
        .filter(([name]) => name !== first)
        .map(([, make]) => make),
      chainSecond,
      async () => ({
        name: 'truncate-observations',
        plan: { contracts: [TRUNCATE_RULES] },
        rationale:
          'Contract: partial observability — only the first two sentences of each observation are shown.',
      }),
    ];
  }
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
    case 'invalid-action-loop': {
      // Two scaffolds with a knob, the family's first: tasks that handle an appliance or two
      // objects wander through more surfaces, where blind opening is the loop's usual start.
      const redirectFirst = REDIRECT_FIRST.has(view.task.type);
      return [
        ...(redirectFirst ? [redirectOpen, skipRepeats] : [skipRepeats, redirectOpen]),
        withStage(openReceptacles),
        withStage(holdTarget),
      ];
    }
    default:
      return [openReceptacles, holdTarget, preTransform];
  }
}

/** The household bridge's module for the heuristic designer (bridges.ts). */
export const householdDesign: BridgeDesign = {
  structurals(state, diagnosis) {
    const view = state as unknown as View;
    return householdStructurals(view, diagnosis.label, diagnosis.direction).map(
      (f) => (c: DesignContext, knob?: number) => f(c, view, knob),
    );
  },
  findings: householdFindings,
  defectHints: HOUSEHOLD_DEFECT_HINTS,
};
