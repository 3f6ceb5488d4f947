// The registered household policies: one agent (agent.ts), four settings, each with its flaw named.
import { skillsOf } from '../skills.ts';
import type { Policy, PolicyContext, PolicyDescriptor } from '../types.ts';
import { HouseholdAgent, type HouseholdFlaws } from './agent.ts';

function householdPolicy(descriptor: PolicyDescriptor, flaws: HouseholdFlaws): Policy {
  return {
    descriptor,
    async start(context: PolicyContext) {
      return new HouseholdAgent(context, flaws, skillsOf(context), descriptor.id);
    },
  };
}

export const householdExplorer = householdPolicy(
  {
    id: 'scripted:household-explorer',
    bridge: 'household',
    kind: 'scripted',
    description:
      'Competent explorer: parses the goal, visits receptacles in a seeded order, opens closed ones, takes the object, cleans / heats / cools it when asked, and places it (twice for pick-two; lights the lamp for look tasks).',
    weaknesses: [
      'No prior about where objects live: searches in a seeded order, so tasks in large rooms with the object far down its order can run out of steps.',
      'Makes one extra full pass before giving up when it cannot find the object.',
    ],
  },
  {},
);

export const householdNoOpen = householdPolicy(
  {
    id: 'scripted:household-no-open',
    bridge: 'household',
    kind: 'scripted',
    description: 'The explorer, except that it never opens closed receptacles.',
    weaknesses: [
      'Never opens closed receptacles: fails when every object of the target type is inside a closed one (drawer, cabinet, fridge, …).',
      'Cannot place into a closed target receptacle.',
      'Skill `open-closed-receptacles` repairs it.',
    ],
  },
  { neverOpens: true },
);

export const householdLooper = householdPolicy(
  {
    id: 'scripted:household-looper',
    bridge: 'household',
    kind: 'scripted',
    description:
      'The explorer, except that it tries to open every receptacle it arrives at without reading what it shows, and retries any command that got "Nothing happens." 3–6 more times (seeded).',
    weaknesses: [
      'Repeats failed actions ("Nothing happens.") several times in a row: burns its step budget in loops.',
      'Tries `open` on surfaces that cannot be opened (countertops, shelves, …).',
      'Skill `avoid-repeating-failed-actions` repairs it.',
    ],
  },
  { opensBlindly: true, retriesFailed: [3, 6] },
);

export const householdNoTransform = householdPolicy(
  {
    id: 'scripted:household-no-transform',
    bridge: 'household',
    kind: 'scripted',
    description:
      'The explorer, except that it places the object as found, without cleaning, heating or cooling it.',
    weaknesses: [
      'Fails every clean / heat / cool task (the object is placed in the wrong state); pick, pick-two and look tasks are unaffected.',
      'Skill `verify-state-before-placing` repairs it (examines the object and transforms it first).',
    ],
  },
  { skipsTransform: true },
);

export const householdPolicies: Policy[] = [
  householdExplorer,
  householdNoOpen,
  householdLooper,
  householdNoTransform,
];
