import { InvalidInputError } from '../../errors.ts';
import { startEpisodeWorker } from '../../rollouts/bullmq.ts';
import { inProcessExecutor, poolExecutor } from '../../rollouts/default-engine.ts';
import { eventLoopExecutor, splitExecutor } from '../../rollouts/model-bound.ts';
import { skillBankOptions } from '../../skills/run-options.ts';
import { type Command, flag, intOption, stringOption, UsageError } from '../command.ts';

export const command: Command = {
  name: 'worker',
  summary:
    'Consume rollout episodes and rig jobs from BullMQ (REDIS_URL) and record them in the shared database.',
  usage:
    "harness worker [--concurrency N] [--rigs N] [--inline] [--lock-ms MS] [--stalled-ms MS] [--queue-name Q]\n  --inline runs every episode on the main thread; without it, episodes of an LLM policy on a stack without hook code wait on the model there (hundreds at once) and the others run in an isolated worker pool\n  --rigs N drives up to N rigs at once (default 1; 0: episodes only); a rig's episodes are episode jobs",
  options: {
    concurrency: { type: 'string' },
    rigs: { type: 'string' },
    inline: { type: 'boolean' },
    'lock-ms': { type: 'string' },
    'stalled-ms': { type: 'string' },
    'queue-name': { type: 'string' },
  },
  async run({ values, io, config, services }) {
    const redisUrl = config.REDIS_URL;
    if (!redisUrl)
      throw new InvalidInputError(
        'harness worker needs REDIS_URL (and DATABASE_URL shared with the launcher)',
      );
    const concurrency = intOption(values, 'concurrency', config.ROLLOUT_CONCURRENCY);
    const queueName = stringOption(values, 'queue-name');
    const lockMs = intOption(values, 'lock-ms', 30_000);
    const stalledMs = intOption(values, 'stalled-ms', lockMs);
    const rigConcurrency = intOption(values, 'rigs', 1);
    if (rigConcurrency < 0 || concurrency < 0) {
      throw new UsageError('--rigs and --concurrency must be 0 or more');
    }
    if (rigConcurrency === 0 && concurrency === 0) {
      throw new UsageError('--concurrency 0 and --rigs 0 leave the worker nothing to do');
    }
    // The rigs this worker drives launch their runs on the same episode queue.
    const { db, events, rigs, bridges } = await services(queueName ? { queueName } : {});
    const worker =
      concurrency > 0
        ? startEpisodeWorker({
            db,
            events,
            policyOptions: skillBankOptions(db, bridges),
            redisUrl,
            ...(queueName ? { queueName } : {}),
            concurrency,
            // Model-bound episodes (an LLM policy, no hook code) wait on the event loop, so
            // --concurrency 256 costs no 256 threads: only the others take pool threads.
            executor: flag(values, 'inline')
              ? inProcessExecutor(bridges)
              : splitExecutor(
                  poolExecutor(Math.min(concurrency, config.ROLLOUT_MAX_WORKERS)),
                  Math.min(concurrency, config.ROLLOUT_MAX_WORKERS),
                  eventLoopExecutor(bridges),
                ),
            lockDurationMs: lockMs,
            stalledIntervalMs: stalledMs,
          })
        : undefined;
    const rigWorker =
      rigConcurrency > 0
        ? rigs.startWorker({
            concurrency: rigConcurrency,
            lockDurationMs: lockMs,
            stalledIntervalMs: stalledMs,
          })
        : undefined;
    await Promise.all([worker?.ready(), rigWorker?.ready()]);
    const id = worker?.id ?? rigWorker?.id;
    io.err(`worker ${id} ready (concurrency ${concurrency}, rigs ${rigConcurrency})\n`);
    await new Promise<void>((resolve) => {
      process.once('SIGTERM', resolve);
      process.once('SIGINT', resolve);
    });
    io.err(`worker ${id} stopping\n`);
    // Rigs first: put back between steps for another worker, before the episodes they wait on stop.
    await rigWorker?.close();
    await worker?.close();
    return 0;
  },
};
