// The designers behind one interface: `heuristic` (offline, rule-based) and `llm` (any
// OpenAI-compatible endpoint, forced tool calls).
import type { DesignerName } from '../../../contracts/rigs.ts';
import type { Designer } from '../types.ts';
import { HeuristicDesigner } from './heuristic/index.ts';
import { LlmDesigner } from './llm.ts';

export { DESIGNERS, type DesignerName } from '../../../contracts/rigs.ts';

/**
 * A designer by name. `llm` talks to the configured endpoint (OPENAI_BASE_URL) with the configured
 * model, unless `model` / `baseUrl` say otherwise: a rig whose policy is `openai:<model>` designs
 * with that same model on the policy's endpoint (the paper's same-model designer).
 */
export async function createDesigner(
  name: DesignerName,
  o: { model?: string; baseUrl?: string } = {},
): Promise<Designer> {
  return name === 'llm' ? LlmDesigner.fromConfig(o) : new HeuristicDesigner();
}
