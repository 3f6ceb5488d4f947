// Reading what the user points the CLI at: a spec file or `bridge:task`, and an actions file.

import { existsSync, readFileSync } from 'node:fs';
import type { Action } from '../../bridges/core/types.ts';
import { firstIssue } from '../../contracts/issues.ts';
import { InvalidInputError, InvalidSpecError, NotFoundError } from '../errors.ts';
import { ActionSchema, type HarnessSpec, parseSpec, specFromShorthand } from '../harness/index.ts';
import { UsageError } from './command.ts';

/** A spec file path (checked first) or `bridge:task` shorthand for the bare environment. */
export function loadSpec(arg: string | undefined): HarnessSpec {
  if (arg === undefined || arg.trim() === '')
    throw new UsageError('--spec is required (a spec file or bridge:task)');
  if (existsSync(arg)) {
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(arg, 'utf8'));
    } catch (error) {
      throw new InvalidSpecError(
        `spec file '${arg}' is not valid JSON: ${(error as Error).message}`,
      );
    }
    try {
      return parseSpec(data);
    } catch (error) {
      if (error instanceof InvalidSpecError) throw new InvalidSpecError(`${arg}: ${error.message}`);
      throw error;
    }
  }
  if (arg.includes(':') && !arg.endsWith('.json')) return specFromShorthand(arg);
  throw new NotFoundError(
    `spec file '${arg}' not found (give a spec file or bridge:task, e.g. toy24:4-7-8-8)`,
  );
}

/** One line of an actions file: a JSON action, or plain text for the text tool of the active bridge. */
export type ActionLine = { line: number; action: Action } | { line: number; text: string };

/**
 * Actions file format: one action per line. A line starting with `{` is a JSON Action
 * (`{"name": "combine", "args": {"a": 8, "op": "/", "b": 3}}`); any other line is plain text for the
 * bridge's text tool (household `go to drawer 1`, toy24 `8 / 3`). Empty lines and lines starting
 * with `#` are skipped.
 */
export function parseActionLines(text: string, source: string): ActionLine[] {
  const out: ActionLine[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    if (!line.startsWith('{')) {
      out.push({ line: i + 1, text: line });
      return;
    }
    let data: unknown;
    try {
      data = JSON.parse(line);
    } catch (error) {
      throw new InvalidInputError(
        `${source}:${i + 1}: not valid JSON: ${(error as Error).message}`,
      );
    }
    const parsed = ActionSchema.safeParse(data);
    if (!parsed.success) {
      throw new InvalidInputError(
        `${source}:${i + 1}: not an action {"name": string, "args": object}: ${firstIssue(parsed.error, '(action)')}`,
      );
    }
    out.push({ line: i + 1, action: parsed.data });
  });
  return out;
}

export function readActionsFile(path: string | undefined, stdin: () => string): ActionLine[] {
  if (path === undefined)
    throw new UsageError('--actions is required (a file with one action per line, or - for stdin)');
  if (path === '-') return parseActionLines(stdin(), 'stdin');
  if (!existsSync(path)) throw new NotFoundError(`actions file '${path}' not found`);
  return parseActionLines(readFileSync(path, 'utf8'), path);
}
