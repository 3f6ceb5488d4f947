// `harness audit`: can a bridge's (or a harness's) verifier tell a right answer from a wrong one?
// Per task: gold passes, a no-op fails, the gold minus its last effective action fails, and no
// episode's summed reward disagrees with its verdict. The probes are stored as runs (kind audit).
import type { AuditReport } from '../../../contracts/audit.ts';
import { playAudit } from '../../audit/audit.ts';
import { runAudit } from '../../audit/service.ts';
import type { HarnessSpec } from '../../harness/index.ts';
import { lintPool } from '../../lint/pool.ts';
import { savedHarnessSpec } from '../../lint/service.ts';
import { type Command, flag, intOption, json, stringOption, UsageError } from '../command.ts';
import { loadSpec } from '../spec-input.ts';

function print(r: AuditReport, write: (text: string) => void): void {
  const t = r.totals;
  const c = (x: { pass: number; fail: number; na: number }) =>
    `${x.pass} pass, ${x.fail} fail${x.na ? `, ${x.na} n/a` : ''}`;
  write(
    `${r.passed ? 'PASSED' : 'FAILED'}: ${r.bridge}${r.spec ? ' (harness)' : ''}${r.split ? ` ${r.split}` : ''}, ${t.tasks} task${t.tasks === 1 ? '' : 's'} in ${(r.ms / 1000).toFixed(1)} s\n`,
  );
  write(`  gold passes:          ${c(t.gold)}\n`);
  write(`  empty fails:          ${c(t.empty)}\n`);
  write(`  perturbed gold fails: ${c(t.perturbed)}\n`);
  write(`  reward/verdict disagreements: ${t.disagreements}\n`);
  if (t.gold.na > 0) {
    write(
      `  no gold known for ${t.gold.na} task${t.gold.na === 1 ? '' : 's'}: the bridge has no oracle plan and no success of it is recorded (a baseline run records some)\n`,
    );
  }
  if (r.suspicious.length) {
    write(`suspicious tasks (${r.suspicious.length}):\n`);
    for (const task of r.tasks.filter((x) => x.suspicious)) {
      write(`  ${task.taskId}: ${task.reasons.join('; ')}\n`);
    }
  }
  if (r.id) write(`stored as audit ${r.id}; probe runs: ${Object.values(r.runs).join(', ')}\n`);
}

export const command: Command = {
  name: 'audit',
  summary:
    "Audit a bridge's (or a harness's) verifier: gold passes, empty and perturbed gold fail, reward agrees with the verdict.",
  usage:
    'harness audit <bridge> | --spec FILE|harness:<id>[@version]|bridge:task  [--split S] [--sample N] [--seed N] [--json]\n' +
    "  Per task: gold (the bridge's oracle plan, else the shortest recorded success) must pass; a no-op\n" +
    '  (look / inventory, or the idle action) must fail; the gold minus its last effective action must\n' +
    "  fail; episodes (the probes and the task's recorded ones) whose summed reward and verdict disagree\n" +
    "  are listed. --spec audits the verifier through a harness (with --split, over the split's tasks).\n" +
    '  --json prints {bridge, tasks: [{taskId, gold, empty, perturbed, disagreements, suspicious, reasons}],\n' +
    '  totals, suspicious, passed, runs, id}. The probes are stored as runs (kind audit) for the studio.\n' +
    '  Exit 0 when no task is suspicious, 1 otherwise.',
  options: {
    spec: { type: 'string' },
    split: { type: 'string' },
    sample: { type: 'string' },
    seed: { type: 'string' },
    json: { type: 'boolean' },
  },
  positionals: { min: 0, max: 1, names: '<bridge>' },
  async run({ values, positionals, io, services }) {
    const bridge = positionals[0];
    const specArg = stringOption(values, 'spec');
    if ((bridge === undefined) === (specArg === undefined))
      throw new UsageError('give a bridge (harness audit household) or --spec, not both');
    const split = stringOption(values, 'split');
    const sampleText = stringOption(values, 'sample');
    const sample = sampleText !== undefined ? intOption(values, 'sample', 1) : undefined;
    if (sample !== undefined && sample < 1) throw new UsageError('--sample must be at least 1');
    const seed = intOption(values, 'seed', 0);
    if (seed < 0) throw new UsageError('--seed must be 0 or more');
    const { db, bridges } = await services();
    let spec: HarnessSpec | undefined;
    if (specArg !== undefined) {
      spec = specArg.trim().startsWith('harness:')
        ? (await savedHarnessSpec(db, specArg)).spec
        : loadSpec(specArg);
    }
    // Hook code runs only in a harness audit: that one plays in a worker the watchdog can stop; a
    // bridge audit runs no user code and plays here (a worker's start-up would double its time).
    const pool = spec ? lintPool() : undefined;
    let report: AuditReport;
    try {
      report = await runAudit(
        {
          db,
          bridges,
          play: (input) => (pool ? pool.job('audit', input) : playAudit(input, bridges)),
        },
        {
          ...(bridge !== undefined ? { bridge } : {}),
          ...(spec ? { spec } : {}),
          ...(split !== undefined ? { split } : {}),
          ...(sample !== undefined ? { sample } : {}),
          seed,
        },
        { createdBy: 'local' },
      );
    } finally {
      await pool?.close();
    }
    if (flag(values, 'json')) io.out(json(report));
    else print(report, io.out);
    return report.passed ? 0 : 1;
  },
};
