// `harness lint`: can this harness still be won? Proof by replaying known winning sequences (the
// bridge's oracle, re-planned from the harnessed start state, and the recorded successes of the
// base task) through the harness, with findings that name the node and the step that broke them.
import { type LintResult, lintSummary } from '../../../contracts/lint.ts';
import { actionLine } from '../../../contracts/steps.ts';
import type { HarnessSpec } from '../../harness/index.ts';
import { lintPool } from '../../lint/pool.ts';
import { recordedSuccesses, savedHarnessSpec } from '../../lint/service.ts';
import { type Command, flag, intOption, json, stringOption, UsageError } from '../command.ts';
import { loadSpec } from '../spec-input.ts';

function print(r: LintResult, write: (text: string) => void): void {
  write(`${lintSummary(r)}\n`);
  if (r.witness) {
    write(
      `  witness (seed ${r.witness.seed}): ${r.witness.actions.map((a) => actionLine(a)).join('; ')}\n`,
    );
  }
  for (const f of r.findings) {
    const at = f.step !== null ? `step ${f.step}` : f.setupStep ? `set-up ${f.setupStep}` : 'reset';
    write(`  ${f.severity.padEnd(7)} ${f.path}  ${at}  ${f.rule}: ${f.message}\n`);
  }
  for (const a of r.attempts) {
    write(
      `  tried ${a.witness}: ${a.outcome}${a.brokeAt ? ` at step ${a.brokeAt}` : ''} (${a.steps} step${a.steps === 1 ? '' : 's'}${a.reason ? `; ${a.reason}` : ''})\n`,
    );
  }
}

export const command: Command = {
  name: 'lint',
  summary:
    'Prove a harness is still solvable by replaying known winning sequences (exit 1 when refuted).',
  usage:
    'harness lint --spec FILE|harness:<id>[@version]|bridge:task [--seed N] [--task ID] [--json]\n' +
    "  Replays the bridge's oracle plan (re-planned after every Stage set-up) and the shortest recorded\n" +
    "  successful episodes of the base task through the harness. --task overrides the first leaf's task.\n" +
    '  --json prints {solvable: proved|refuted|unknown, witness?, findings: [{rule, severity, path,\n' +
    '  message, step, setupStep?, witness?}], attempts, shortestKnown, seed, ms}.\n' +
    '  Exit 0 when proved or unknown, 1 when refuted.',
  options: {
    spec: { type: 'string' },
    seed: { type: 'string' },
    task: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run({ values, io, services }) {
    const arg = stringOption(values, 'spec');
    if (arg === undefined || arg.trim() === '')
      throw new UsageError(
        '--spec is required (a spec file, harness:<id>[@version] or bridge:task)',
      );
    const seed = intOption(values, 'seed', 0);
    const task = stringOption(values, 'task');
    const { db } = await services();
    const spec: HarnessSpec = arg.trim().startsWith('harness:')
      ? (await savedHarnessSpec(db, arg)).spec
      : loadSpec(arg);
    const recorded = await recordedSuccesses(db, spec, task !== undefined ? { taskId: task } : {});
    const pool = lintPool();
    let result: LintResult;
    try {
      result = await pool.job('lint', {
        spec,
        seed,
        recorded,
        ...(task !== undefined ? { taskId: task } : {}),
      });
    } finally {
      await pool.close();
    }
    if (flag(values, 'json')) io.out(json(result));
    else print(result, io.out);
    return result.solvable === 'refuted' ? 1 : 0;
  },
};
