// Scripted toy24 policies: an exact solver, a one-step greedy player and a random player. They read
// the current numbers off the observation and answer with the bridge's `combine {a, op, b}` tool.
import type { Observation, StepInfo } from '../../../bridges/core/types.ts';
import { createRng, mixSeed, shuffled } from '../rng.ts';
import { skillsOf } from '../skills.ts';
import type {
  AgentSession,
  Policy,
  PolicyContext,
  PolicyDecision,
  PolicyDescriptor,
} from '../types.ts';
import { type Frac, type Move, moves, readNumbers, show, solve } from './arith.ts';

type Chooser = (
  numbers: Frac[],
  rng: () => number,
  context: PolicyContext,
) => Move | { giveUp: string };

function toyPolicy(descriptor: PolicyDescriptor, choose: Chooser): Policy {
  return {
    descriptor,
    async start(context: PolicyContext): Promise<AgentSession> {
      const rng = createRng(mixSeed(context.seed, descriptor.id));
      const tool =
        context.tools.find((t) => t.name === 'combine')?.name ??
        context.textTool?.name ??
        'combine';
      return {
        async act(observation: Observation, _info: StepInfo): Promise<PolicyDecision> {
          const numbers = readNumbers(observation.text, observation.data);
          if (!numbers || numbers.length < 2)
            return { kind: 'give_up', reason: 'no numbers left to combine' };
          const move = choose(numbers, rng, context);
          if ('giveUp' in move) return { kind: 'give_up', reason: move.giveUp };
          const a = numbers[move.i] as Frac;
          const b = numbers[move.j] as Frac;
          return {
            kind: 'act',
            action: { name: tool, args: { a: show(a), op: move.op, b: show(b) } },
            note: `${show(a)} ${move.op} ${show(b)} = ${show(move.result)}`,
          };
        },
      };
    },
  };
}

const exactMove = (numbers: Frac[], rng: () => number): Move | undefined =>
  solve(numbers, (ms) => shuffled(ms, rng))?.[0];

export const toy24Exact = toyPolicy(
  {
    id: 'scripted:toy24-exact',
    bridge: 'toy24',
    kind: 'scripted',
    description:
      'Exact solver: searches every sequence of moves over the current numbers (exact fractions) and plays the first move of a solution; seeded choice among solutions.',
    weaknesses: [
      'None on solvable tasks; gives up as soon as the current numbers cannot make 24 (e.g. after a harness changes them).',
    ],
  },
  (numbers, rng) => exactMove(numbers, rng) ?? { giveUp: 'these numbers cannot make 24' },
);

export const toy24Greedy = toyPolicy(
  {
    id: 'scripted:toy24-greedy',
    bridge: 'toy24',
    kind: 'scripted',
    description:
      'One-step greedy: plays the move whose result is closest to 24, looking no further ahead; seeded tie-breaking.',
    weaknesses: [
      'Fails tasks whose solutions need fractions or intermediates far from 24 (e.g. 8 / (3 - 8/3)).',
      'Never plans: an early move that lands near 24 can leave numbers that cannot finish.',
    ],
  },
  (numbers, rng, context) => {
    if (skillsOf(context).has('lookahead-search')) {
      const m = exactMove(numbers, rng);
      if (m) return m;
    }
    const ranked = shuffled(moves(numbers), rng).map((m) => ({
      m,
      gap: Math.abs(m.result.n / m.result.d - 24),
    }));
    ranked.sort((x, y) => x.gap - y.gap);
    return ranked[0]?.m ?? { giveUp: 'no legal move' };
  },
);

export const toy24Random = toyPolicy(
  {
    id: 'scripted:toy24-random',
    bridge: 'toy24',
    kind: 'scripted',
    description:
      'Seeded random legal moves: picks two current numbers and an operation uniformly at random.',
    weaknesses: [
      'No strategy at all: succeeds only by luck, more often on forgiving (easy) tasks.',
    ],
  },
  (numbers, rng) => {
    const all = moves(numbers);
    return all[Math.floor(rng() * all.length)] ?? { giveUp: 'no legal move' };
  },
);

export const toy24Policies: Policy[] = [toy24Exact, toy24Greedy, toy24Random];
