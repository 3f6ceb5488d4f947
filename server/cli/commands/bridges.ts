import { availabilityOf } from '../../../bridges/core/capabilities.ts';
import { type Command, flag, json } from '../command.ts';

export const command: Command = {
  name: 'bridges',
  summary: 'List the benchmark bridges: name, description, task count, splits and tools.',
  usage: 'harness bridges [--json]',
  options: { json: { type: 'boolean' } },
  async run({ values, io, bridges }) {
    const registry = bridges();
    const listed = await registry.list();
    // An environment server that is down is left out, with a line that says why (stderr).
    const names = new Set(listed.map((b) => b.name));
    for (const name of registry.names()) {
      if (names.has(name)) continue;
      const why = await registry.get(name).then(
        () => 'it did not load',
        (e: unknown) => (e instanceof Error ? e.message : String(e)),
      );
      io.err(`harness: bridge '${name}' is left out: ${why}\n`);
    }
    const rows = await Promise.all(
      listed.map(async (b) => ({
        name: b.name,
        description: b.description,
        tasks: (await b.listTasks()).length,
        splits: b.splits,
        tools: b.tools(),
        ...(b.textTool ? { textTool: b.textTool } : {}),
        ...(b.origin ? { origin: b.origin } : {}),
        availability: availabilityOf(b),
      })),
    );
    if (flag(values, 'json')) {
      io.out(json(rows));
      return 0;
    }
    for (const r of rows) {
      io.out(
        `${r.name}${r.origin ? ` [${r.origin.protocol} ${r.origin.url}]` : ''}  (${r.tasks} tasks; splits ${r.splits.join(', ')}; tools ${r.tools.map((t) => t.name).join(', ')})\n  ${r.description}\n`,
      );
      const a = r.availability;
      if (!a.available) io.out(`  unavailable here: ${a.reason}. Fix: ${a.fix}\n`);
    }
    return 0;
  },
};
