// `harness validate`: whether a spec runs, with the same service as the studio's editor and its
// create / save procedures (server/harnesses/validate.ts): the jobs run in a worker pool of this
// process, so a hook that loops is reported, not waited for.
import { existsSync, readFileSync } from 'node:fs';
import type { SpecValidation } from '../../../contracts/validation.ts';
import { NotFoundError } from '../../errors.ts';
import { specFromShorthand } from '../../harness/index.ts';
import { describeProblem, validateSpec } from '../../harnesses/validate.ts';
import { validationPool } from '../../harnesses/validate-pool.ts';
import { type Command, flag, intOption, json, stringOption, UsageError } from '../command.ts';

/** The spec as written (unparsed: parsing is the service's first check), or why it cannot be read. */
function readSpec(arg: string): { raw: unknown } | { unreadable: SpecValidation } {
  if (existsSync(arg)) {
    try {
      return { raw: JSON.parse(readFileSync(arg, 'utf8')) };
    } catch (error) {
      const message = `spec file '${arg}' is not valid JSON: ${(error as Error).message}`;
      return {
        unreadable: { valid: false, problems: [{ path: '(spec)', message, check: 'spec' }] },
      };
    }
  }
  if (arg.includes(':') && !arg.endsWith('.json')) {
    const at = arg.indexOf(':');
    // Built by hand, not by specFromShorthand's parser, so an unknown task is a reported problem.
    const [bridge, task] = [arg.slice(0, at).trim(), arg.slice(at + 1).trim()];
    if (!bridge || !task) specFromShorthand(arg); // throws the one-line usage message
    return { raw: { version: 1, env: { type: 'base', bridge, task } } };
  }
  throw new NotFoundError(
    `spec file '${arg}' not found (give a spec file or bridge:task, e.g. toy24:4-7-8-8)`,
  );
}

function print(result: SpecValidation, write: (text: string) => void): void {
  if (result.valid) {
    const d = result.dryRun;
    write(
      `valid: hooks compile, tasks exist, the set-up replays${d ? `, and a dry episode of ${d.steps} steps (seed ${d.seed}) ran in ${d.ms} ms` : ''}\n`,
    );
    return;
  }
  write(`invalid: ${result.problems.length} problem${result.problems.length === 1 ? '' : 's'}\n`);
  for (const p of result.problems) write(`  ${describeProblem(p)}\n`);
}

export const command: Command = {
  name: 'validate',
  summary: 'Check that a harness spec runs (hooks compile, tasks exist, a dry episode plays).',
  usage:
    'harness validate --spec FILE|bridge:task [--seed N] [--json]\n' +
    '  Parses the spec, resolves every bridge and task, compiles every hook, replays the Stage set-up\n' +
    '  and plays a dry episode of a few idle steps with every hook under its deadline.\n' +
    '  --json prints {valid, problems: [{path, message, line?, column?, check?}], dryRun?}.\n' +
    '  Exit 0 when the harness runs, 1 when it does not (the same checks as the studio editor).',
  options: {
    spec: { type: 'string' },
    seed: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run({ values, io }) {
    const arg = stringOption(values, 'spec');
    if (arg === undefined || arg.trim() === '')
      throw new UsageError('--spec is required (a spec file or bridge:task)');
    const seed = intOption(values, 'seed', 0);
    const read = readSpec(arg);
    let result: SpecValidation;
    if ('unreadable' in read) result = read.unreadable;
    else {
      const pool = validationPool();
      try {
        result = await validateSpec(read.raw, pool.runner, { seed });
      } finally {
        await pool.close();
      }
    }
    if (flag(values, 'json')) io.out(json(result));
    else print(result, io.out);
    return result.valid ? 0 : 1;
  },
};
