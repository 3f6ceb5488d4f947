// The designers behind one interface: `heuristic` (offline, rule-based) and `llm` (any
// OpenAI-compatible endpoint, forced tool calls).
import type { DesignerName } from '../../../contracts/rigs.ts';
import type { Designer } from '../types.ts';
import { HeuristicDesigner } from './heuristic/index.ts';

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
  if (name !== 'llm') return new HeuristicDesigner();
  // Loaded here, with the OpenAI SDK under it, only by a rig that designs with a model.
  const { LlmDesigner } = await import('./llm.ts');
  return LlmDesigner.fromConfig(o);
}
