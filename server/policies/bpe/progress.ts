// Progress P_t: a bounded list of sub-goal records (g_i, σ_i). A bridge may provide a planner that
// splits the goal into sub-goals (household: ALFWorld task templates) and the events that show a
// sub-goal done; without one, the goal itself is the only sub-goal and the agent adds the rest.
import { type HouseholdGoal, parseGoal } from '../household/goal.ts';
import { typeOf } from '../household/observation.ts';
import type { BeliefChange } from './belief.ts';

export type SubgoalStatus = 'pending' | 'done';

export interface Subgoal {
  text: string;
  status: SubgoalStatus;
}

export const DEFAULT_PROGRESS_CAP = 10;

export class Progress {
  readonly items: Subgoal[] = [];
  constructor(readonly cap = DEFAULT_PROGRESS_CAP) {}

  reset(texts: string[]): void {
    this.items.length = 0;
    for (const text of texts.slice(0, this.cap)) this.items.push({ text, status: 'pending' });
  }

  /** The sub-goal a `commit[…]` names: its 1-based number, its exact text, or a unique substring. */
  find(query: string): number | 'ambiguous' | undefined {
    const q = query.trim().toLowerCase();
    if (/^\d+$/.test(q)) {
      const i = Number(q) - 1;
      return i >= 0 && i < this.items.length ? i : undefined;
    }
    const exact = this.items.findIndex((s) => s.text.toLowerCase() === q);
    if (exact >= 0) return exact;
    const partial = this.items
      .map((s, i) => ({ s, i }))
      .filter(({ s }) => s.text.toLowerCase().includes(q));
    if (partial.length === 1) return partial[0]?.i;
    if (partial.length > 1) {
      // Several match (pick-two's two "take" steps): the first pending one is meant.
      const pending = partial.find(({ s }) => s.status === 'pending');
      return pending ? pending.i : 'ambiguous';
    }
    return undefined;
  }

  firstPending(): Subgoal | undefined {
    return this.items.find((s) => s.status === 'pending');
  }

  pending(): number {
    return this.items.filter((s) => s.status === 'pending').length;
  }

  render(): string {
    if (this.items.length === 0) return 'No sub-goals.';
    return this.items
      .map((s, i) => `${i + 1}. [${s.status === 'done' ? 'x' : ' '}] ${s.text}`)
      .join('\n');
  }

  toJson(): { text: string; status: SubgoalStatus }[] {
    return this.items.map((s) => ({ ...s }));
  }
}

export interface ProgressPlanner {
  /** Sub-goals for a goal sentence. */
  plan(goal: string): string[];
  /** Sub-goals the belief changes of one step show done (texts from `plan`, first pending match). */
  completed(goal: string, changes: BeliefChange[], progress: Progress): string[];
}

const planners = new Map<string, ProgressPlanner>();

export function registerProgressPlanner(bridge: string, planner: ProgressPlanner): void {
  planners.set(bridge, planner);
}

export const genericPlanner: ProgressPlanner = {
  plan: (goal) => [goal],
  completed: () => [],
};

export function progressPlannerFor(bridge: string): ProgressPlanner {
  return planners.get(bridge) ?? genericPlanner;
}

// ---- household ------------------------------------------------------------------------------

const VERB: Record<'clean' | 'heat' | 'cool', string> = {
  clean: 'clean',
  heat: 'heat',
  cool: 'cool',
};

function householdPlan(g: HouseholdGoal): string[] {
  const o = g.object;
  const r = g.receptacle ?? '';
  switch (g.kind) {
    case 'pick':
      return [`find a ${o}`, `take a ${o}`, `place the ${o} in/on a ${r}`];
    case 'clean':
    case 'heat':
    case 'cool':
      return [
        `find a ${o}`,
        `take a ${o}`,
        `${VERB[g.kind]} the ${o}`,
        `place the ${o} in/on a ${r}`,
      ];
    case 'pick2':
      return [
        `find a ${o}`,
        `take a ${o}`,
        `place the ${o} in/on a ${r}`,
        `find a second ${o}`,
        `take the second ${o}`,
        `place the second ${o} in/on a ${r}`,
      ];
    case 'look':
      return [
        `find a ${o}`,
        `take a ${o}`,
        `find a ${g.toggle ?? 'lamp'}`,
        `turn on the ${g.toggle ?? 'lamp'}`,
      ];
  }
}

export const householdPlanner: ProgressPlanner = {
  plan(goal) {
    const g = parseGoal(goal);
    return g ? householdPlan(g) : [goal];
  },
  completed(goal, changes, progress) {
    const g = parseGoal(goal);
    if (!g) return [];
    const out: string[] = [];
    const pendingWith = (prefix: string) =>
      progress.items.find(
        (s) => s.status === 'pending' && s.text.startsWith(prefix) && !out.includes(s.text),
      );
    for (const c of changes) {
      const m = /^(loc|state):(.+)$/.exec(c.key);
      if (!m?.[2] || c.after === null) continue;
      const object = m[2];
      const type = typeOf(object);
      if (m[1] === 'loc') {
        if (type === g.object && c.after !== 'held') {
          const f = pendingWith('find a');
          if (f && (f.text === `find a ${g.object}` || f.text === `find a second ${g.object}`)) {
            // The second find is only done by a second object, not the first one seen again.
            if (!f.text.includes('second') || c.before === null) out.push(f.text);
          }
        }
        if (type === g.toggle) {
          const f = pendingWith(`find a ${g.toggle}`);
          if (f) out.push(f.text);
        }
        if (type === g.object && c.after === 'held') {
          const t = pendingWith('take ');
          if (t) out.push(t.text);
        }
        if (type === g.object && g.receptacle && typeOf(c.after) === g.receptacle) {
          const p = pendingWith('place ');
          if (p) out.push(p.text);
        }
      } else {
        if (type === g.object) {
          const word = g.kind === 'heat' ? 'hot' : g.kind;
          if (c.after.split(' ').includes(word)) {
            const t = pendingWith(`${VERB[g.kind as 'clean'] ?? g.kind} the`);
            if (t) out.push(t.text);
          }
        }
        if (type === g.toggle && c.after === 'on') {
          const t = pendingWith('turn on');
          if (t) out.push(t.text);
        }
      }
    }
    return out;
  },
};

registerProgressPlanner('household', householdPlanner);
