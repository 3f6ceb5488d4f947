// ALFWorld's goal conditions (PDDL equivalent) and sub-goals, over a plain SimState.
import type { SimObject, SimState } from './state.ts';
import type { HouseholdTask } from './tasks.ts';

function fits(t: HouseholdTask, o: SimObject): boolean {
  if (o.type !== t.objectType) return false;
  if (t.type === 'pick_clean_then_place_in_recep') return o.clean;
  if (t.type === 'pick_heat_then_place_in_recep') return o.hot;
  if (t.type === 'pick_cool_then_place_in_recep') return o.cool;
  return true;
}

/** Most qualifying target objects inside one receptacle of the goal type. */
function bestPlacedCount(t: HouseholdTask, s: SimState): number {
  let best = 0;
  for (const r of s.recs) {
    if (r.type !== t.receptacleType) continue;
    let n = 0;
    for (const o of r.contents) if (fits(t, s.objs[o] as SimObject)) n++;
    if (n > best) best = n;
  }
  return best;
}

function lampOnHere(t: HouseholdTask, s: SimState): boolean {
  if (s.agentLoc < 0) return false;
  for (const o of s.objs) {
    if (o.type === t.toggleType && o.on && o.loc === s.agentLoc) return true;
  }
  return false;
}

/** ALFWorld's goal condition (PDDL equivalent) on the current state. */
export function goalSatisfied(t: HouseholdTask, s: SimState): boolean {
  if (t.type === 'look_at_obj_in_light') {
    const held = s.objs[s.holding];
    return !!held && held.type === t.objectType && lampOnHere(t, s);
  }
  return bestPlacedCount(t, s) >= (t.type === 'pick_two_obj_and_place' ? 2 : 1);
}

/** Sub-goals in ALFWorld's order; the last is the goal itself. */
export function subgoals(t: HouseholdTask, s: SimState): boolean[] {
  const goal = goalSatisfied(t, s);
  if (t.type === 'look_at_obj_in_light') {
    const lampOn = s.objs.some((o) => o.type === t.toggleType && o.on);
    return [s.heldTarget, lampOn, goal];
  }
  if (t.type === 'pick_two_obj_and_place') return [s.heldTarget, bestPlacedCount(t, s) >= 1, goal];
  if (t.type === 'pick_and_place_simple') return [s.heldTarget, goal];
  const treated = s.objs.some((o) => o.type === t.objectType && fits(t, o));
  return [s.heldTarget, treated, goal];
}
