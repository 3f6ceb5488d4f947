// The household simulator: ALFWorld's command grammar, preconditions (its PDDL domain), feedback
// strings and goal conditions over a plain SimState. Hot path: a step is one parse, one mutation and
// one admissible-command list, with every fixed string precomputed per episode.

import type { Json } from '../core/types.ts';
import {
  CLEANABLE,
  COOLABLE,
  canHold,
  HEATABLE,
  RECEPTACLE_OBJECTS,
  SLICEABLE,
  SLICERS,
} from './data.ts';
import {
  article,
  compareKeys,
  type Entity,
  HELP_MOVE,
  HELP_PUT,
  joinList,
  NOTHING_HAPPENS,
  receptacleTexts,
  sortKey,
  WELCOME,
} from './feedback.ts';
import { goalSatisfied, subgoals } from './goal.ts';
import { SimView } from './sim-view.ts';
import type { Dialect, HouseholdStateView, SimObject, SimReceptacle, SimState } from './state.ts';
import type { HouseholdTask } from './tasks.ts';

export { article, helpText, joinList, NOTHING_HAPPENS, WELCOME } from './feedback.ts';

export interface ExecResult {
  text: string;
  invalid: boolean;
}

const ok = (text: string): ExecResult => ({ text, invalid: false });
const FAIL: ExecResult = { text: NOTHING_HAPPENS, invalid: true };

/** ALFWorld 0.2's admissible template: `put X in/on Y`, nothing else. */
const RE_PUT_ARGS = /^(.+?) in\/on (.+)$/;
/** The lenient option: also `put X in Y` and `put X on Y` (older prompts write those). */
const RE_PUT_LENIENT = /^(.+?) (?:in\/on|in|on) (.+)$/;

/** `a<sep>b` -> [a, b]; without the separator the second part is empty (and names nothing). */
function split2(text: string, sep: string): [string, string] {
  const i = text.indexOf(sep);
  return i < 0 ? [text, ''] : [text.slice(0, i), text.slice(i + sep.length)];
}

export class HouseholdSim {
  readonly names: Map<string, Entity>;
  private readonly aNames: string[];
  /** Position of each object in ALFWorld's listing order. */
  private readonly rank: number[];
  /** `go to <r>` commands in admissible-list (string) order, with their receptacle index. */
  private readonly goCmds: { cmd: string; index: number }[];
  private readonly roomText: string;
  private readonly help: string;
  private readonly views: SimView;

  constructor(
    readonly task: HouseholdTask,
    readonly s: SimState,
    readonly dialect: Dialect,
    /** The put dialect also accepts `put X in Y` / `put X on Y` (not ALFWorld's grammar). */
    readonly lenientPut = false,
  ) {
    const fixed = receptacleTexts(s.recs);
    this.goCmds = fixed.goCmds;
    this.roomText = fixed.roomText;
    this.names = new Map(fixed.names);
    const keyed = s.objs.map((o, i) => {
      this.names.set(o.name, { kind: 'o', index: i });
      return { ...sortKey(o.name), i };
    });
    this.aNames = s.objs.map((o) => `${article(o.name)} ${o.name}`);
    this.rank = new Array<number>(s.objs.length);
    keyed.sort(compareKeys).forEach((o, position) => {
      this.rank[o.i] = position;
    });
    // Contents are kept in listing order (inserted in place on every move), so texts never sort.
    const byRank = (x: number, y: number): number =>
      (this.rank[x] as number) - (this.rank[y] as number);
    for (const r of s.recs) {
      if (r.contents.length > 1) r.contents.sort(byRank);
      if (r.nextTo.length > 1) r.nextTo.sort(byRank);
    }
    this.help = dialect === 'move' ? HELP_MOVE : HELP_PUT;
    this.views = new SimView(task, s, dialect);
  }

  // ---- texts -------------------------------------------------------------------------------

  private listOf(indices: readonly number[]): string {
    return joinList(indices.map((i) => this.aNames[i] as string));
  }

  examineReceptacle(r: SimReceptacle): string {
    if (r.openable) {
      return r.open
        ? `The ${r.name} is open. In it, you see ${this.listOf(r.contents)}.`
        : `The ${r.name} is closed.`;
    }
    return `On the ${r.name}, you see ${this.listOf(r.contents)}.`;
  }

  /** alfred.twl2 `examineObject.feedback`, rule by rule in its order. */
  examineObject(o: SimObject): string {
    const n = o.name;
    if (RECEPTACLE_OBJECTS.has(o.type)) return `This is a normal ${n}. In it, you see nothing.`;
    if (o.clean && o.hot && o.sliced) return `This is a hot and clean sliced ${n}.`;
    if (o.clean && o.cool && o.sliced) return `This is a cool and clean sliced ${n}.`;
    if (o.clean && o.sliced) return `This is a clean sliced ${n}.`;
    if (o.hot && o.sliced) return `This is a hot sliced ${n}.`;
    if (o.cool && o.sliced) return `This is a cool sliced ${n}.`;
    if (o.clean && o.hot) return `This is a hot and clean ${n}.`;
    if (o.clean && o.cool) return `This is a cool and clean ${n}.`;
    if (o.hot) return `This is a hot ${n}.`;
    if (o.clean) return `This is a clean ${n}.`;
    if (o.cool) return `This is a cold ${n}.`;
    if (o.toggleable) return `This ${n} is ${o.on ? 'on' : 'off'}.`;
    if (o.sliced) return `This is a sliced ${n}.`;
    return `There's nothing special about ${n}.`;
  }

  lookText(): string {
    const r = this.s.recs[this.s.agentLoc];
    if (!r) return this.roomText;
    return `You are facing the ${r.name}. Next to it, you see ${this.listOf(r.nextTo)}.`;
  }

  inventoryText(): string {
    const h = this.s.holding;
    return h < 0 ? 'You are not carrying anything.' : `You are carrying: ${this.aNames[h]}.`;
  }

  welcomeText(): string {
    return `${WELCOME}\n\n${this.roomText}\n\nYour task is to: ${this.task.goal}.`;
  }

  /**
   * ALFWorld's intro for the current state (a Stage's `intro: "state"`): the welcome line, where
   * the agent stands (ALFWorld's look text there, then the receptacles of the room), what that
   * receptacle shows, what the agent holds, and the task. Each sentence is one of ALFWorld's own
   * feedback strings; in the middle of the room it is the reset intro plus what the agent holds.
   */
  stateText(): string {
    const s = this.s;
    const here = s.recs[s.agentLoc];
    const lines: string[] = [];
    if (here) {
      lines.push(this.lookText());
      lines.push(this.roomText.replace('You are in the middle of a room. ', ''));
      lines.push(this.examineReceptacle(here));
    } else {
      lines.push(this.roomText);
    }
    if (s.holding >= 0) lines.push(this.inventoryText());
    return `${WELCOME}\n\n${lines.join('\n')}\n\nYour task is to: ${this.task.goal}.`;
  }

  /**
   * The Stage callback after a set-up replay (paper, appendix C.3): the episode's counters start
   * from zero at s0′, and the "has held a target" tally is what the agent holds now, not what the
   * set-up did.
   */
  resetCounters(): void {
    const s = this.s;
    s.steps = 0;
    s.invalidCount = 0;
    s.heldTarget = s.holding >= 0 && s.objs[s.holding]?.type === this.task.objectType;
  }

  // ---- preconditions -----------------------------------------------------------------------

  private visible(r: SimReceptacle): boolean {
    return !r.openable || r.open;
  }

  /** An object the agent can see or reach where it stands (or holds). */
  private atHand(o: number): boolean {
    const s = this.s;
    if (s.holding === o) return true;
    const obj = s.objs[o] as SimObject;
    if (obj.loc !== s.agentLoc || s.agentLoc < 0) return false;
    return obj.floor || this.visible(s.recs[obj.loc] as SimReceptacle);
  }

  private recep(name: string): number {
    const e = this.names.get(name);
    return e?.kind === 'r' ? e.index : -1;
  }

  private object(name: string): number {
    const e = this.names.get(name);
    return e?.kind === 'o' ? e.index : -1;
  }

  // ---- commands ----------------------------------------------------------------------------

  /** Parses and executes one command; preconditions failing -> `Nothing happens.` (invalid). */
  exec(raw: string): ExecResult {
    const cmd = raw.trim().toLowerCase().replace(/\s+/g, ' ');
    if (cmd === 'look') return ok(this.lookText());
    if (cmd === 'inventory') return ok(this.inventoryText());
    if (cmd === 'help') return ok(this.help);
    const space = cmd.indexOf(' ');
    if (space < 0) return FAIL;
    const verb = cmd.slice(0, space);
    const rest = cmd.slice(space + 1);
    switch (verb) {
      case 'go':
        return rest.startsWith('to ') ? this.goTo(rest.slice(3)) : FAIL;
      case 'open':
        return this.setOpen(rest, true);
      case 'close':
        return this.setOpen(rest, false);
      case 'take': {
        const [o, r] = split2(rest, ' from ');
        return this.take(o, r);
      }
      case 'move': {
        if (this.dialect !== 'move') return FAIL;
        const [o, r] = split2(rest, ' to ');
        return this.place(o, r);
      }
      case 'put': {
        const re = this.lenientPut ? RE_PUT_LENIENT : RE_PUT_ARGS;
        const m = this.dialect === 'put' ? re.exec(rest) : null;
        return m ? this.place(m[1] as string, m[2] as string) : FAIL;
      }
      case 'use':
        return this.use(rest);
      case 'heat':
      case 'cool':
      case 'clean': {
        const [o, r] = split2(rest, ' with ');
        return this.treat(verb, o, r);
      }
      case 'slice': {
        const [o, k] = split2(rest, ' with ');
        return this.slice(o, k);
      }
      case 'examine':
        return this.examine(rest);
      default:
        return FAIL;
    }
  }

  private goTo(name: string): ExecResult {
    const s = this.s;
    const r = this.recep(name);
    if (r < 0 || r === s.agentLoc) return FAIL;
    s.agentLoc = r;
    const rec = s.recs[r] as SimReceptacle;
    return ok(`You arrive at ${rec.name}. ${this.examineReceptacle(rec)}`);
  }

  private setOpen(name: string, open: boolean): ExecResult {
    const here = this.s.recs[this.s.agentLoc];
    if (!here || this.recep(name) !== this.s.agentLoc || !here.openable || here.open === open) {
      return FAIL;
    }
    here.open = open;
    this.touch(this.s.agentLoc, -1);
    return open
      ? ok(`You open the ${here.name}. ${this.examineReceptacle(here)}`)
      : ok(`You close the ${here.name}.`);
  }

  private take(objName: string, recName: string): ExecResult {
    const s = this.s;
    const here = s.recs[s.agentLoc];
    const o = this.object(objName);
    const r = this.recep(recName);
    if (!here || r !== s.agentLoc || o < 0 || s.holding >= 0 || !this.visible(here)) return FAIL;
    const obj = s.objs[o] as SimObject;
    if (obj.loc !== r || obj.floor || !obj.pickable) return FAIL;
    here.contents.splice(here.contents.indexOf(o), 1);
    obj.loc = -1;
    this.touch(r, o);
    s.holding = o;
    if (obj.type === this.task.objectType) s.heldTarget = true;
    return ok(`You pick up the ${obj.name} from the ${here.name}.`);
  }

  private place(objName: string, recName: string): ExecResult {
    const s = this.s;
    const here = s.recs[s.agentLoc];
    const o = this.object(objName);
    const r = this.recep(recName);
    if (!here || r !== s.agentLoc || o < 0 || s.holding !== o || !this.visible(here)) return FAIL;
    const obj = s.objs[o] as SimObject;
    if (!canHold(here.type, obj.type)) return FAIL;
    const rank = this.rank[o] as number;
    let at = here.contents.length;
    while (at > 0 && (this.rank[here.contents[at - 1] as number] as number) > rank) at--;
    here.contents.splice(at, 0, o);
    obj.loc = r;
    this.touch(r, o);
    s.holding = -1;
    return ok(
      this.dialect === 'move'
        ? `You move the ${obj.name} to the ${here.name}.`
        : `You put the ${obj.name} in/on the ${here.name}.`,
    );
  }

  private use(name: string): ExecResult {
    const o = this.object(name);
    if (o < 0 || !this.atHand(o)) return FAIL;
    const obj = this.s.objs[o] as SimObject;
    // ALFWorld's PDDL: ToggleObject requires `toggleable`; otherwise nothing happens.
    if (!obj.toggleable) return FAIL;
    // ALFWorld's ToggleObject sets isToggled, which never resets, and its feedback reads that flag:
    // every use reports "You turn on", and a lamp once switched on stays on.
    obj.on = true;
    this.touch(-1, o);
    return ok(`You turn on the ${obj.name}.`);
  }

  private treat(verb: 'heat' | 'cool' | 'clean', objName: string, recName: string): ExecResult {
    const s = this.s;
    const here = s.recs[s.agentLoc];
    const o = this.object(objName);
    if (!here || this.recep(recName) !== s.agentLoc || o < 0 || s.holding !== o) return FAIL;
    const obj = s.objs[o] as SimObject;
    if (verb === 'heat') {
      if (here.type !== 'Microwave' || !HEATABLE.has(obj.type)) return FAIL;
      obj.hot = true;
      obj.cool = false;
    } else if (verb === 'cool') {
      if (here.type !== 'Fridge' || !COOLABLE.has(obj.type)) return FAIL;
      obj.cool = true;
      obj.hot = false;
    } else {
      if (here.type !== 'SinkBasin' || !CLEANABLE.has(obj.type)) return FAIL;
      obj.clean = true;
    }
    this.touch(-1, o);
    return ok(`You ${verb} the ${obj.name} using the ${here.name}.`);
  }

  private slice(objName: string, knifeName: string): ExecResult {
    const s = this.s;
    const o = this.object(objName);
    const k = this.object(knifeName);
    if (o < 0 || k < 0 || s.holding !== k || o === k || !this.atHand(o)) return FAIL;
    const obj = s.objs[o] as SimObject;
    const knife = s.objs[k] as SimObject;
    // As in ALFWorld's SliceObject, slicing again is allowed (and changes nothing).
    if (!SLICERS.has(knife.type) || !SLICEABLE.has(obj.type)) return FAIL;
    obj.sliced = true;
    this.touch(-1, o);
    return ok(`You sliced the ${obj.name} with the ${knife.name}.`);
  }

  private examine(name: string): ExecResult {
    const s = this.s;
    const e = this.names.get(name);
    if (!e) return FAIL;
    if (e.kind === 'r') {
      const here = s.recs[s.agentLoc];
      return here && e.index === s.agentLoc ? ok(this.examineReceptacle(here)) : FAIL;
    }
    return this.atHand(e.index) ? ok(this.examineObject(s.objs[e.index] as SimObject)) : FAIL;
  }

  /**
   * Every command whose preconditions hold now, plus help, inventory and look — sorted as ALFWorld
   * (TextWorld) sorts them. The `go to` part is presorted; only the few others are sorted per step.
   */
  admissible(): string[] {
    const s = this.s;
    const at = s.agentLoc;
    const extras: string[] = ['help', 'inventory', 'look'];
    const here = s.recs[at];
    const h = s.holding;
    const held = s.objs[h];
    if (held) extras.push(`examine ${held.name}`);
    if (here) {
      const visible = this.visible(here);
      extras.push(`examine ${here.name}`);
      if (here.openable) extras.push(`${here.open ? 'close' : 'open'} ${here.name}`);
      for (const o of here.contents) {
        const obj = s.objs[o] as SimObject;
        if (obj.toggleable) extras.push(`use ${obj.name}`);
      }
      for (const o of here.nextTo) {
        const obj = s.objs[o] as SimObject;
        if (obj.toggleable) extras.push(`use ${obj.name}`);
      }
      if (visible) {
        if (h < 0) {
          for (const o of here.contents) {
            const obj = s.objs[o] as SimObject;
            if (obj.pickable) extras.push(`take ${obj.name} from ${here.name}`);
          }
        } else if (held && canHold(here.type, held.type)) {
          extras.push(
            this.dialect === 'move'
              ? `move ${held.name} to ${here.name}`
              : `put ${held.name} in/on ${here.name}`,
          );
        }
      }
      if (held) {
        if (here.type === 'Microwave' && HEATABLE.has(held.type)) {
          extras.push(`heat ${held.name} with ${here.name}`);
        }
        if (here.type === 'Fridge' && COOLABLE.has(held.type)) {
          extras.push(`cool ${held.name} with ${here.name}`);
        }
        if (here.type === 'SinkBasin' && CLEANABLE.has(held.type)) {
          extras.push(`clean ${held.name} with ${here.name}`);
        }
        if (visible && SLICERS.has(held.type)) {
          for (const o of here.contents) {
            const obj = s.objs[o] as SimObject;
            if (SLICEABLE.has(obj.type)) extras.push(`slice ${obj.name} with ${held.name}`);
          }
        }
      }
    }
    extras.sort();
    const out: string[] = [];
    let j = 0;
    for (const go of this.goCmds) {
      if (go.index === at) continue;
      while (j < extras.length && (extras[j] as string) < go.cmd) out.push(extras[j++] as string);
      out.push(go.cmd);
    }
    while (j < extras.length) out.push(extras[j++] as string);
    return out;
  }

  // ---- goal and view -----------------------------------------------------------------------

  /** ALFWorld's goal condition (PDDL equivalent) on the current state. */
  goalSatisfied(): boolean {
    return goalSatisfied(this.task, this.s);
  }

  /** Sub-goals in ALFWorld's order; the last is the goal itself. */
  subgoals(): boolean[] {
    return subgoals(this.task, this.s);
  }

  view(): HouseholdStateView {
    return this.views.view();
  }

  /** The value at a key path of view(), without building the world for a path outside it. */
  viewAt(path: readonly string[]): Json | undefined {
    return this.views.at(path);
  }

  /** Marks a changed receptacle and/or object (-1: none) so the next view() rebuilds just those. */
  private touch(rec: number, obj: number): void {
    this.views.touch(rec, obj);
  }
}
