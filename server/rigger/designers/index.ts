// The designers behind one interface: `heuristic` (offline, rule-based) and `llm` (any
// OpenAI-compatible endpoint, forced tool calls).
import type { DesignerName } from '../../../contracts/rigs.ts';
import type { Designer } from '../types.ts';
import { HeuristicDesigner } from './heuristic/index.ts';
import { LlmDesigner } from './llm.ts';

export { DESIGNERS, type DesignerName } from '../../../contracts/rigs.ts';

export async function createDesigner(name: DesignerName): Promise<Designer> {
  return name === 'llm' ? LlmDesigner.fromConfig() : new HeuristicDesigner();
}
