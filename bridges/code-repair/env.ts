// SWE-style code repair as an ActionableEnv: each episode gets its own checkout of a small package
// with one injected bug; the agent lists, reads, searches and edits files, runs the visible tests,
// and submits. The verifier runs the hidden FAIL_TO_PASS + PASS_TO_PASS tests on the checkout's
// src/ in a child process with time and memory limits. Paths in observations are relative, so
// episodes are deterministic whatever the temp directory.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import type { z } from 'zod';
import { filterTasks, invalidStep, stepResult } from '../core/helpers.ts';
import {
  type Action,
  type ActionableEnv,
  EnvClosedError,
  EnvInfraError,
  type EnvSnapshot,
  type Evaluation,
  type Json,
  type JsonSchema,
  type Observation,
  type ResetOptions,
  type ResetResult,
  type StepResult,
  type TaskFilter,
  type TaskInfo,
  type ToolSpec,
  UnknownTaskError,
} from '../core/types.ts';
import { makeCheckoutDir, removeCheckoutDir } from './cleanup.ts';
import { applyMutation } from './mutate.ts';
import { checkoutFiles, readPackageFile } from './packages.ts';
import { runNodeTests } from './runner.ts';
import { allTaskInfos, type CodeRepairTask, findTask } from './tasks.ts';
import {
  type CodeRepairState,
  codeRepairStateSchema,
  codeRepairTools,
  type EditArgs,
  LIMITS,
  type ListFilesArgs,
  MAX_MATCHES,
  MAX_READ_LINES,
  MAX_RUNS_IN_VIEW,
  type ReadFileArgs,
  type RunTestsArgs,
  type SearchArgs,
  SnapshotStateZ,
  TOOL_ARGS,
  type ToolName,
} from './tools.ts';
import { cachedRun, hashFiles, verdict } from './verdict.ts';

/** The limits object is shared (and tests lower the test-run limit through this module). */
export { LIMITS } from './tools.ts';

export const ENV_TYPE = 'code-repair';

function oneLine(text: string, max = 240): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 3)}...` : flat;
}

class InvalidAction extends Error {}

export class CodeRepairEnv implements ActionableEnv {
  readonly envType = ENV_TYPE;
  private dir: string | undefined;
  private task: CodeRepairTask | undefined;
  private initial: Record<string, string> = {};
  private view: CodeRepairState | undefined;
  private resetOptions: ResetOptions | undefined;
  private lastObservation: Observation = { text: 'No repository yet: call reset with a task.' };
  private evaluation: Evaluation | null = null;
  private closed = false;

  async listTasks(filter?: TaskFilter): Promise<TaskInfo[]> {
    return filterTasks(allTaskInfos(), filter);
  }

  async reset(options: ResetOptions): Promise<ResetResult> {
    this.assertOpen();
    const task = findTask(options.taskId);
    if (!task) throw new UnknownTaskError(ENV_TYPE, options.taskId);
    await this.checkout(task);
    this.resetOptions = structuredClone(options);
    this.evaluation = null;
    this.view = {
      task: task.id,
      package: task.package,
      failingTests: [...task.visibleFailing],
      filesChanged: [],
      edits: 0,
      testRuns: [],
      testRunCount: 0,
      submitted: false,
      invalidActions: 0,
    };
    const files = Object.keys(this.initial).sort();
    this.lastObservation = {
      text:
        `${task.problem}\n\nRepository: the \`${task.package}\` package (${files.length} files: ${files.join(', ')}). ` +
        'Tools: list_files, read_file, search, edit, run_tests, submit.',
    };
    return { observation: this.lastObservation, info: {} };
  }

  /** A fresh checkout of the task's package with the bug applied (hidden tests never copied). */
  private async checkout(task: CodeRepairTask): Promise<void> {
    if (this.dir) removeCheckoutDir(this.dir);
    this.dir = undefined;
    const dir = await makeCheckoutDir();
    this.dir = dir;
    this.task = task;
    this.initial = {};
    for (const file of checkoutFiles(task.package)) {
      let text = readPackageFile(task.package, file);
      if (file === task.file) text = applyMutation(text, task);
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), text);
      this.initial[file] = text;
    }
  }

  async step(action: Action): Promise<StepResult> {
    this.assertOpen();
    const view = this.view;
    if (!view || !this.dir) return this.invalid('No repository yet: call reset with a task first.');
    if (view.submitted)
      return this.invalid('The fix was already submitted; reset to start again.', true);
    if (!(action.name in TOOL_ARGS)) {
      return this.invalid(
        `Unknown tool '${action.name}'. Tools: ${Object.keys(TOOL_ARGS).join(', ')}.`,
      );
    }
    const name = action.name as ToolName;
    const parsed = TOOL_ARGS[name].safeParse(action.args);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue && issue.path.length > 0 ? `'${issue.path.join('.')}': ` : '';
      return this.invalid(`Bad arguments for ${name}: ${where}${issue?.message ?? 'invalid'}.`);
    }
    try {
      switch (name) {
        case 'list_files':
          return this.ok(this.listFiles(parsed.data as z.infer<typeof ListFilesArgs>));
        case 'read_file':
          return this.ok(this.readFile(parsed.data as z.infer<typeof ReadFileArgs>));
        case 'search':
          return this.ok(this.search(parsed.data as z.infer<typeof SearchArgs>));
        case 'edit':
          return this.ok(this.edit(parsed.data as z.infer<typeof EditArgs>));
        case 'run_tests':
          return this.ok(await this.runTests(parsed.data as z.infer<typeof RunTestsArgs>));
        case 'submit':
          return await this.submit();
      }
    } catch (error) {
      if (error instanceof InvalidAction) return this.invalid(error.message);
      throw error;
    }
  }

  private resolve(path: string): { abs: string; rel: string } {
    const rel = normalize(path.replace(/^\.\/+/, '')).replace(/\/+$/, '');
    if (rel.startsWith('..') || rel.startsWith(sep) || rel.includes(`${sep}..${sep}`))
      throw new InvalidAction(`'${path}' is outside the repository.`);
    return { abs: rel === '.' ? this.dir! : join(this.dir!, rel), rel: rel === '.' ? '' : rel };
  }

  private files(under = ''): string[] {
    const out: string[] = [];
    const walk = (abs: string) => {
      for (const name of readdirSync(abs).sort()) {
        const path = join(abs, name);
        if (statSync(path).isDirectory()) walk(path);
        else out.push(relative(this.dir!, path));
      }
    };
    const { abs } = this.resolve(under || '.');
    let stat: ReturnType<typeof statSync> | undefined;
    try {
      stat = statSync(abs);
    } catch {
      throw new InvalidAction(`No such file or folder: '${under}'.`);
    }
    if (stat.isDirectory()) walk(abs);
    else out.push(relative(this.dir!, abs));
    return out;
  }

  private listFiles(args: z.infer<typeof ListFilesArgs>): string {
    const files = this.files(args.path ?? '');
    return files.length > 0 ? files.join('\n') : '(no files)';
  }

  private readText(path: string): { rel: string; text: string } {
    const { abs, rel } = this.resolve(path);
    let text: string;
    try {
      if (statSync(abs).isDirectory())
        throw new InvalidAction(`'${path}' is a folder; use list_files.`);
      text = readFileSync(abs, 'utf8');
    } catch (error) {
      if (error instanceof InvalidAction) throw error;
      throw new InvalidAction(`No such file: '${path}'. Use list_files to see the files.`);
    }
    return { rel, text };
  }

  private readFile(args: z.infer<typeof ReadFileArgs>): string {
    const { rel, text } = this.readText(args.path);
    const lines = text.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    const start = args.start ?? 1;
    const end = Math.min(
      args.end ?? start + MAX_READ_LINES - 1,
      lines.length,
      start + MAX_READ_LINES - 1,
    );
    if (start > lines.length)
      throw new InvalidAction(`${rel} has ${lines.length} lines; start ${start} is past the end.`);
    if (end < start) throw new InvalidAction(`end (${end}) is before start (${start}).`);
    const width = String(end).length;
    const body = lines
      .slice(start - 1, end)
      .map((line, i) => `${String(start + i).padStart(width)} | ${line}`)
      .join('\n');
    return `${rel} (lines ${start}-${end} of ${lines.length})\n${body}`;
  }

  private search(args: z.infer<typeof SearchArgs>): string {
    let re: RegExp;
    try {
      re = new RegExp(args.pattern);
    } catch (error) {
      throw new InvalidAction(`Invalid pattern: ${(error as Error).message}.`);
    }
    const matches: string[] = [];
    let total = 0;
    for (const file of this.files(args.path ?? '')) {
      const lines = readFileSync(join(this.dir!, file), 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (!re.test(line)) return;
        total += 1;
        if (matches.length < MAX_MATCHES) matches.push(`${file}:${i + 1}: ${line.trim()}`);
      });
    }
    if (total === 0) return `No matches for /${args.pattern}/.`;
    const more =
      total > matches.length ? `\n(${total - matches.length} more matches not shown)` : '';
    return `${total} match${total === 1 ? '' : 'es'} for /${args.pattern}/:\n${matches.join('\n')}${more}`;
  }

  private edit(args: z.infer<typeof EditArgs>): string {
    const { rel, text } = this.readText(args.path);
    const count = text.split(args.old).length - 1;
    if (count === 0)
      throw new InvalidAction(
        `The text to replace was not found in ${rel} (it must match exactly, whitespace included).`,
      );
    if (count > 1 && !args.replace_all)
      throw new InvalidAction(
        `The text to replace occurs ${count} times in ${rel}; include more surrounding lines so it is unique, or set replace_all.`,
      );
    const next = args.replace_all
      ? text.split(args.old).join(args.new)
      : text.replace(args.old, () => args.new);
    writeFileSync(join(this.dir!, rel), next);
    const view = this.view!;
    this.view = { ...view, edits: view.edits + 1, filesChanged: this.changedFiles() };
    const line = text.slice(0, text.indexOf(args.old)).split('\n').length;
    return `Edited ${rel}: replaced ${count === 1 ? '1 occurrence' : `${count} occurrences`} (first at line ${line}).`;
  }

  private changedFiles(): string[] {
    const now = this.currentFiles();
    return Object.keys(now)
      .filter((f) => now[f] !== this.initial[f])
      .sort();
  }

  private currentFiles(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const file of this.files('')) out[file] = readFileSync(join(this.dir!, file), 'utf8');
    return out;
  }

  private clean(text: string): string {
    return this.dir ? text.split(this.dir).join('.') : text;
  }

  private async runTests(args: z.infer<typeof RunTestsArgs>): Promise<string> {
    const visible = this.files('').filter((f) => f.startsWith('test/') && f.endsWith('.test.js'));
    let files = visible;
    if (args.file) {
      const { rel } = this.resolve(args.file);
      if (!visible.includes(rel))
        throw new InvalidAction(
          `'${args.file}' is not a test file. Test files: ${visible.join(', ')}.`,
        );
      files = [rel];
    }
    const pattern = args.name?.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const key = `${hashFiles(this.currentFiles())}|${files.join(',')}|${pattern ?? ''}`;
    const report = await cachedRun(key, () =>
      runNodeTests({
        cwd: this.dir!,
        files,
        timeoutMs: LIMITS.testTimeoutMs,
        memoryMb: LIMITS.memoryMb,
        ...(pattern ? { namePattern: pattern } : {}),
      }),
    );
    const failing = report.outcomes.filter((o) => o.status === 'fail');
    const passed = report.outcomes.length - failing.length;
    const view = this.view!;
    const run = {
      file: args.file ?? null,
      name: args.name ?? null,
      afterEdits: view.edits,
      ran: report.outcomes.map((o) => o.id),
      passed,
      failed: failing.length,
      failing: failing.map((o) => o.id),
      timedOut: report.timedOut || report.overflow,
    };
    this.view = {
      ...view,
      testRuns: [...view.testRuns, run].slice(-MAX_RUNS_IN_VIEW),
      testRunCount: view.testRunCount + 1,
    };
    const lines: string[] = [];
    if (report.timedOut)
      lines.push(`The test run was killed after ${LIMITS.testTimeoutMs / 1000} s (time limit).`);
    if (report.overflow) lines.push('The test run was killed: it printed more than 1 MiB.');
    if (report.outcomes.length === 0 && !report.timedOut) {
      lines.push(
        args.name ? `No test name contains '${args.name}'.` : 'No tests ran.',
        ...(report.stderr.trim() ? [oneLine(this.clean(report.stderr), 400)] : []),
      );
    } else {
      lines.push(`${report.outcomes.length} tests: ${passed} passed, ${failing.length} failed.`);
      for (const f of failing.slice(0, 10))
        lines.push(`FAIL ${f.id}${f.message ? `\n  ${oneLine(this.clean(f.message))}` : ''}`);
      if (failing.length > 10) lines.push(`(${failing.length - 10} more failures not shown)`);
    }
    return lines.join('\n');
  }

  private async submit(): Promise<StepResult> {
    const view = this.view!;
    this.view = { ...view, submitted: true };
    const evaluation = await this.evaluate();
    this.lastObservation = {
      text: `Submitted your fix (${view.filesChanged.length} file${view.filesChanged.length === 1 ? '' : 's'} changed: ${view.filesChanged.join(', ') || 'none'}). The hidden tests decide the outcome.`,
    };
    return stepResult(this.lastObservation, {
      reward: evaluation.success ? 1 : 0,
      terminated: true,
    });
  }

  observe(): Observation {
    return this.lastObservation;
  }

  /**
   * Stage's callback after its set-up: edits, test runs and invalid actions so far were the
   * set-up's, not the agent's (the files it changed stay changed).
   */
  afterSetup(): void {
    if (!this.view) return;
    this.view = { ...this.view, edits: 0, testRuns: [], testRunCount: 0, invalidActions: 0 };
    // A cached verdict carries the old counters in its metrics.
    this.evaluation = null;
  }

  /** The verifier: hidden FAIL_TO_PASS and PASS_TO_PASS on the checkout's src/, pristine tests. */
  async evaluate(): Promise<Evaluation> {
    const task = this.task;
    const view = this.view;
    if (!task || !view || !this.dir) return { success: false, score: 0, metrics: {} };
    if (this.evaluation && view.submitted) return this.evaluation;
    const src: Record<string, string> = {};
    for (const [file, text] of Object.entries(this.currentFiles()))
      if (file.startsWith('src/')) src[file] = text;
    const counts = await verdict(task, src, this.initial);
    const f2p = task.FAIL_TO_PASS.length;
    const p2p = task.PASS_TO_PASS.length;
    const success = !counts.timedOut && counts.f2pPassed === f2p && counts.p2pPassed === p2p;
    const evaluation: Evaluation = {
      success,
      score: success ? 1 : 0,
      metrics: {
        failToPassPassed: counts.f2pPassed,
        failToPassTotal: f2p,
        passToPassPassed: counts.p2pPassed,
        passToPassTotal: p2p,
        filesChanged: view.filesChanged.length,
        edits: view.edits,
        testRuns: view.testRunCount,
        submitted: view.submitted ? 1 : 0,
        invalidActions: view.invalidActions,
      },
    };
    if (view.submitted) this.evaluation = evaluation;
    return evaluation;
  }

  getEnvState(): Json {
    return this.view ? (structuredClone(this.view) as unknown as Json) : null;
  }

  stateSchema(): JsonSchema {
    return codeRepairStateSchema;
  }

  tools(): ToolSpec[] {
    return codeRepairTools;
  }

  async saveState(): Promise<EnvSnapshot> {
    this.assertOpen();
    if (!this.view || !this.resetOptions || !this.dir)
      throw new EnvInfraError('code-repair: nothing to save before reset');
    const now = this.currentFiles();
    const files: Record<string, string> = {};
    for (const f of this.changedFiles()) files[f] = now[f]!;
    return {
      envType: ENV_TYPE,
      reset: structuredClone(this.resetOptions),
      state: {
        view: structuredClone(this.view) as unknown as Json,
        observation: this.lastObservation.text,
        files,
        evaluation: this.evaluation ? (structuredClone(this.evaluation) as unknown as Json) : null,
      },
    };
  }

  async restore(snapshot: EnvSnapshot): Promise<void> {
    if (snapshot.envType !== ENV_TYPE)
      throw new EnvInfraError(`code-repair: cannot restore a '${snapshot.envType}' snapshot`);
    const parsed = SnapshotStateZ.safeParse(snapshot.state);
    if (!parsed.success)
      throw new EnvInfraError(
        `code-repair: invalid snapshot: ${parsed.error.issues[0]?.message ?? 'bad shape'}`,
      );
    const task = findTask(snapshot.reset.taskId);
    if (!task || parsed.data.view.task !== task.id)
      throw new UnknownTaskError(ENV_TYPE, snapshot.reset.taskId);
    await this.checkout(task);
    for (const [file, text] of Object.entries(parsed.data.files)) {
      const { abs } = this.resolve(file);
      if (!(file in this.initial))
        throw new EnvInfraError(`code-repair: snapshot has unknown file ${file}`);
      writeFileSync(abs, text);
    }
    this.resetOptions = structuredClone(snapshot.reset);
    this.view = structuredClone(parsed.data.view);
    this.lastObservation = { text: parsed.data.observation };
    this.evaluation = parsed.data.evaluation;
  }

  /** Idempotent: removes the checkout (test processes end with their run). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.dir) removeCheckoutDir(this.dir);
    this.dir = undefined;
  }

  private assertOpen(): void {
    if (this.closed) throw new EnvClosedError(ENV_TYPE);
  }

  private ok(text: string): StepResult {
    this.lastObservation = { text };
    return stepResult(this.lastObservation);
  }

  private invalid(message: string, terminated = false): StepResult {
    if (this.view && !this.view.submitted)
      this.view = { ...this.view, invalidActions: this.view.invalidActions + 1 };
    this.lastObservation = { text: message };
    return invalidStep(this.lastObservation, { terminated });
  }
}
