// Scripted code-repair policies: one agent (agent.ts), one flaw switched on each.
import { createRng, mixSeed } from '../rng.ts';
import type { Policy, PolicyDescriptor } from '../types.ts';
import { type AgentFlaws, repairAgent } from './agent.ts';
import { coroutineSession } from './coroutine.ts';

function repairPolicy(descriptor: PolicyDescriptor, flaws: AgentFlaws): Policy {
  return {
    descriptor,
    async start(context) {
      const rng = createRng(mixSeed(context.seed, descriptor.id));
      return coroutineSession((io, first) =>
        repairAgent(io, first, context.task.goal, context.maxSteps, flaws, rng),
      );
    },
  };
}

export const codeRepairCareful = repairPolicy(
  {
    id: 'scripted:code-repair-careful',
    bridge: 'code-repair',
    kind: 'scripted',
    description:
      'Runs the failing tests, reads the function the bug report names, tries candidate fixes by inverting common mutations (comparisons, operators, off-by-one, swapped arguments) in an order drawn from its seed, re-runs the tests after each and submits once they all pass.',
    weaknesses: [
      'Trusts the visible tests: when none fails (a bug only the hidden tests catch) it submits the code unchanged.',
      'Cannot restore deleted code (a removed guard clause).',
      'Tries candidates line by line: long functions can exhaust the step budget.',
    ],
  },
  {},
);

export const codeRepairHasty = repairPolicy(
  {
    id: 'scripted:code-repair-hasty',
    bridge: 'code-repair',
    kind: 'scripted',
    description:
      'Reads the function the bug report names, applies one plausible fix (its seed picks which) and submits without running any test.',
    weaknesses: ["Submits patches without running the failing test (the paper's example defect)."],
  },
  { hasty: true },
);

export const codeRepairFirstMatch = repairPolicy(
  {
    id: 'scripted:code-repair-first-match',
    bridge: 'code-repair',
    kind: 'scripted',
    description:
      'Runs the tests, searches for the named function and edits the first match it finds (one candidate fix, its seed picks which), then submits whatever the tests say.',
    weaknesses: [
      'Edits the first search match, often a call site or the wrong line, and submits even when the tests still fail.',
    ],
  },
  { firstMatch: true },
);

export const codeRepairPolicies: Policy[] = [
  codeRepairCareful,
  codeRepairHasty,
  codeRepairFirstMatch,
];
