import { runContractSuite } from '../../../bridges/core/contract-suite.ts';
import { requireBridge } from '../bridges.ts';
import { type Command, flag, intOption, json, stringOption, UsageError } from '../command.ts';

function seedsOption(text: string | undefined): number[] | undefined {
  if (text === undefined) return undefined;
  const parts = text.split(',').map((s) => s.trim());
  if (parts.some((p) => !/^-?\d+$/.test(p)))
    throw new UsageError(`--seeds must be integers separated by commas, got '${text}'`);
  return parts.map(Number);
}

export const command: Command = {
  name: 'check',
  summary: 'Run the ActionableEnv contract suite on a bridge; exit 0 only when every check passes.',
  usage: 'harness check <bridge> [--tasks N] [--seeds 0,7] [--steps N] [--json]',
  options: {
    tasks: { type: 'string' },
    seeds: { type: 'string' },
    steps: { type: 'string' },
    json: { type: 'boolean' },
  },
  positionals: { min: 1, max: 1, names: '<bridge>' },
  async run({ values, positionals, io, bridges }) {
    const bridge = await requireBridge(bridges(), positionals[0]!);
    const seeds = seedsOption(stringOption(values, 'seeds'));
    const results = await runContractSuite(bridge, {
      tasks: intOption(values, 'tasks', 2),
      steps: intOption(values, 'steps', 6),
      ...(seeds ? { seeds } : {}),
    });
    const passed = results.filter((r) => r.ok).length;
    if (flag(values, 'json')) {
      io.out(json({ bridge: bridge.name, ok: passed === results.length, results }));
    } else {
      for (const r of results)
        io.out(`${r.ok ? 'PASS' : 'FAIL'}  ${r.name}${r.detail ? `\n      ${r.detail}` : ''}\n`);
      io.out(`${bridge.name}: ${passed}/${results.length} checks passed\n`);
    }
    return passed === results.length ? 0 : 1;
  },
};
