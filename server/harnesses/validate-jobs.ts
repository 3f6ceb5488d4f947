// The checks of harness validation that run hook code or environments, as jobs for a worker of an
// IsolatedPool (the studio pool, or the CLI's): there a hook stuck in a loop is interrupted at its
// deadline or its thread is terminated by the pool's watchdog, never hanging the caller.
// validate.ts drives them; every job answers with data, not by throwing.
import type { Action, BridgeResolver, StepInfo, ToolSpec } from '../../bridges/core/types.ts';
import type { SpecProblem } from '../../contracts/validation.ts';
import { HarnessCodeError, StageSetupError } from '../errors.ts';
import {
  compileHooks,
  compileWhen,
  createHarness,
  type Harness,
  type HarnessSpec,
  nodePaths,
} from '../harness/index.ts';
import { errorProblem } from './validate-problems.ts';

export interface DryRunInput {
  spec: HarnessSpec;
  seed: number;
  steps: number;
}

export type DryRunReport = { steps: number; ms: number } | { problem: SpecProblem };

export type CodeReport =
  | { hooks: string[] }
  | { problem: { message: string; line?: number; column?: number } };

/** Every leaf's bridge and task exist (all of them reported, not only the first). */
export async function resolveProblems(
  spec: HarnessSpec,
  bridges: BridgeResolver,
): Promise<SpecProblem[]> {
  const problems: SpecProblem[] = [];
  for (const { path, node } of nodePaths(spec.env)) {
    if (node.type !== 'base') continue;
    try {
      const bridge = await bridges.get(node.bridge);
      if (!bridge) {
        const known = bridges.names().join(', ') || 'none';
        problems.push({
          path,
          message: `unknown bridge '${node.bridge}' (known: ${known})`,
          check: 'resolve',
        });
      } else if (!(await bridge.getTask(node.task))) {
        problems.push({
          path,
          message: `unknown task '${node.task}' for bridge '${node.bridge}'`,
          check: 'resolve',
        });
      }
    } catch (e) {
      // A remote bridge that cannot be reached is a problem of this leaf, not a crash.
      problems.push(errorProblem(e, 'resolve', path));
    }
  }
  return problems;
}

/** Compiles one piece of hook code: a Contract's hooks, or a switch Chain's `when` expression. */
export async function checkCode(input: {
  code: string;
  kind: 'contract' | 'when';
}): Promise<CodeReport> {
  try {
    if (input.kind === 'when') {
      await compileWhen(input.code);
      return { hooks: ['when'] };
    }
    return { hooks: (await compileHooks(input.code)).hooks };
  } catch (e) {
    if (!(e instanceof HarnessCodeError)) throw e;
    // Line and column travel as fields; the sandbox's "line 2, column 13: " would say them twice.
    const where = e.line ? `line ${e.line}${e.column ? `, column ${e.column}` : ''}: ` : undefined;
    return {
      problem: {
        message: where ? e.message.replace(where, '') : e.message,
        ...(e.line ? { line: e.line } : {}),
        ...(e.column ? { column: e.column } : {}),
      },
    };
  }
}

/**
 * Commands a text game understands as "do nothing" (look around, check what you hold). The idle
 * policy sends one when the environment offers it, else an empty command, which every bridge must
 * answer with an invalid-action observation (the contract suite checks it) — a step through every
 * hook that changes nothing.
 */
const IDLE_COMMANDS = ['look', 'inventory', 'wait', 'noop'];

function requiredArgs(tool: ToolSpec): number {
  const required = (tool.parameters as { required?: unknown }).required;
  return Array.isArray(required) ? required.length : 0;
}

/** The idle policy's action: the environment's own idle command, else one that does nothing. */
export function idleAction(harness: Pick<Harness, 'textTool' | 'tools'>, info: StepInfo): Action {
  const text = harness.textTool();
  if (text) {
    const offered = Array.isArray(info.admissibleCommands) ? info.admissibleCommands : [];
    const idle = IDLE_COMMANDS.find((c) => offered.includes(c)) ?? '';
    return { name: text.name, args: { [text.arg]: idle } };
  }
  const tools = harness.tools();
  // A tool without arguments (list files, list sheets) reads without changing the task.
  const tool = tools.find((t) => requiredArgs(t) === 0) ?? tools[0];
  return { name: tool?.name ?? 'noop', args: {} };
}

/**
 * Builds the stack, resets it (which replays every Stage set-up) and plays a few steps with the
 * idle policy, so every hook runs under its deadline. The first problem ends the episode.
 */
export async function dryRun(input: DryRunInput, bridges: BridgeResolver): Promise<DryRunReport> {
  const started = Date.now();
  let harness: Harness | undefined;
  try {
    harness = await createHarness(input.spec, { bridges });
    let info: StepInfo = (await harness.reset({ seed: input.seed })).info;
    let steps = 0;
    while (steps < input.steps) {
      const result = await harness.step(idleAction(harness, info));
      steps += 1;
      info = result.info;
      if (result.terminated || result.truncated) break;
    }
    // The verifier runs at the end of every episode: it must not fail either.
    await harness.evaluate();
    return { steps, ms: Date.now() - started };
  } catch (e) {
    return { problem: errorProblem(e, e instanceof StageSetupError ? 'setup' : 'dry-run') };
  } finally {
    await harness?.close().catch(() => undefined);
  }
}

/** The jobs as pool handlers, over the bridges of the worker's thread. */
export function validationHandlers(bridges: BridgeResolver) {
  return {
    validateResolve: (raw: unknown) =>
      resolveProblems((raw as { spec: HarnessSpec }).spec, bridges),
    validateCode: (raw: unknown) => checkCode(raw as { code: string; kind: 'contract' | 'when' }),
    validateDry: (raw: unknown) => dryRun(raw as DryRunInput, bridges),
  };
}
