// One configurable scripted household agent; the four registered household policies are settings of
// it, each with a flaw switched on. It reads only what an agent sees: the goal, the feedback text and
// info.admissibleCommands. Beliefs (where things are, what it holds) come from parsing that text.
import type { Observation, StepInfo } from '../../../bridges/core/types.ts';
import { createRng, mixSeed, randomInt, shuffled } from '../rng.ts';
import type { SkillTag } from '../skills.ts';
import type { AgentSession, PolicyContext, PolicyDecision } from '../types.ts';
import { type HouseholdGoal, parseGoal, requiredState } from './goal.ts';
import {
  escapeRe,
  isNothingHappens,
  parseList,
  parseObjectState,
  parseReceptacleView,
  parseRoom,
  typeOf,
} from './observation.ts';

export interface HouseholdFlaws {
  /** Never issues `open` (closed receptacles stay unexplored; closed targets cannot be filled). */
  neverOpens?: boolean;
  /** Skips cleaning / heating / cooling: places the object as found. */
  skipsTransform?: boolean;
  /** Tries `open` on every receptacle it arrives at without reading what it shows. */
  opensBlindly?: boolean;
  /** Retries a command that got "Nothing happens." this many extra times (seeded in [lo, hi]). */
  retriesFailed?: [number, number];
}

interface View {
  state: 'closed' | 'open' | 'surface';
  contents: string[];
}

/** The verbs of the commands that name what is held (inferFromAdmissible's pattern). */
const HELD_VERB = /^(?:move|put|heat|cool|clean) /;

const APPLIANCE: Record<'clean' | 'heat' | 'cool', string> = {
  clean: 'sinkbasin',
  heat: 'microwave',
  cool: 'fridge',
};

type Next = { command: string; note: string } | { giveUp: string };

export class HouseholdAgent implements AgentSession {
  private readonly tool: { name: string; arg: string };
  private readonly rng: () => number;
  private readonly retries: number;
  private readonly opens: boolean;
  private readonly verifies: boolean;
  private readonly transforms: boolean;
  private readonly learnsFromFailure: boolean;
  private readonly priors: Record<string, string[]>;

  private goal: HouseholdGoal | undefined;
  private goalText = '';
  private order: string[] = [];
  private views = new Map<string, View>();
  private nearby = new Map<string, string[]>();
  private location: string | undefined;
  /** undefined: not known (e.g. a Stage may have handed us something); null: known empty. */
  private holding: string | null | undefined = null;
  private states = new Map<string, { hot: boolean; cool: boolean; clean: boolean }>();
  private lampOn = new Set<string>();
  private failed = new Map<string, number>();
  private failedPatterns = new Set<string>();
  private triedOpen = new Set<string>();
  private examined = new Set<string>();
  private searched = new Set<string>();
  private passes = 0;
  private lastCommand: string | undefined;
  private handsChecked = false;
  private admissible: string[] | undefined;

  constructor(
    private readonly context: PolicyContext,
    private readonly flaws: HouseholdFlaws,
    skills: Set<SkillTag>,
    label: string,
  ) {
    this.tool = context.textTool ?? { name: 'act', arg: 'command' };
    this.rng = createRng(mixSeed(context.seed, label));
    this.opens = !flaws.neverOpens || skills.has('open-closed-receptacles');
    this.verifies = skills.has('verify-state-before-placing');
    this.transforms = !flaws.skipsTransform;
    this.learnsFromFailure = skills.has('avoid-repeating-failed-actions');
    const [lo, hi] = flaws.retriesFailed ?? [0, 0];
    this.retries = this.learnsFromFailure ? 0 : randomInt(this.rng, lo, hi);
    const priors = context.options?.searchPriors;
    this.priors = {};
    if (priors && typeof priors === 'object' && !Array.isArray(priors)) {
      for (const [k, v] of Object.entries(priors)) {
        if (Array.isArray(v)) this.priors[k] = v.filter((x): x is string => typeof x === 'string');
      }
    }
  }

  async act(observation: Observation, info: StepInfo): Promise<PolicyDecision> {
    const text = observation.text;
    this.admissible = Array.isArray(info.admissibleCommands) ? info.admissibleCommands : undefined;
    this.absorb(text);

    if (!this.goal) {
      this.goal = parseGoal(this.goalText || this.context.task.goal);
      if (!this.goal) return { kind: 'give_up', reason: 'could not parse the goal' };
    }

    // The flaw of the looper: a failed command is assumed to be a fluke and typed again.
    const last = this.lastCommand;
    if (last && isNothingHappens(text)) {
      const n = (this.failed.get(last) ?? 0) + 1;
      this.failed.set(last, n);
      if (this.learnsFromFailure) this.failedPatterns.add(pattern(last));
      if (n <= this.retries) return this.emit({ command: last, note: 'retry the failed command' });
    }

    return this.emit(this.decide());
  }

  private emit(next: Next): PolicyDecision {
    if ('giveUp' in next) return { kind: 'give_up', reason: next.giveUp };
    this.lastCommand = next.command;
    return {
      kind: 'act',
      action: { name: this.tool.name, args: { [this.tool.arg]: next.command } },
      note: next.note,
    };
  }

  // ---- beliefs -------------------------------------------------------------------------------

  private absorb(text: string): void {
    const goalLine = /your task is to:\s*(.+)/i.exec(text)?.[1];
    if (goalLine && goalLine.trim() !== this.goalText) {
      // A new task (first observation, or the next leg of a Chain): start from a clean slate.
      this.resetBeliefs();
      this.goalText = goalLine.trim();
      this.goal = parseGoal(this.goalText);
    }
    const room = parseRoom(text);
    if (room && room.length > 0) this.setRoom(room);
    if (this.order.length === 0 && this.admissible) {
      const targets = this.admissible
        .map((c) => /^go to (.+)$/.exec(c)?.[1])
        .filter((x): x is string => x !== undefined);
      if (targets.length > 0) this.setRoom(targets);
    }

    this.inferFromAdmissible();
    const arrived = /you arrive at (?:the )?([a-z]+ \d+)/i.exec(text)?.[1]?.toLowerCase();
    if (arrived) this.location = arrived;
    // Things standing next to a receptacle (floor lamps) show only in `look` or as `use X` commands.
    const here = this.location;
    if (here) {
      const near = new Set(this.nearby.get(here) ?? []);
      const nextTo = /next to it, you see (.+?)\.\s*$/im.exec(text)?.[1];
      if (nextTo) for (const o of parseList(nextTo)) near.add(o);
      for (const c of this.admissible ?? []) {
        const used = argumentOf(c, 'use ');
        if (used) near.add(used);
      }
      this.nearby.set(here, [...near]);
    }
    const view = parseReceptacleView(text, this.location);
    if (view) {
      this.views.set(view.receptacle, { state: view.state, contents: view.contents });
      if (view.state !== 'closed' || !this.opens) this.searched.add(view.receptacle);
    }

    const took = /you pick up the ([a-z]+ \d+) from the ([a-z]+ \d+)/i.exec(text);
    if (took?.[1] && took[2]) {
      this.holding = took[1];
      this.remove(took[2], took[1]);
      this.failed.clear();
      this.handsChecked = false;
    }
    const put = /you (?:move|put) the ([a-z]+ \d+) (?:to|in|on|in\/on) the ([a-z]+ \d+)/i.exec(
      text,
    );
    if (put?.[1] && put[2]) {
      this.holding = null;
      const v = this.views.get(put[2]);
      if (v && !v.contents.includes(put[1])) v.contents.push(put[1]);
      this.failed.clear();
      this.handsChecked = false;
    }
    const changed = /you (clean|heat|cool) the ([a-z]+ \d+) using/i.exec(text);
    if (changed?.[1] && changed[2]) {
      const s = this.states.get(changed[2]) ?? { hot: false, cool: false, clean: false };
      if (changed[1] === 'clean') s.clean = true;
      if (changed[1] === 'heat') s.hot = true;
      if (changed[1] === 'cool') s.cool = true;
      this.states.set(changed[2], s);
    }
    const examined = /this is an? .+? ([a-z]+ \d+)\./i.exec(text)?.[1];
    if (examined) this.states.set(examined, parseObjectState(text));
    if (/there's nothing special about ([a-z]+ \d+)/i.test(text)) {
      const o = /there's nothing special about ([a-z]+ \d+)/i.exec(text)?.[1];
      if (o) this.states.set(o, { hot: false, cool: false, clean: false });
    }
    const on = /you turn on the ([a-z]+ \d+)/i.exec(text)?.[1];
    if (on) this.lampOn.add(on);
    const off = /you turn off the ([a-z]+ \d+)/i.exec(text)?.[1];
    if (off) this.lampOn.delete(off);
    if (/you are not carrying anything/i.test(text)) this.holding = null;
    const carrying = /you are carrying:\s*\[?(.*?)\]?\.?\s*$/im.exec(text)?.[1];
    if (carrying !== undefined && !/not carrying/i.test(text)) {
      this.holding = parseList(carrying)[0] ?? null;
    }
  }

  /**
   * A Stage may have moved us or put something in our hands while the observation still reads like
   * the start: the admissible commands tell where we stand (the one receptacle we cannot `go to`) and
   * what we hold (something we could put down).
   */
  private inferFromAdmissible(): void {
    const list = this.admissible;
    if (!list || this.order.length === 0) return;
    // Every step reads the whole list: each pattern is tried only on the commands that start
    // with its verb (a cheap test), which is most of this method's cost otherwise.
    const goTargets = new Set<string>();
    for (const c of list) {
      const target = argumentOf(c, 'go to ');
      if (target !== undefined) goTargets.add(target);
    }
    if (goTargets.size > 0) {
      // The one receptacle of the room we cannot `go to` (none or several: nothing to infer).
      let missing: string | undefined;
      let count = 0;
      for (const r of this.order) {
        if (goTargets.has(r)) continue;
        missing = r;
        if (++count > 1) break;
      }
      if (count === 1 && missing !== this.location) this.location = missing;
    }
    for (const c of list) {
      if (!HELD_VERB.test(c)) continue;
      const held = /^(?:move (.+?) to |put (.+?) in\/on |(?:heat|cool|clean) (.+?) with )/.exec(c);
      const name = held?.[1] ?? held?.[2] ?? held?.[3];
      if (name) {
        this.holding = name;
        return;
      }
    }
  }

  private resetBeliefs(): void {
    this.order = [];
    this.views.clear();
    this.nearby.clear();
    this.location = undefined;
    this.holding = null;
    this.states.clear();
    this.lampOn.clear();
    this.failed.clear();
    this.triedOpen.clear();
    this.examined.clear();
    this.searched.clear();
    this.passes = 0;
    this.lastCommand = undefined;
    this.handsChecked = false;
  }

  private setRoom(receptacles: string[]): void {
    const fresh = receptacles.map((r) => r.toLowerCase());
    if (this.order.length > 0 && fresh.every((r) => this.order.includes(r))) return;
    const goalObject = this.goal?.object ?? parseGoal(this.goalText)?.object ?? '';
    const preferred = this.priors[goalObject] ?? [];
    // Seeded order, with search priors (EvoHarness experience) first when given.
    const base = shuffled(fresh, this.rng);
    const rank = (r: string) => {
      const i = preferred.indexOf(typeOf(r));
      return i < 0 ? preferred.length : i;
    };
    this.order = base
      .map((r, i) => ({ r, i }))
      .sort((a, b) => rank(a.r) - rank(b.r) || a.i - b.i)
      .map((x) => x.r);
  }

  private remove(receptacle: string, object: string): void {
    const v = this.views.get(receptacle);
    if (v) v.contents = v.contents.filter((o) => o !== object);
  }

  // ---- decisions ------------------------------------------------------------------------------

  private decide(): Next {
    const goal = this.goal;
    if (!goal) return { giveUp: 'could not parse the goal' };

    if (this.order.length === 0) {
      if (this.lastCommand === 'look') return { giveUp: 'cannot tell which receptacles exist' };
      return { command: 'look', note: 'find out what is in the room' };
    }

    // Someone (a Stage, a harness) may have put something in our hands: ask once.
    if (this.holding === undefined) return { command: 'inventory', note: 'check what I hold' };
    const last = this.lastCommand;
    if (last?.startsWith('take ') && this.failed.has(last) && !this.handsChecked) {
      this.handsChecked = true;
      return { command: 'inventory', note: 'take failed: check my hands' };
    }

    // The looper's flaw: it tries to open whatever it just arrived at.
    if (this.flaws.opensBlindly && this.location && !this.triedOpen.has(this.location)) {
      this.triedOpen.add(this.location);
      const v = this.views.get(this.location);
      if (v?.state !== 'open' && this.allowed(`open ${this.location}`)) {
        return { command: `open ${this.location}`, note: 'open it to look inside' };
      }
    }

    return goal.kind === 'look' ? this.decideLook(goal) : this.decidePlace(goal);
  }

  private decideLook(goal: HouseholdGoal): Next {
    const holding = this.holding;
    if (holding && typeOf(holding) !== goal.object) return this.putDown(holding);
    if (!holding) {
      const found = this.findObject(goal.object, () => true);
      return found ?? this.search(`the ${goal.object}`);
    }
    const toggle = goal.toggle ?? '';
    const lamps = this.known(toggle).filter((l) => !this.failed.has(`use ${l.object}`));
    const lamp = lamps[0];
    if (!lamp) return this.search(`a ${toggle}`);
    if (this.location !== lamp.receptacle) return this.goTo(lamp.receptacle);
    if (this.lampOn.has(lamp.object)) return { giveUp: 'holding the object under a lit lamp' };
    return { command: `use ${lamp.object}`, note: 'light it' };
  }

  private decidePlace(goal: HouseholdGoal): Next {
    const target = goal.receptacle ?? '';
    const need = goal.kind === 'pick2' ? 2 : 1;
    let placed = 0;
    for (const [r, v] of this.views) {
      if (typeOf(r) !== target) continue;
      for (const o of v.contents) if (typeOf(o) === goal.object) placed++;
    }
    const holding = this.holding;
    if (placed >= need && !holding) return { giveUp: 'the goal looks complete' };

    if (holding && typeOf(holding) !== goal.object) return this.putDown(holding);
    if (!holding) {
      // Objects already in a target receptacle count towards the goal: never take them back out.
      const found = this.findObject(goal.object, (r) => typeOf(r) !== target);
      return found ?? this.search(`a ${goal.object}`);
    }

    const state = requiredState(goal);
    if (state && goal.kind !== 'pick' && goal.kind !== 'pick2') {
      const s = this.states.get(holding);
      const has = s ? s[state] : false;
      if (!has) {
        if (this.transforms) return this.transform(goal.kind as 'clean' | 'heat' | 'cool', holding);
        if (this.verifies) {
          if (!this.examined.has(holding)) {
            this.examined.add(holding);
            return { command: `examine ${holding}`, note: 'check its state before placing' };
          }
          return this.transform(goal.kind as 'clean' | 'heat' | 'cool', holding);
        }
      }
    }
    return this.place(holding, target);
  }

  private transform(kind: 'clean' | 'heat' | 'cool', object: string): Next {
    const type = APPLIANCE[kind];
    const appliance = this.order.find(
      (r) => typeOf(r) === type && !this.failed.has(`${kind} ${object} with ${r}`),
    );
    if (!appliance) {
      // Tried every appliance: place it anyway rather than hold it forever.
      return this.place(object, this.goal?.receptacle ?? '');
    }
    if (this.location !== appliance) return this.goTo(appliance);
    const command = `${kind} ${object} with ${appliance}`;
    return { command, note: `${kind} it` };
  }

  private place(object: string, targetType: string): Next {
    const candidates = this.order.filter((r) => typeOf(r) === targetType);
    for (const r of candidates) {
      const forms = this.placeForms(object, r);
      const untried = forms.filter((c) => !this.failed.has(c));
      if (untried.length === 0) continue;
      const v = this.views.get(r);
      if (this.location !== r) return this.goTo(r);
      if (v?.state === 'closed') {
        if (!this.opens) continue;
        if (!this.failed.has(`open ${r}`))
          return { command: `open ${r}`, note: 'open it to put inside' };
        continue;
      }
      const command = untried[0];
      if (command) return { command, note: 'place it' };
    }
    return { giveUp: `could not place the ${object}` };
  }

  private placeForms(object: string, r: string): string[] {
    const re = new RegExp(`^(?:move|put) ${escapeRe(object)} (?:to|in|on|in/on) ${escapeRe(r)}$`);
    const admissible =
      this.admissible?.filter(
        (c) => (c.startsWith('move ') || c.startsWith('put ')) && re.test(c),
      ) ?? [];
    const forms = [...admissible, `move ${object} to ${r}`, `put ${object} in/on ${r}`];
    return [...new Set(forms)].filter((c) => this.allowed(c));
  }

  private putDown(object: string): Next {
    const here = this.location;
    if (here && this.views.get(here)?.state !== 'closed') {
      const command = `move ${object} to ${here}`;
      if (!this.failed.has(command)) return { command, note: 'free my hands' };
    }
    const surface = this.order.find(
      (r) => this.views.get(r)?.state === 'surface' && !this.failed.has(`move ${object} to ${r}`),
    );
    if (surface)
      return this.location === surface
        ? { command: `move ${object} to ${surface}`, note: 'free my hands' }
        : this.goTo(surface);
    return { giveUp: `holding ${object} and nowhere to put it` };
  }

  /** Go to and take a known object of the type, from a receptacle the filter allows. */
  private findObject(type: string, where: (receptacle: string) => boolean): Next | undefined {
    for (const { object, receptacle } of this.known(type)) {
      if (!where(receptacle)) continue;
      const command = `take ${object} from ${receptacle}`;
      if (this.failed.has(command)) continue;
      if (this.location !== receptacle) return this.goTo(receptacle);
      return { command, note: `take the ${type}` };
    }
    return undefined;
  }

  private known(type: string): { object: string; receptacle: string }[] {
    const out: { object: string; receptacle: string }[] = [];
    for (const r of this.order) {
      const contents = this.views.get(r)?.contents;
      const near = this.nearby.get(r);
      if (!contents?.length && !near?.length) continue;
      const here = near?.length ? new Set([...(contents ?? []), ...near]) : new Set(contents);
      for (const o of here) if (typeOf(o) === type) out.push({ object: o, receptacle: r });
    }
    return out;
  }

  private goTo(r: string): Next {
    if (this.location === r) return { command: 'look', note: 'look around' };
    return { command: `go to ${r}`, note: `go to the ${r}` };
  }

  private search(what: string): Next {
    for (;;) {
      for (const r of this.order) {
        if (this.searched.has(r) || this.failed.has(`go to ${r}`)) continue;
        const v = this.views.get(r);
        if (this.location === r && v?.state === 'closed') {
          if (this.opens && !this.failed.has(`open ${r}`))
            return { command: `open ${r}`, note: `look for ${what} inside` };
          this.searched.add(r);
          continue;
        }
        if (this.location === r && v) {
          this.searched.add(r);
          continue;
        }
        // We stand here but never saw it (a Stage brought us): `go to` would fail, so look.
        if (this.location === r && !this.failed.has(`examine ${r}`)) {
          return { command: `examine ${r}`, note: `look for ${what} here` };
        }
        return { command: `go to ${r}`, note: `search for ${what}` };
      }
      // One more pass in case something was missed or moved, then stop.
      if (this.passes >= 1) return { giveUp: `searched everywhere and found no ${what}` };
      this.passes += 1;
      this.searched.clear();
    }
  }

  /** With the avoid-repeating skill, a (verb, object type, receptacle type) that failed is not retried. */
  private allowed(command: string): boolean {
    return !this.failedPatterns.has(pattern(command));
  }
}

/** What follows `verb` in `command`: the capture of /^<verb>(.+)$/, without the regex. */
function argumentOf(command: string, verb: string): string | undefined {
  if (!command.startsWith(verb) || command.length === verb.length) return undefined;
  const rest = command.slice(verb.length);
  return LINE_BREAK.test(rest) ? undefined : rest;
}
/** What `.` does not match. */
const LINE_BREAK = /[\n\r\u2028\u2029]/;

function pattern(command: string): string {
  return command
    .split(' ')
    .map((w) => (/^\d+$/.test(w) ? '#' : w))
    .join(' ');
}
