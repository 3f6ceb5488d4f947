import { type Command, flag, intOption, json, stringOption } from '../command.ts';

export const command: Command = {
  name: 'runs',
  summary: 'List recorded runs, newest first.',
  usage: 'harness runs [--limit N] [--status S] [--json]',
  options: { limit: { type: 'string' }, status: { type: 'string' }, json: { type: 'boolean' } },
  async run({ values, io, services }) {
    {
      const status = stringOption(values, 'status');
      const { items } = await (await services()).rollouts.listRuns({
        limit: intOption(values, 'limit', 50),
        ...(status ? { status } : {}),
      });
      if (flag(values, 'json')) {
        io.out(json(items));
        return 0;
      }
      for (const r of items) {
        io.out(
          `${r.id}\t${r.status.padEnd(9)}\t${r.episodesDone}/${r.episodesTotal}\t${r.policy}\t${r.taskIds.join(',')}\t${r.createdAt}\n`,
        );
      }
      io.out(`${items.length} run${items.length === 1 ? '' : 's'}\n`);
      return 0;
    }
  },
};
