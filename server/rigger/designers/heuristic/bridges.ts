// The heuristic designer's bridge modules, by bridge name. A bridge's candidate templates and
// failure patterns live in its own module (design.ts `BridgeDesign`); adding a bridge's templates
// is one line here and no edit of the designer. A bridge without a module still gets the generic
// diagnosis and, for a harder variant, time pressure on the original task.
import type { BridgeDesign } from './design.ts';
import { householdDesign } from './household.ts';
import { officeqaDesign } from './officeqa.ts';
import { toy24Design } from './toy24.ts';
import { webarenaDesign } from './webarena.ts';

const DESIGNS: ReadonlyMap<string, BridgeDesign> = new Map([
  ['household', householdDesign],
  ['toy24', toy24Design],
  ['webarena', webarenaDesign],
  ['officeqa', officeqaDesign],
]);

export function designFor(bridge: string): BridgeDesign | undefined {
  return DESIGNS.get(bridge);
}
