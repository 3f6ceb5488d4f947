// The code-repair task list: generated once by generate.ts (mutants kept only when at least one
// test fails on them), committed as tasks.json so listTasks is instant.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { TaskInfo } from '../core/types.ts';
import { OPERATORS } from './mutate.ts';

export const SPLITS = ['train', 'test'] as const;

export const CodeRepairTaskSchema = z.strictObject({
  id: z.string(),
  package: z.string(),
  operator: z.enum(OPERATORS),
  file: z.string(),
  line: z.number().int().min(1),
  before: z.array(z.string()),
  after: z.array(z.string()),
  change: z.string(),
  symbol: z.string(),
  problem: z.string(),
  /** SWE-bench: tests (visible and hidden) that fail on the bug and pass on the fix. */
  FAIL_TO_PASS: z.array(z.string()).min(1),
  /** SWE-bench: tests that pass both before and after: the fix must not break them. */
  PASS_TO_PASS: z.array(z.string()),
  /** Visible tests (test/) among FAIL_TO_PASS: 0 means only the hidden set reveals the bug. */
  visibleFailing: z.array(z.string()),
  split: z.enum(SPLITS),
  difficulty: z.number().min(0).max(1),
});
export type CodeRepairTask = z.infer<typeof CodeRepairTaskSchema>;

export const TaskFileSchema = z.strictObject({
  version: z.literal(1),
  /** packageHash() of each package when the tasks were generated. */
  packages: z.record(z.string(), z.string()),
  tasks: z.array(CodeRepairTaskSchema),
});

let cache:
  | { tasks: CodeRepairTask[]; byId: Map<string, CodeRepairTask>; infos: TaskInfo[] }
  | undefined;

function load() {
  if (!cache) {
    const text = readFileSync(new URL('./tasks.json', import.meta.url), 'utf8');
    const file = TaskFileSchema.parse(JSON.parse(text));
    cache = {
      tasks: file.tasks,
      byId: new Map(file.tasks.map((t) => [t.id, t])),
      infos: file.tasks.map(taskInfo),
    };
  }
  return cache;
}

export function taskPackages(): Record<string, string> {
  const text = readFileSync(new URL('./tasks.json', import.meta.url), 'utf8');
  return TaskFileSchema.parse(JSON.parse(text)).packages;
}

export function allTasks(): CodeRepairTask[] {
  return load().tasks;
}

export function findTask(id: string): CodeRepairTask | undefined {
  return load().byId.get(id);
}

export function allTaskInfos(): TaskInfo[] {
  return load().infos;
}

function taskInfo(t: CodeRepairTask): TaskInfo {
  return {
    id: t.id,
    type: t.operator,
    goal: t.problem,
    split: t.split,
    difficulty: t.difficulty,
    meta: {
      package: t.package,
      failToPass: t.FAIL_TO_PASS.length,
      passToPass: t.PASS_TO_PASS.length,
      visibleFailing: t.visibleFailing.length,
    },
  };
}
