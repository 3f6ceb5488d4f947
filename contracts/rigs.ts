// EnvRigger's closed sets as they cross the wire and sit in the database (Rig.designer,
// Diagnosis.axis; server/db/contracts.test.ts keeps them equal to the Prisma enums).
import { z } from 'zod';

/** Who diagnoses and writes a rig's candidates: rule-based (offline) or an LLM endpoint. */
export const DESIGNERS = ['heuristic', 'llm'] as const;
export type DesignerName = (typeof DESIGNERS)[number];
export const DesignerNameSchema = z.enum(DESIGNERS);

/**
 * The axis a diagnosis names: the start state S0, the actions A, the observations O, the transitions
 * T, the task's understanding, or none found.
 */
export const AXES = [
  'start_state',
  'action',
  'observation',
  'transition',
  'task_understanding',
  'none',
] as const;
export type Axis = (typeof AXES)[number];
export const AxisSchema = z.enum(AXES);
