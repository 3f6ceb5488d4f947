// The policy registry: every id usable with `--policy`. Scripted policies are fixed; `openai:<model>`
// resolves for any model name; other areas (e.g. EvoHarness's `bpe(<policy>)`) plug in through
// registerPolicyResolver without editing this file.
import { NotFoundError } from '../errors.ts';
import { bpeResolver } from './bpe/index.ts';
import { codeRepairPolicies } from './code-repair/policies.ts';
import { householdPolicies } from './household/policies.ts';
import { createHumanPolicy, humanDescriptor } from './human.ts';
import { officeqaPolicies } from './officeqa/policies.ts';
import { openaiDescriptor, openaiPolicy } from './openai-policy.ts';
import { remotePolicies } from './remote/policies.ts';
import { schemaRandom } from './schema-random.ts';
import { spreadsheetPolicies } from './spreadsheet/policies.ts';
import { toy24Policies } from './toy24/policies.ts';
import type { Policy, PolicyDescriptor } from './types.ts';
import { webarenaPolicies } from './webarena/policies.ts';
import { webshopPolicies } from './webshop/policies.ts';

export { createHumanPolicy } from './human.ts';
export { openaiPolicy } from './openai-policy.ts';
export { SKILL_TAGS, type SkillTag, skillsOf } from './skills.ts';
export type {
  AgentSession,
  Policy,
  PolicyContext,
  PolicyDecision,
  PolicyDescriptor,
} from './types.ts';
export { PolicyInfraError } from './types.ts';

const scripted: Policy[] = [
  ...toy24Policies,
  ...householdPolicies,
  ...remotePolicies,
  ...webshopPolicies,
  ...codeRepairPolicies,
  ...spreadsheetPolicies,
  ...webarenaPolicies,
  ...officeqaPolicies,
  // Bridge-independent: listed for every bridge.
  schemaRandom,
];
const byId = new Map(scripted.map((p) => [p.descriptor.id, p]));

export interface PolicyResolver {
  /** The policy for an id this resolver owns, else undefined. */
  resolve(id: string): Policy | undefined;
  /** Descriptors to list (for a bridge, when given). */
  list?(bridge?: string): PolicyDescriptor[];
}

const resolvers: PolicyResolver[] = [];

export function registerPolicyResolver(resolver: PolicyResolver): void {
  if (!resolvers.includes(resolver)) resolvers.push(resolver);
}

/**
 * Scripted policies for the bridge (all when no bridge), the configured LLM model (OPENAI_MODEL,
 * handed in by the caller), and `human`.
 */
export function listPolicies(
  bridge?: string,
  o: { openaiModel?: string | undefined } = {},
): PolicyDescriptor[] {
  const out = scripted
    .map((p) => p.descriptor)
    .filter((d) => !bridge || !d.bridge || d.bridge === bridge);
  if (o.openaiModel) out.push(openaiDescriptor(o.openaiModel));
  out.push(humanDescriptor);
  for (const r of resolvers) out.push(...(r.list?.(bridge) ?? []));
  return out;
}

export function getPolicy(id: string): Policy {
  const fixed = byId.get(id);
  if (fixed) return fixed;
  if (id === 'human') return createHumanPolicy();
  if (id.startsWith('openai:')) {
    const model = id.slice('openai:'.length);
    if (model.length > 0) return openaiPolicy(model);
  }
  for (const r of resolvers) {
    const p = r.resolve(id);
    if (p) return p;
  }
  throw new NotFoundError(`unknown policy '${id}' (see \`harness policies\`)`);
}

// EvoHarness's bpe(<policy>) wrapper (server/policies/bpe) resolves its inner policy through getPolicy.
registerPolicyResolver(
  bpeResolver(getPolicy, (bridge) =>
    scripted.map((p) => p.descriptor).filter((d) => !bridge || !d.bridge || d.bridge === bridge),
  ),
);
