// `harness resume --run ID`: finishes a run that a dead process, or a Redis that lost its jobs, left
// unfinished. The database is the source of truth: a local run's unfinished episodes run in this
// process; a BullMQ run gets its missing jobs back for the workers. Either way each episode is
// recorded once (the recorder's compare-and-set), then the run's report is printed as by `rollout`.
import { InvalidInputError } from '../../errors.ts';
import { QueueUnavailableError } from '../../rollouts/bullmq.ts';
import { configuredPrice } from '../../rollouts/llm-report.ts';
import { type Command, flag, stringOption, UsageError } from '../command.ts';
import { followAndReport } from './rollout.ts';

export const command: Command = {
  name: 'resume',
  summary: 'Finish an unfinished run: re-dispatch its unfinished episodes, wait, print the report.',
  usage:
    'harness resume --run ID [--json]\n  a local run continues in this process (a run another live process is executing is done twice, recorded once);\n  a BullMQ run gets back the jobs Redis lost, for `harness worker` processes',
  options: {
    run: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run({ values, io, services, config }) {
    const runId = stringOption(values, 'run');
    if (!runId) throw new UsageError('--run is required (see harness runs)');
    const { rollouts } = await services();
    const { status } = await rollouts.getRunSummary(runId);
    if (status === 'cancelled' || status === 'failed') {
      throw new InvalidInputError(`run ${runId} is ${status}: nothing to resume`);
    }
    if (status === 'completed') io.err(`run ${runId} is already completed\n`);
    else {
      try {
        await rollouts.resumeRun(runId);
      } catch (e) {
        // Reported in one line; the follower below puts the jobs on once Redis answers.
        if (!(e instanceof QueueUnavailableError)) throw e;
      }
    }
    await followAndReport(rollouts, runId, io, {
      json: flag(values, 'json'),
      resumeIntervalMs: config.RESUME_INTERVAL_MS,
      price: configuredPrice(config) ?? null,
    });
    return 0;
  },
};
