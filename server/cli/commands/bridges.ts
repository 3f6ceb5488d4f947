import { availabilityOf } from '../../../bridges/core/capabilities.ts';
import { type Command, flag, json } from '../command.ts';

export const command: Command = {
  name: 'bridges',
  summary: 'List the benchmark bridges: name, description, task count, splits and tools.',
  usage: 'harness bridges [--json]',
  options: { json: { type: 'boolean' } },
  async run({ values, io, bridges }) {
    const rows = await Promise.all(
      (await bridges().list()).map(async (b) => ({
        name: b.name,
        description: b.description,
        tasks: (await b.listTasks()).length,
        splits: b.splits,
        tools: b.tools(),
        ...(b.textTool ? { textTool: b.textTool } : {}),
        availability: availabilityOf(b),
      })),
    );
    if (flag(values, 'json')) {
      io.out(json(rows));
      return 0;
    }
    for (const r of rows) {
      io.out(
        `${r.name}  (${r.tasks} tasks; splits ${r.splits.join(', ')}; tools ${r.tools.map((t) => t.name).join(', ')})\n  ${r.description}\n`,
      );
      const a = r.availability;
      if (!a.available) io.out(`  unavailable here: ${a.reason}. Fix: ${a.fix}\n`);
    }
    return 0;
  },
};
