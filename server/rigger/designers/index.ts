// The designers behind one interface: `heuristic` (offline, rule-based) and `llm` (any
// OpenAI-compatible endpoint, forced tool calls).
import type { DesignerName } from '../../../contracts/rigs.ts';
import type { Designer } from '../types.ts';

export { DESIGNERS, type DesignerName } from '../../../contracts/rigs.ts';

export async function createDesigner(name: DesignerName): Promise<Designer> {
  if (name === 'llm') {
    const { LlmDesigner } = await import('./llm.ts');
    return LlmDesigner.fromConfig();
  }
  const { HeuristicDesigner } = await import('./heuristic/index.ts');
  return new HeuristicDesigner();
}
