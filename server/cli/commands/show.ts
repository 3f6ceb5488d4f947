import { type Command, flag, json } from '../command.ts';

export const command: Command = {
  name: 'show',
  summary: "Show a run: settings, metrics and every episode's outcome.",
  usage: 'harness show <runId> [--json]',
  options: { json: { type: 'boolean' } },
  positionals: { min: 1, max: 1, names: '<runId>' },
  async run({ values, positionals, io, services }) {
    {
      const { rollouts } = await services();
      const runId = positionals[0]!;
      const summary = await rollouts.getRunSummary(runId);
      const episodes = await rollouts.allEpisodes(runId);
      if (flag(values, 'json')) {
        io.out(json({ ...summary, episodes }));
        return 0;
      }
      const m = summary.metrics;
      io.out(
        `run ${summary.id}  ${summary.status}  ${summary.episodesDone}/${summary.episodesTotal} episodes  policy ${summary.policy}  queue ${summary.queue}\n`,
      );
      io.out(
        `success rate ${m.successRate === null ? 'n/a' : m.successRate.toFixed(3)}  CI [${m.interval[0].toFixed(3)}, ${m.interval[1].toFixed(3)}]  mean steps ${m.meanSteps?.toFixed(1) ?? 'n/a'}  errors ${m.errors}\n`,
      );
      for (const e of episodes) {
        io.out(
          `  ${e.ordinal}\t${e.taskId}\tseed ${e.seed}\t${e.status}\t${e.outcome ?? '-'}\t${e.steps}\t${e.failureCategory ?? e.errorMessage ?? ''}\n`,
        );
      }
      return 0;
    }
  },
};
