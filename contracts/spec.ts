// HarnessSpec: the versioned JSON form of a harness stack (a tree). Zod-validated; the committed
// JSON Schema (schemas/harness-spec.schema.json) is generated from HarnessSpecSchema. Shared by the
// engine, the rollout store, the CLI and the graph editor; `checkSpec` adds the rules the schema
// cannot say and reports the first problem as one line naming its JSON path.
import { z } from 'zod';
import { type ContractRule, ContractRulesSchema, rulesProblem } from './contract-rules.ts';
import { JsonSchemaZ, MAX_JSON_DEPTH, nestsDeeperThan } from './json.ts';

export { JsonSchemaZ };

export const ActionSchema = z.strictObject({
  name: z.string().min(1),
  args: z.record(z.string(), JsonSchemaZ),
});

/** Hook code is limited so that a spec stays a spec (and a hostile one cannot flood the store). */
export const MAX_HOOK_CODE_CHARS = 64 * 1024;
export const MAX_STAGE_ACTIONS = 200;
export const MAX_SPEC_DEPTH = 16;

export const CHAIN_MODES = ['sequential', 'branch', 'switch', 'alternate'] as const;
export type ChainMode = (typeof CHAIN_MODES)[number];

/**
 * What success means for a `branch` chain whose first leg failed (the paper leaves it open):
 * `all-legs` (the default) — every leg in play must pass, so after a failed first leg the composite
 * cannot succeed; `remedial-decides` — after a failed first leg, the remedial leg's verdict is the
 * composite's (the first leg's failure is recorded, not counted). After a passed first leg both
 * rules ask for the first and the second leg.
 */
export const BRANCH_VERDICTS = ['all-legs', 'remedial-decides'] as const;
export type BranchVerdict = (typeof BRANCH_VERDICTS)[number];
export const DEFAULT_BRANCH_VERDICT: BranchVerdict = 'all-legs';

/**
 * A Stage's first observation. `reset` (the default, the paper's behaviour): the env's reset text,
 * as if nothing had been set up; `state`: the env's own description of the start state after the
 * set-up (household: ALFWorld's intro with where the agent stands and what it holds; other
 * bridges: their current observation).
 */
export const STAGE_INTROS = ['reset', 'state'] as const;
export type StageIntro = (typeof STAGE_INTROS)[number];
export const DEFAULT_STAGE_INTRO: StageIntro = 'reset';

export type BaseNode = { type: 'base'; bridge: string; task: string };
export type StageNode = {
  type: 'stage';
  actions: z.infer<typeof ActionSchema>[];
  /** The first observation the agent gets (default `reset`, see STAGE_INTROS). */
  intro?: StageIntro;
  env: HarnessNode;
};
/**
 * Declarative `rules` (contracts/contract-rules.ts, run natively) and/or sandboxed hook `code`;
 * with both, the rules run first.
 */
export type ContractNode = {
  type: 'contract';
  rules?: ContractRule[];
  code?: string;
  env: HarnessNode;
};
export type ChainNode = {
  type: 'chain';
  mode: ChainMode;
  first: HarnessNode;
  second: HarnessNode;
  remedial?: HarnessNode;
  /** `switch` mode: a JavaScript expression over `state` (the first leg's state view). */
  when?: string;
  /** `branch` mode: the verdict rule (default `all-legs`, see BRANCH_VERDICTS). */
  verdict?: BranchVerdict;
  /** Show a context banner to the agent when the episode switches legs. */
  carryContext?: boolean;
};
export type HarnessNode = BaseNode | StageNode | ContractNode | ChainNode;

export const BaseNodeSchema = z.strictObject({
  type: z.literal('base'),
  bridge: z.string().min(1),
  task: z.string().min(1),
});

export const HarnessNodeSchema: z.ZodType<HarnessNode> = z.lazy(() =>
  z.discriminatedUnion('type', [
    BaseNodeSchema,
    z.strictObject({
      type: z.literal('stage'),
      actions: z.array(ActionSchema).max(MAX_STAGE_ACTIONS),
      intro: z.enum(STAGE_INTROS).optional(),
      env: HarnessNodeSchema,
    }),
    z.strictObject({
      type: z.literal('contract'),
      rules: ContractRulesSchema.optional(),
      code: z
        .string()
        .max(MAX_HOOK_CODE_CHARS, `hook code is limited to ${MAX_HOOK_CODE_CHARS} characters`)
        .optional(),
      env: HarnessNodeSchema,
    }),
    z.strictObject({
      type: z.literal('chain'),
      mode: z.enum(CHAIN_MODES),
      first: HarnessNodeSchema,
      second: HarnessNodeSchema,
      remedial: HarnessNodeSchema.optional(),
      when: z.string().max(2000).optional(),
      verdict: z.enum(BRANCH_VERDICTS).optional(),
      carryContext: z.boolean().optional(),
    }),
  ]),
);

/** The spec's shape (the JSON Schema file is generated from it); parse with HarnessSpecSchema. */
export const HarnessSpecShapeSchema = z.strictObject({
  version: z.literal(1),
  env: HarnessNodeSchema,
});

/**
 * A spec: its depth is measured first, without recursion, so a hostile 20,000-deep stack gets a
 * clear answer instead of overflowing the recursive node schema.
 */
export const HarnessSpecSchema = z
  .unknown()
  .superRefine((value, ctx) => {
    if (nestsDeeperThan(value, MAX_JSON_DEPTH)) {
      ctx.addIssue({
        code: 'custom',
        message: `nested deeper than ${MAX_JSON_DEPTH} levels (a harness stack has at most ${MAX_SPEC_DEPTH} layers)`,
      });
    }
  })
  .pipe(HarnessSpecShapeSchema);
export type HarnessSpec = z.infer<typeof HarnessSpecShapeSchema>;

export type Action = z.infer<typeof ActionSchema>;

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

/** The first rule a node breaks that the schema cannot say (chain mode fields, depth), if any. */
function nodeProblem(node: HarnessNode, path: string, depth: number): string | undefined {
  if (depth > MAX_SPEC_DEPTH) {
    return `${path}: the stack is nested deeper than ${MAX_SPEC_DEPTH} levels`;
  }
  switch (node.type) {
    case 'base':
      return undefined;
    case 'stage':
      return nodeProblem(node.env, `${path}.env`, depth + 1);
    case 'contract':
      return (
        (node.rules ? rulesProblem(node.rules, `${path}.rules`) : undefined) ??
        nodeProblem(node.env, `${path}.env`, depth + 1)
      );
    case 'chain':
      return (
        chainProblem(node, path) ??
        nodeProblem(node.first, `${path}.first`, depth + 1) ??
        nodeProblem(node.second, `${path}.second`, depth + 1) ??
        (node.remedial ? nodeProblem(node.remedial, `${path}.remedial`, depth + 1) : undefined)
      );
  }
}

function chainProblem(node: ChainNode, path: string): string | undefined {
  if (node.mode === 'branch' && node.remedial === undefined) {
    return `${path}.remedial: a branch chain needs a remedial leg (played when the first leg fails)`;
  }
  if (node.mode !== 'branch' && node.remedial !== undefined) {
    return `${path}.remedial: only a branch chain has a remedial leg (mode is "${node.mode}")`;
  }
  if (node.mode === 'switch' && (node.when === undefined || node.when.trim() === '')) {
    return `${path}.when: a switch chain needs a condition, a JavaScript expression over \`state\` (e.g. "state.inventory.length > 0")`;
  }
  if (node.mode !== 'switch' && node.when !== undefined) {
    return `${path}.when: only a switch chain has a condition (mode is "${node.mode}")`;
  }
  if (node.mode !== 'branch' && node.verdict !== undefined) {
    return `${path}.verdict: only a branch chain has a verdict rule (mode is "${node.mode}")`;
  }
  return undefined;
}

export type SpecCheck = { ok: true; spec: HarnessSpec } | { ok: false; message: string };

/** Validates a spec: the schema, then the rules it cannot say; the first problem as one line. */
export function checkSpec(input: unknown): SpecCheck {
  const parsed = HarnessSpecSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      message: `invalid harness spec: ${issue ? describeIssue(issue, input) : 'unknown problem'}`,
    };
  }
  const problem = nodeProblem(parsed.data.env, 'env', 1);
  return problem
    ? { ok: false, message: `invalid harness spec: ${problem}` }
    : { ok: true, spec: parsed.data };
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

/** The first base leaf of a stack: the bridge and task the policy is told it plays. */
export function firstBase(node: HarnessNode): { bridge: string; task: string } {
  switch (node.type) {
    case 'base':
      return { bridge: node.bridge, task: node.task };
    case 'stage':
    case 'contract':
      return firstBase(node.env);
    case 'chain':
      return firstBase(node.first);
  }
}
