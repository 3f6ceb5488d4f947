import { createWriteStream } from 'node:fs';
import { exportRun } from '../../rollouts/reads.ts';
import { grpoLines } from '../../skills/grpo.ts';
import { type Command, stringOption, UsageError } from '../command.ts';

export const command: Command = {
  name: 'export',
  summary: 'Export a run as JSON Lines: one episode per line with its whole trajectory.',
  usage:
    'harness export --run <runId> [--format jsonl|grpo] [--out FILE]\n  grpo: [--reward name=value,… (cost-aware reward parameters)]; groups are the episodes that share a start seed (harness rollout --group-size G)',
  options: {
    run: { type: 'string' },
    format: { type: 'string' },
    out: { type: 'string' },
    'group-size': { type: 'string' },
    reward: { type: 'string' },
  },
  async run({ values, io, services }) {
    const runId = stringOption(values, 'run');
    if (!runId) throw new UsageError('--run is required');
    const format = stringOption(values, 'format') ?? 'jsonl';
    if (format !== 'jsonl' && format !== 'grpo')
      throw new UsageError(`--format must be jsonl or grpo, got '${format}'`);
    const outPath = stringOption(values, 'out');
    const file = outPath ? createWriteStream(outPath) : undefined;
    try {
      const services_ = await services();
      const { db } = services_;
      let n = 0;
      // GRPO groups live in server/skills/grpo.ts (EvoHarness); this command only writes lines.
      const lines =
        format === 'grpo'
          ? grpoLines(services_, runId, {
              groupSize: stringOption(values, 'group-size'),
              reward: stringOption(values, 'reward'),
            })
          : (async function* () {
              for await (const episode of exportRun(db, runId))
                yield `${JSON.stringify(episode)}\n`;
            })();
      for await (const line of lines) {
        if (file) {
          if (!file.write(line)) await new Promise<void>((r) => file.once('drain', () => r()));
        } else io.out(line);
        n += 1;
      }
      if (file) {
        await new Promise<void>((resolve, reject) =>
          file.end((err?: Error | null) => (err ? reject(err) : resolve())),
        );
        io.err(`${n} episodes written to ${outPath}\n`);
      }
      return 0;
    } finally {
      file?.destroy();
    }
  },
};
