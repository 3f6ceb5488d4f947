// Runs node:test files in a child process with a time limit, a heap limit and a cap on output;
// the child leads its own process group, so a timeout kills everything it started.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { releaseGroup, trackGroup } from './cleanup.ts';

const REPORTER = fileURLToPath(new URL('./reporter.mjs', import.meta.url));
const ENTRY = fileURLToPath(new URL('./run-entry.mjs', import.meta.url));
const MAX_OUTPUT = 1 << 20;
const TIMEOUT_BIN = ['/usr/bin/timeout', '/bin/timeout'].find((p) => existsSync(p));

export interface TestOutcome {
  /** `<file relative to the checkout>::<test name>`, as FAIL_TO_PASS / PASS_TO_PASS list them. */
  id: string;
  file: string;
  name: string;
  status: 'pass' | 'fail';
  message?: string;
}

export interface RunReport {
  outcomes: TestOutcome[];
  timedOut: boolean;
  /** Killed for printing more than 1 MiB. */
  overflow: boolean;
  exitCode: number | null;
  stderr: string;
}

export interface RunOptions {
  cwd: string;
  /** Test files relative to cwd. */
  files: string[];
  namePattern?: string;
  timeoutMs: number;
  /** V8 old-space limit of the child (MiB). */
  memoryMb?: number;
}

const ReporterLine = (
  value: unknown,
): value is {
  status: 'pass' | 'fail';
  file: string | null;
  name: string;
  nesting: number;
  message?: string;
} => typeof value === 'object' && value !== null && 'status' in value && 'name' in value;

export function testId(file: string, name: string): string {
  return `${file}::${name}`;
}

/** The top-level test outcomes in the reporter's JSON lines (paths relative to `cwd`). */
function parseReport(stdout: string, cwd: string): TestOutcome[] {
  const outcomes: TestOutcome[] = [];
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      continue;
    }
    if (!ReporterLine(parsed) || parsed.nesting !== 0) continue;
    let file = parsed.file ?? '';
    let name = parsed.name;
    const load = /^cannot load (.+)$/.exec(name);
    if (load) {
      file = load[1]!;
      name = '(load)';
    }
    if (isAbsolute(file)) file = relative(cwd, file);
    outcomes.push({
      id: testId(file, name),
      file,
      name,
      status: parsed.status,
      ...(parsed.message ? { message: parsed.message } : {}),
    });
  }
  return outcomes;
}

export function runNodeTests(o: RunOptions): Promise<RunReport> {
  const args = [
    `--max-old-space-size=${o.memoryMb ?? 256}`,
    `--test-reporter=${REPORTER}`,
    '--test-reporter-destination=stdout',
    `--test-timeout=${Math.max(500, Math.floor(o.timeoutMs / 2))}`,
    ...(o.namePattern ? [`--test-name-pattern=${o.namePattern}`] : []),
    ENTRY,
    ...o.files,
  ];
  return new Promise((resolve, reject) => {
    // An empty environment: no NODE_OPTIONS (loaders, inspectors) leak into the code under test.
    // coreutils `timeout` is a backstop that holds even if this thread or process dies first.
    const hardLimit = String(Math.ceil(o.timeoutMs / 1000) + 5);
    const [command, commandArgs] = TIMEOUT_BIN
      ? [TIMEOUT_BIN, ['-s', 'KILL', hardLimit, process.execPath, ...args]]
      : [process.execPath, args];
    const child = spawn(command, commandArgs, {
      cwd: o.cwd,
      detached: true,
      env: { NODE_ENV: 'test' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const pid = child.pid;
    if (pid === undefined) {
      reject(new Error('could not start node for the tests'));
      return;
    }
    trackGroup(pid);
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let overflow = false;
    const timer = setTimeout(() => {
      timedOut = true;
      releaseGroup(pid, true);
    }, o.timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      if (stdout.length > MAX_OUTPUT && !overflow) {
        overflow = true;
        releaseGroup(pid, true);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr = (stderr + d).slice(-4000);
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      releaseGroup(pid, true);
      reject(error);
    });
    child.once('close', (exitCode) => {
      clearTimeout(timer);
      // The group may hold grandchildren the tests started: end them with the run.
      releaseGroup(pid, true);
      const outcomes = parseReport(stdout, o.cwd);
      resolve({ outcomes, timedOut, overflow, exitCode, stderr });
    });
  });
}
