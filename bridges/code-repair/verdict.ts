// Test runs and the hidden verdict, both pure functions of the files: cached by content so replays,
// determinism checks and repeated evaluate() calls do not spawn node again.
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { makeCheckoutDir, removeCheckoutDir } from './cleanup.ts';
import { hiddenTestFiles, PACKAGES_DIR } from './packages.ts';
import { type RunReport, runNodeTests } from './runner.ts';
import type { CodeRepairTask } from './tasks.ts';
import { LIMITS } from './tools.ts';

const runCache = new Map<string, { report: RunReport }>();
const verdictCache = new Map<string, VerdictCounts>();
function remember<V>(cache: Map<string, V>, key: string, value: V): V {
  if (cache.size >= 500) cache.delete(cache.keys().next().value as string);
  cache.set(key, value);
  return value;
}

export interface VerdictCounts {
  f2pPassed: number;
  p2pPassed: number;
  timedOut: boolean;
}

export function hashFiles(files: Record<string, string>): string {
  const hash = createHash('sha256');
  for (const key of Object.keys(files).sort())
    hash.update(key).update('\0').update(files[key]!).update('\0');
  return hash.digest('hex');
}

/** A visible-test run of `key` (files hash, test files, name pattern), from the cache or `run`. */
export async function cachedRun(key: string, run: () => Promise<RunReport>): Promise<RunReport> {
  return runCache.get(key)?.report ?? remember(runCache, key, { report: await run() }).report;
}

/** Runs (or recalls) the hidden verdict for a src/ state of a task. */
export async function verdict(
  task: CodeRepairTask,
  src: Record<string, string>,
  initial: Record<string, string>,
): Promise<VerdictCounts> {
  const unchanged = Object.keys(src).every((f) => src[f] === initial[f]);
  // The buggy checkout's verdict is known from generation: no process needed.
  if (unchanged) return { f2pPassed: 0, p2pPassed: task.PASS_TO_PASS.length, timedOut: false };
  const key = `${task.id}|${hashFiles(src)}`;
  const cached = verdictCache.get(key);
  if (cached) return cached;
  const dir = await makeCheckoutDir();
  try {
    // Pristine package (visible + hidden tests), then the agent's src/ on top.
    cpSync(join(PACKAGES_DIR, task.package), dir, { recursive: true });
    for (const [file, text] of Object.entries(src)) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), text);
    }
    const files = [
      ...new Set([...task.FAIL_TO_PASS, ...task.PASS_TO_PASS].map((id) => id.split('::')[0]!)),
    ].filter((f) => f.startsWith('test/') || hiddenTestFiles(task.package).includes(f));
    const report = await runNodeTests({
      cwd: dir,
      files,
      timeoutMs: LIMITS.verifyTimeoutMs,
      memoryMb: LIMITS.memoryMb,
    });
    const passed = new Set(report.outcomes.filter((o) => o.status === 'pass').map((o) => o.id));
    return remember(verdictCache, key, {
      f2pPassed: task.FAIL_TO_PASS.filter((id) => passed.has(id)).length,
      p2pPassed: task.PASS_TO_PASS.filter((id) => passed.has(id)).length,
      timedOut: report.timedOut || report.overflow,
    });
  } finally {
    removeCheckoutDir(dir);
  }
}
