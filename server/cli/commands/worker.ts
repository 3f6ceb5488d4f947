import { InvalidInputError } from '../../errors.ts';
import { startEpisodeWorker } from '../../rollouts/bullmq.ts';
import { inProcessExecutor, poolExecutor } from '../../rollouts/default-engine.ts';
import { skillBankOptions } from '../../skills/run-options.ts';
import { type Command, flag, intOption, stringOption } from '../command.ts';

export const command: Command = {
  name: 'worker',
  summary:
    'Consume rollout episodes from BullMQ (REDIS_URL) and record them in the shared database.',
  usage:
    'harness worker [--concurrency N] [--inline] [--lock-ms MS] [--stalled-ms MS] [--queue-name Q]\n  --inline runs episodes on the main thread instead of an isolated worker pool',
  options: {
    concurrency: { type: 'string' },
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
    const { db, events } = await services();
    const worker = startEpisodeWorker({
      db,
      events,
      policyOptions: skillBankOptions(db),
      redisUrl,
      ...(queueName ? { queueName } : {}),
      concurrency,
      executor: flag(values, 'inline') ? inProcessExecutor() : poolExecutor(concurrency),
      lockDurationMs: lockMs,
      stalledIntervalMs: intOption(values, 'stalled-ms', lockMs),
    });
    await worker.ready();
    io.err(`worker ${worker.id} ready (concurrency ${concurrency})\n`);
    await new Promise<void>((resolve) => {
      process.once('SIGTERM', resolve);
      process.once('SIGINT', resolve);
    });
    io.err(`worker ${worker.id} stopping\n`);
    await worker.close();
    return 0;
  },
};
