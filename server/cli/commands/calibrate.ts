import { calibrate } from '../../rigger/calibrate.ts';
import { type Command, flag, intOption, json, stringOption, UsageError } from '../command.ts';
import { bandOption, designerOption } from './rig.ts';

export const command: Command = {
  name: 'calibrate',
  summary:
    'EnvRigger over a split: share of tasks whose success rate lies in the band, before and after.',
  usage:
    'harness calibrate --bridge B --split S --policy P [--band lo,hi] [--designer heuristic|llm] [--limit N] [--type T] [--k 5] [--max-iterations 5] [--no-lint] [--json]\n' +
    '  --no-lint: no solvability lint before Validate (every candidate spends its K rollouts, as before the gate).',
  options: {
    bridge: { type: 'string' },
    split: { type: 'string' },
    policy: { type: 'string' },
    band: { type: 'string' },
    designer: { type: 'string' },
    limit: { type: 'string' },
    type: { type: 'string' },
    k: { type: 'string' },
    'max-iterations': { type: 'string' },
    'no-lint': { type: 'boolean' },
    json: { type: 'boolean' },
  },
  async run({ values, io, services }) {
    const bridge = stringOption(values, 'bridge');
    const split = stringOption(values, 'split');
    const policy = stringOption(values, 'policy');
    if (!bridge || !split || !policy)
      throw new UsageError('--bridge, --split and --policy are required');
    const band = bandOption(values, 'band');
    const limitText = stringOption(values, 'limit');
    const type = stringOption(values, 'type');
    {
      const r = await calibrate(
        (await services()).rigDeps(),
        {
          bridge,
          split,
          policy,
          designer: designerOption(values),
          k: intOption(values, 'k', 5),
          maxIterations: intOption(values, 'max-iterations', 5),
          ...(band ? { band } : {}),
          ...(limitText !== undefined ? { limit: intOption(values, 'limit', 1) } : {}),
          ...(type ? { type } : {}),
          lint: !flag(values, 'no-lint'),
        },
        { onProgress: (text) => io.err(`${text}\n`) },
      );
      if (flag(values, 'json')) io.out(json(r));
      else {
        for (const d of r.detail) {
          const f = (x: number | null) =>
            x === null ? '  -  ' : `${Math.round(x * 100)}%`.padStart(5);
          io.out(`${d.taskId}\t${d.type}\t${f(d.before)} -> ${f(d.after)}\t${d.diagnosis}\n`);
        }
        const pct = (x: number) => `${Math.round(x * 100)}%`;
        io.out(
          `in [${r.band.join(', ')}]: before ${r.before.inBand}/${r.tasks} (${pct(r.before.share)}), after ${r.after.inBand}/${r.tasks} (${pct(r.after.share)})\n`,
        );
        io.out(
          `rollouts: ${r.rollouts.launched} launched; lint ${r.rollouts.lint ? `refuted ${r.rollouts.refuted} candidates and skipped ${r.rollouts.skipped} rollouts` : 'off'}\n`,
        );
      }
      return 0;
    }
  },
};
