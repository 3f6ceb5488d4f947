// Spec parsing: zod validation plus the rules the schema cannot say (chain mode fields, depth),
// reported as one line naming the JSON path.
import type { z } from 'zod';
import { InvalidSpecError } from '../errors.ts';
import { type HarnessNode, type HarnessSpec, HarnessSpecSchema, MAX_SPEC_DEPTH } from './spec.ts';

function pathOf(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(spec)';
  return path
    .map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p)}`))
    .join('');
}

function describeIssue(issue: z.core.$ZodIssue, input: unknown): string {
  if (
    issue.code === 'invalid_union' &&
    'note' in issue &&
    issue.note === 'No matching discriminator'
  ) {
    const path = issue.path.at(-1) === 'type' ? issue.path : [...issue.path, 'type'];
    return `${pathOf(path)}: must be one of "base", "stage", "contract", "chain"`;
  }
  if (issue.code === 'unrecognized_keys') {
    return `${pathOf(issue.path)}: unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
  }
  let where = pathOf(issue.path);
  if (issue.code === 'invalid_type' && issue.path.length === 0 && input === undefined) {
    where = '(spec)';
  }
  return `${where}: ${issue.message}`;
}

function checkNode(node: HarnessNode, path: string, depth: number): void {
  if (depth > MAX_SPEC_DEPTH) {
    throw new InvalidSpecError(`${path}: the stack is nested deeper than ${MAX_SPEC_DEPTH} levels`);
  }
  switch (node.type) {
    case 'base':
      return;
    case 'stage':
    case 'contract':
      checkNode(node.env, `${path}.env`, depth + 1);
      return;
    case 'chain': {
      if (node.mode === 'branch' && node.remedial === undefined) {
        throw new InvalidSpecError(
          `${path}.remedial: a branch chain needs a remedial leg (played when the first leg fails)`,
        );
      }
      if (node.mode !== 'branch' && node.remedial !== undefined) {
        throw new InvalidSpecError(
          `${path}.remedial: only a branch chain has a remedial leg (mode is "${node.mode}")`,
        );
      }
      if (node.mode === 'switch' && (node.when === undefined || node.when.trim() === '')) {
        throw new InvalidSpecError(
          `${path}.when: a switch chain needs a condition, a JavaScript expression over \`state\` (e.g. "state.inventory.length > 0")`,
        );
      }
      if (node.mode !== 'switch' && node.when !== undefined) {
        throw new InvalidSpecError(
          `${path}.when: only a switch chain has a condition (mode is "${node.mode}")`,
        );
      }
      checkNode(node.first, `${path}.first`, depth + 1);
      checkNode(node.second, `${path}.second`, depth + 1);
      if (node.remedial) checkNode(node.remedial, `${path}.remedial`, depth + 1);
      return;
    }
  }
}

/** Validates a spec; throws InvalidSpecError with one line "path: problem". */
export function parseSpec(input: unknown): HarnessSpec {
  const parsed = HarnessSpecSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidSpecError(
      `invalid harness spec: ${issue ? describeIssue(issue, input) : 'unknown problem'}`,
    );
  }
  try {
    checkNode(parsed.data.env, 'env', 1);
  } catch (e) {
    if (e instanceof InvalidSpecError) {
      throw new InvalidSpecError(`invalid harness spec: ${e.message}`);
    }
    throw e;
  }
  return parsed.data;
}

/** `household:<taskId>` -> the bare environment as a spec. */
export function specFromShorthand(shorthand: string): HarnessSpec {
  const at = shorthand.indexOf(':');
  const bridge = at > 0 ? shorthand.slice(0, at).trim() : '';
  const task = at > 0 ? shorthand.slice(at + 1).trim() : '';
  if (!bridge || !task) {
    throw new InvalidSpecError(
      `invalid spec shorthand "${shorthand}": expected "<bridge>:<task id>", e.g. "toy24:1-2-3-4"`,
    );
  }
  return parseSpec({ version: 1, env: { type: 'base', bridge, task } });
}

/** Paths of every node, in the order the engine names layers. */
export function nodePaths(node: HarnessNode, path = 'env'): { path: string; node: HarnessNode }[] {
  const out = [{ path, node }];
  if (node.type === 'stage' || node.type === 'contract')
    out.push(...nodePaths(node.env, `${path}.env`));
  if (node.type === 'chain') {
    out.push(...nodePaths(node.first, `${path}.first`));
    out.push(...nodePaths(node.second, `${path}.second`));
    if (node.remedial) out.push(...nodePaths(node.remedial, `${path}.remedial`));
  }
  return out;
}
