// The paper's code-repair harness examples (PAPERS.md, EnvRigger co-evolution on SWE-bench) as
// Contract hook code and HarnessSpec builders. Specs are plain JSON, so the bridge stays free of
// server imports; server/harness validates them like any user spec.

/** Blocks submit until a test run has included every visible test that fails on the bug. */
export const REQUIRE_FAILING_TEST_RUN = `export function filterAction(action, state) {
  if (action.name !== 'submit') return action;
  const runs = state.testRuns;
  if (runs.length === 0) {
    return { blocked: 'Submit is blocked: run the failing test first (run_tests).' };
  }
  const missing = state.failingTests.filter((id) => !runs.some((run) => run.ran.includes(id)));
  if (missing.length > 0) {
    return { blocked: 'Submit is blocked: run the failing test first: ' + missing[0] };
  }
  return action;
}
`;

/** Simulates a broken default test entry point: only run_tests with a file filter works. */
export const BROKEN_TEST_ENTRY_POINT = `export function filterAction(action) {
  if (action.name === 'run_tests' && !action.args.file) {
    return {
      blocked:
        "npm test: Error [ERR_MODULE_NOT_FOUND]: Cannot find module './test/index.js' " +
        'imported from the test runner (exit code 1).',
    };
  }
  return action;
}
`;

/** Forbids in-place bulk edits (the paper's "no sed -i"): no replace_all, at most 3 lines per edit. */
export const NO_BULK_EDITS = `export function filterAction(action) {
  if (action.name !== 'edit') return action;
  if (action.args.replace_all) {
    return { blocked: 'Bulk edits are disabled: replace_all is not allowed; edit one occurrence at a time.' };
  }
  const lines = String(action.args.old).split('\\n').length;
  if (lines > 3) {
    return { blocked: 'Bulk edits are disabled: change at most 3 lines per edit (this one replaces ' + lines + ').' };
  }
  return action;
}
`;

export const CODE_REPAIR_TEMPLATES = {
  'require-failing-test-run': {
    title: 'Block submit until the failing test has been run',
    defect: 'the policy submits patches without running the failing test',
    code: REQUIRE_FAILING_TEST_RUN,
  },
  'broken-test-entry-point': {
    title: 'Broken default test entry point',
    defect: 'the policy only ever runs the whole suite the default way',
    code: BROKEN_TEST_ENTRY_POINT,
  },
  'no-bulk-edits': {
    title: 'Forbid in-place bulk edits',
    defect: 'the policy rewrites many lines or every occurrence at once',
    code: NO_BULK_EDITS,
  },
} as const;
export type CodeRepairTemplate = keyof typeof CODE_REPAIR_TEMPLATES;

/** The HarnessSpec shape (server/harness/spec.ts), restated so this module imports nothing from server/. */
export interface TemplateSpec {
  version: 1;
  env: { type: 'contract'; code: string; env: TemplateNode } | TemplateNode;
}
type TemplateNode =
  | { type: 'base'; bridge: string; task: string }
  | { type: 'contract'; code: string; env: TemplateNode };

/** contract(...contract(base)) with the chosen templates, first innermost. */
export function codeRepairTemplateSpec(
  task: string,
  templates: CodeRepairTemplate[],
): TemplateSpec {
  let env: TemplateNode = { type: 'base', bridge: 'code-repair', task };
  for (const name of templates)
    env = { type: 'contract', code: CODE_REPAIR_TEMPLATES[name].code, env };
  return { version: 1, env };
}
