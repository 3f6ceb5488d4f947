// Validation means it runs. The one service that answers "can this harness run?" for the graph
// editor (harnesses.validate), the create / save procedures (they refuse what it refuses) and
// `harness validate --json`: parse the spec; resolve every bridge and task; compile every hook
// (line and column on the node); then build the stack, replay the Stage set-up and play a dry
// episode of a few idle steps, with every hook under its deadline. Everything past parsing runs as
// jobs in an IsolatedPool worker (validate-jobs.ts), so a hook that loops ends as a problem — the
// sandbox interrupts it, or the pool's watchdog terminates its thread — never as a hang.
import { checkSpec, type HarnessSpec, nodePaths } from '../../contracts/spec.ts';
import type { SpecProblem, SpecValidation } from '../../contracts/validation.ts';
import { HarnessCodeError, InvalidSpecError } from '../errors.ts';
import type { CodeReport, DryRunInput, DryRunReport, validationHandlers } from './validate-jobs.ts';
import { errorProblem, namesLayer, specMessageProblem } from './validate-problems.ts';

/** Where the jobs of validate-jobs.ts run: a worker pool whose module has `validationHandlers`. */
export interface ValidationRunner {
  resolve(input: { spec: HarnessSpec }): Promise<SpecProblem[]>;
  code(input: { code: string; kind: 'contract' | 'when' }): Promise<CodeReport>;
  dry(input: DryRunInput): Promise<DryRunReport>;
}

type JobName = keyof ReturnType<typeof validationHandlers>;

/** The runner over a pool's `run(handler, input)` (IsolatedPool.run, StudioPool.job). */
export function poolRunner(
  run: (handler: JobName, input: unknown) => Promise<unknown>,
): ValidationRunner {
  // The handlers' answers, typed by validate-jobs.ts; the pool carries them as plain data.
  return {
    resolve: (input) => run('validateResolve', input) as Promise<SpecProblem[]>,
    code: (input) => run('validateCode', input) as Promise<CodeReport>,
    dry: (input) => run('validateDry', input) as Promise<DryRunReport>,
  };
}

export interface ValidateOptions {
  /** The dry episode's seed (default 0). */
  seed?: number;
  /** Idle agent steps after the reset (default 3). */
  steps?: number;
  /** The dry episode must end within this (default 30 s): an environment that never answers. */
  timeoutMs?: number;
}

export const DRY_RUN_STEPS = 3;

/** Hook code in a node: a Contract's hooks, a switch Chain's condition. */
function codeOf(node: HarnessSpec['env']): { code: string; kind: 'contract' | 'when' } | undefined {
  if (node.type === 'contract') {
    return node.code === undefined ? undefined : { code: node.code, kind: 'contract' };
  }
  if (node.type === 'chain' && node.when !== undefined) return { code: node.when, kind: 'when' };
  return undefined;
}

/** Compiles every piece of hook code, one job each, so a thread killed while loading names its node. */
async function compileProblems(
  spec: HarnessSpec,
  runner: ValidationRunner,
  hooks: Map<string, string[]>,
): Promise<SpecProblem[]> {
  const problems: SpecProblem[] = [];
  for (const { path, node } of nodePaths(spec.env)) {
    const code = codeOf(node);
    if (!code) continue;
    try {
      const report = await runner.code(code);
      if ('problem' in report) problems.push({ path, ...report.problem, check: 'compile' });
      else hooks.set(path, report.hooks);
    } catch (e) {
      problems.push(errorProblem(e, 'compile', path));
    }
  }
  return problems;
}

/**
 * The dry episode's worker was terminated by the watchdog: the error names the hook, not the
 * layer, so it goes on the nodes whose code defines that hook.
 */
export function killedProblems(error: unknown, hooks: Map<string, string[]>): SpecProblem[] {
  if (namesLayer(error) || !(error instanceof HarnessCodeError) || !error.hook) {
    return [errorProblem(error, 'dry-run')];
  }
  const names = error.hook.split(' or ');
  const paths = [...hooks]
    .filter(([, defined]) => error.hook === '(load)' || defined.some((h) => names.includes(h)))
    .map(([path]) => path);
  if (paths.length <= 1) return [errorProblem(error, 'dry-run', paths[0] ?? 'env')];
  return paths.map((path) => {
    const p = errorProblem(error, 'dry-run', path);
    return { ...p, message: `${p.message} (one of the ${paths.length} nodes that define it)` };
  });
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new InvalidSpecError(`${what} did not finish within ${ms / 1000} s`)),
      ms,
    );
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

export async function validateSpec(
  raw: unknown,
  runner: ValidationRunner,
  o: ValidateOptions = {},
): Promise<SpecValidation> {
  const checked = checkSpec(raw);
  if (!checked.ok) return { valid: false, problems: [specMessageProblem(checked.message)] };
  const spec = checked.spec;
  const problems = await runner
    .resolve({ spec })
    .catch((e: unknown) => [errorProblem(e, 'resolve')]);
  const hooks = new Map<string, string[]>();
  problems.push(...(await compileProblems(spec, runner, hooks)));
  // A stack with a missing task or broken code cannot be built: the dry run would add nothing.
  if (problems.length > 0) return { valid: false, problems };

  const seed = o.seed ?? 0;
  const dry = runner.dry({ spec, seed, steps: o.steps ?? DRY_RUN_STEPS });
  try {
    const report = await within(dry, o.timeoutMs ?? 30_000, 'the dry episode');
    if ('problem' in report) return { valid: false, problems: [report.problem] };
    return { valid: true, problems: [], dryRun: { seed, steps: report.steps, ms: report.ms } };
  } catch (e) {
    return { valid: false, problems: killedProblems(e, hooks) };
  }
}

/** Problems as lines a person (or the CLI's one-line error) reads: "env.env 2:13: message". */
export function describeProblem(p: SpecProblem): string {
  const at = p.line ? ` ${p.line}${p.column ? `:${p.column}` : ''}` : '';
  return `${p.path}${at}: ${p.message}`;
}

/**
 * The spec, when it runs; else an InvalidSpecError listing every problem. The create / save
 * procedures call this so the API cannot store what the editor would refuse.
 */
export async function runnableSpec(raw: unknown, runner: ValidationRunner): Promise<HarnessSpec> {
  const result = await validateSpec(raw, runner);
  if (!result.valid) {
    throw new InvalidSpecError(
      `the harness cannot run: ${result.problems.map(describeProblem).join('; ')}`,
    );
  }
  const checked = checkSpec(raw);
  if (!checked.ok) throw new InvalidSpecError(checked.message);
  return checked.spec;
}
