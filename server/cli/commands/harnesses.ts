import { listHarnesses } from '../../harnesses/library.ts';
import { type Command, flag, json, stringOption, UsageError } from '../command.ts';

/** `--task bridge:task` (or just `bridge`) as the library's filter. */
function taskFilter(text: string | undefined): { bridge?: string; task?: string } {
  if (text === undefined) return {};
  const at = text.indexOf(':');
  const bridge = at < 0 ? text : text.slice(0, at);
  const task = at < 0 ? '' : text.slice(at + 1);
  if (!bridge) throw new UsageError(`--task must be bridge:task, got '${text}'`);
  return task ? { bridge, task } : { bridge };
}

export const command: Command = {
  name: 'harnesses',
  summary: 'List the harness library: harnesses, their status and latest version.',
  usage: 'harness harnesses [--task bridge:task] [--json]',
  options: { task: { type: 'string' }, json: { type: 'boolean' } },
  async run({ values, io, services }) {
    const { db } = await services();
    const rows = await listHarnesses(db, taskFilter(stringOption(values, 'task')));
    const items = rows.map(({ versions, _count, ...h }) => ({
      ...h,
      versions: _count.versions,
      latest: versions[0] ?? null,
    }));
    if (flag(values, 'json')) {
      io.out(json(items));
      return 0;
    }
    for (const h of items) {
      io.out(
        `${h.id}\t${h.status.padEnd(8)}\t${h.bridge}:${h.taskId ?? '*'}\tv${h.latest?.version ?? 0}\t${h.name}\n`,
      );
    }
    io.out(`${items.length} harness${items.length === 1 ? '' : 'es'}\n`);
    return 0;
  },
};
