// toy24 candidate templates: pre-combine the first pair of a solution (Stage), feedback on invalid
// moves (Contract), and chain a second quadruple (harder).
import { format, parse } from '../../../../bridges/toy24/rational.ts';
import { solve } from '../../../../bridges/toy24/solver.ts';
import type { DesignContext } from '../../types.ts';
import type { BridgeDesign, Structural } from './design.ts';

interface Toy24View {
  task: string;
  numbers: string[];
}

export async function preCombine(
  ctx: DesignContext,
  view: Toy24View,
): Promise<Structural | undefined> {
  const numbers = view.numbers.map(parse);
  if (numbers.some((n) => n === undefined)) return undefined;
  const plan = solve(numbers as NonNullable<(typeof numbers)[number]>[]);
  const first = plan?.[0];
  if (!first) return undefined;
  const action = {
    name: 'combine',
    args: { a: format(first.a), op: first.op, b: format(first.b) },
  };
  const out = await ctx.tryActions([action]);
  if (out[0]?.invalid !== false) return undefined;
  return {
    name: 'pre-combine',
    plan: { stage: [action] },
    rationale: `Stage: pre-complete the first move of a solution (${format(first.a)} ${first.op} ${format(first.b)} = ${format(first.result)}); three numbers remain.`,
  };
}

export const INVALID_FEEDBACK_CONTRACT = `// Structured feedback on invalid moves: list the numbers that may be combined.
export function modifyTransition(action, result, state) {
  if (!result.info.invalid) return result;
  const text = result.observation.text + '\\nHint: combine two of these numbers: ' + state.numbers.join(', ') + '.';
  return { ...result, observation: { text } };
}
`;

export function toy24Structurals(
  view: Toy24View,
  direction: 'scaffold' | 'harder',
): ((ctx: DesignContext) => Promise<Structural | undefined>)[] {
  if (direction === 'harder') {
    return [
      async (ctx) => {
        const list = await ctx.listTasks({ type: 'hard' });
        const other = list.find((t) => t.id !== view.task && t.id !== ctx.taskId);
        if (!other) return undefined;
        return {
          name: 'chain-second-task',
          plan: { chain: { type: 'base', bridge: 'toy24', task: other.id } },
          rationale: `Chain: after this quadruple, solve a hard one (${other.id}); both verifiers must pass.`,
        };
      },
    ];
  }
  return [
    (ctx) => preCombine(ctx, view),
    async () => ({
      name: 'invalid-move-feedback',
      plan: { contracts: [INVALID_FEEDBACK_CONTRACT] },
      rationale: 'Contract: after an invalid move, the agent is told which numbers it may combine.',
    }),
  ];
}

/** The toy24 bridge's module for the heuristic designer (bridges.ts). */
export const toy24Design: BridgeDesign = {
  structurals: (state, diagnosis) =>
    toy24Structurals(state as unknown as Toy24View, diagnosis.direction),
};
