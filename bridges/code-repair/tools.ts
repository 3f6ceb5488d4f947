// The code-repair bridge's surface as data: tool argument schemas (zod, so every call is
// validated), the LLM tool list, the state view's schema and the snapshot's.
import { z } from 'zod';
import { zodToJsonSchema } from '../core/schema.ts';
import type { JsonSchema, ToolSpec } from '../core/types.ts';

export const MAX_READ_LINES = 400;
export const MAX_MATCHES = 50;
export const MAX_RUNS_IN_VIEW = 20;
export const LIMITS = { testTimeoutMs: 15_000, verifyTimeoutMs: 30_000, memoryMb: 256 };

const RelPath = z.string().min(1).max(300).describe('a path relative to the repository root');
export const ListFilesArgs = z.strictObject({
  path: RelPath.optional().describe('a folder to list (default: the whole repository)'),
});
export const ReadFileArgs = z.strictObject({
  path: RelPath,
  start: z.number().int().min(1).optional().describe('first line (1-based, default 1)'),
  end: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(`last line (default start + ${MAX_READ_LINES - 1})`),
});
export const SearchArgs = z.strictObject({
  pattern: z.string().min(1).max(200).describe('a JavaScript regular expression, matched per line'),
  path: RelPath.optional().describe('a file or folder to search (default: everything)'),
});
export const EditArgs = z.strictObject({
  path: RelPath,
  old: z
    .string()
    .min(1)
    .describe('exact text to replace; must occur exactly once unless replace_all'),
  new: z.string().describe('replacement text'),
  replace_all: z.boolean().optional().describe('replace every occurrence (default false)'),
});
export const RunTestsArgs = z.strictObject({
  file: RelPath.optional().describe('one test file, e.g. test/csv.test.js (default: all of test/)'),
  name: z.string().min(1).max(200).optional().describe('only tests whose name contains this text'),
});
export const SubmitArgs = z.strictObject({});

export const TOOL_ARGS = {
  list_files: ListFilesArgs,
  read_file: ReadFileArgs,
  search: SearchArgs,
  edit: EditArgs,
  run_tests: RunTestsArgs,
  submit: SubmitArgs,
} as const;
export type ToolName = keyof typeof TOOL_ARGS;

export const codeRepairTools: ToolSpec[] = [
  ['list_files', 'List the files of the repository (or of one folder), one path per line.'],
  ['read_file', 'Show a file with line numbers, optionally only lines start..end.'],
  ['search', 'Search files for a regular expression; prints path:line: text for each match.'],
  [
    'edit',
    'Replace the exact text `old` with `new` in a file. Fails when `old` is absent, or occurs more than once without replace_all.',
  ],
  [
    'run_tests',
    'Run the visible tests (test/), optionally one file or tests whose name contains a text; prints the failures.',
  ],
  [
    'submit',
    'Submit the current code as your fix. Ends the episode; hidden tests decide the outcome.',
  ],
].map(([name, description]) => ({
  name: name!,
  description: description!,
  parameters: zodToJsonSchema(TOOL_ARGS[name as ToolName]),
}));

const TestRunZ = z.strictObject({
  file: z.string().nullable(),
  name: z.string().nullable(),
  afterEdits: z.number().int().min(0).describe('edits made before this run'),
  ran: z.array(z.string()).describe('test ids run (file::name)'),
  passed: z.number().int().min(0),
  failed: z.number().int().min(0),
  failing: z.array(z.string()),
  timedOut: z.boolean(),
});

export const CodeRepairStateSchema = z.strictObject({
  task: z.string(),
  package: z.string(),
  failingTests: z
    .array(z.string())
    .describe(
      'visible tests that fail on the buggy checkout (empty when only hidden tests catch it)',
    ),
  filesChanged: z
    .array(z.string())
    .describe('files whose content differs from the initial checkout'),
  edits: z.number().int().min(0),
  testRuns: z.array(TestRunZ).describe(`the last ${MAX_RUNS_IN_VIEW} test runs, oldest first`),
  testRunCount: z.number().int().min(0),
  submitted: z.boolean(),
  invalidActions: z.number().int().min(0),
});
export type CodeRepairState = z.infer<typeof CodeRepairStateSchema>;
export const codeRepairStateSchema: JsonSchema = zodToJsonSchema(CodeRepairStateSchema);

export const SnapshotStateZ = z.strictObject({
  view: CodeRepairStateSchema,
  observation: z.string(),
  files: z.record(z.string(), z.string()),
  evaluation: z
    .strictObject({
      success: z.boolean(),
      score: z.number(),
      metrics: z.record(z.string(), z.number()),
    })
    .nullable(),
});
