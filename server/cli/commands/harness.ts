import { getHarness } from '../../harnesses/library.ts';
import { type Command, flag, json } from '../command.ts';

/** The documented JSON shape of `harness harness <id> --json`: each version with its decision. */
export function harnessJson(h: Awaited<ReturnType<typeof getHarness>>) {
  return {
    ...h,
    versions: h.versions.map(({ gate, ...v }) => ({
      ...v,
      status: gate.state,
      decision: gate.current,
      decisions: gate.history,
      validationRunId: gate.validationRunId,
      band: gate.band,
      concerns: gate.concerns,
    })),
  };
}

export const command: Command = {
  name: 'harness',
  summary: 'Show a harness: every version, its status, decisions and what approving would need.',
  usage: 'harness harness <harnessId> [--json]',
  options: { json: { type: 'boolean' } },
  positionals: { min: 1, max: 1, names: '<harnessId>' },
  async run({ values, positionals, io, services }) {
    const { db } = await services();
    const h = harnessJson(await getHarness(db, positionals[0]!));
    if (flag(values, 'json')) {
      io.out(json(h));
      return 0;
    }
    io.out(`harness ${h.id}  ${h.status}  ${h.bridge}:${h.taskId ?? '*'}  ${h.name}\n`);
    for (const v of h.versions) {
      const d = v.decision;
      io.out(
        `  v${v.version}\t${v.status.padEnd(8)}\t${v.name}${d ? `\tby ${d.by} ${d.at}${d.reason ? `: ${d.reason}` : ''}` : ''}\n`,
      );
      if (v.status === 'pending' && v.concerns.length) {
        io.out(`    approving needs a reason: ${v.concerns.map((c) => c.message).join('; ')}\n`);
      }
    }
    return 0;
  },
};
