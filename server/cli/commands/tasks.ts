import { requireBridge } from '../bridges.ts';
import { type Command, flag, json, stringOption, UsageError } from '../command.ts';

export const command: Command = {
  name: 'tasks',
  summary: "List a bridge's tasks, optionally of one split or type.",
  usage: 'harness tasks <bridge> [--split S] [--type T] [--json]',
  options: { split: { type: 'string' }, type: { type: 'string' }, json: { type: 'boolean' } },
  positionals: { min: 1, max: 1, names: '<bridge>' },
  async run({ values, positionals, io, bridges }) {
    const bridge = await requireBridge(bridges(), positionals[0]!);
    const split = stringOption(values, 'split');
    const type = stringOption(values, 'type');
    if (split !== undefined && !bridge.splits.includes(split)) {
      throw new UsageError(
        `unknown split '${split}' for bridge '${bridge.name}' (splits: ${bridge.splits.join(', ')})`,
      );
    }
    const tasks = await bridge.listTasks({
      ...(split ? { split } : {}),
      ...(type ? { type } : {}),
    });
    if (flag(values, 'json')) {
      io.out(
        json(
          tasks.map((t) => ({
            id: t.id,
            type: t.type,
            goal: t.goal,
            split: t.split,
            ...(t.difficulty !== undefined ? { difficulty: t.difficulty } : {}),
          })),
        ),
      );
      return 0;
    }
    for (const t of tasks) {
      const difficulty = t.difficulty !== undefined ? ` ${t.difficulty.toFixed(2)}` : '';
      io.out(`${t.id}\t${t.type}\t${t.split}${difficulty}\t${t.goal}\n`);
    }
    io.out(`${tasks.length} task${tasks.length === 1 ? '' : 's'}\n`);
    return 0;
  },
};
