import { listPolicies } from '../../policies/index.ts';
import { type Command, flag, json, stringOption } from '../command.ts';

export const command: Command = {
  name: 'policies',
  summary: 'List every policy id usable with --policy (optionally for one bridge).',
  usage: 'harness policies [--bridge B] [--json]',
  options: { bridge: { type: 'string' }, json: { type: 'boolean' } },
  async run({ values, io, config }) {
    const policies = listPolicies(stringOption(values, 'bridge'), {
      openaiModel: config.OPENAI_MODEL,
    });
    if (flag(values, 'json')) {
      io.out(json(policies));
      return 0;
    }
    for (const p of policies) {
      io.out(`${p.id.padEnd(34)} ${p.kind.padEnd(9)} ${p.bridge ?? '-'}\t${p.description}\n`);
      for (const w of p.weaknesses ?? []) io.out(`${' '.repeat(44)}weakness: ${w}\n`);
    }
    return 0;
  },
};
