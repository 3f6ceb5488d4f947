// EnvRigger's closed sets as they cross the wire and sit in the database (Rig.designer,
// Diagnosis.axis; server/db/contracts.test.ts keeps them equal to the Prisma enums).
import { z } from 'zod';

/** Who diagnoses and writes a rig's candidates: rule-based (offline) or an LLM endpoint. */
export const DESIGNERS = ['heuristic', 'llm'] as const;
export type DesignerName = (typeof DESIGNERS)[number];
export const DesignerNameSchema = z.enum(DESIGNERS);

/**
 * The harness components EnvRigger may write. The paper's automated pipeline writes Stage and
 * Contract only ("the automated pipeline does not include the Chain component"): that is the
 * default, paper mode; Chain is an explicit opt-in, beyond the paper.
 */
export const COMPONENTS = ['stage', 'contract', 'chain'] as const;
export type ComponentName = (typeof COMPONENTS)[number];
export const PAPER_COMPONENTS: readonly ComponentName[] = ['stage', 'contract'];
export const ComponentsSchema = z
  .array(z.enum(COMPONENTS))
  .min(1, 'choose at least one component')
  .refine((c) => new Set(c).size === c.length, 'name each component once');

/** Whether a set of components is the paper's (Stage and Contract, no Chain). */
export function isPaperMode(components: readonly ComponentName[]): boolean {
  return !components.includes('chain');
}

/** `stage,contract` etc. as people read it, marking Chain as beyond the paper. */
export function componentsText(components: readonly ComponentName[]): string {
  const names = COMPONENTS.filter((c) => components.includes(c));
  return `${names.join(', ')}${names.includes('chain') ? ' (Chain: beyond the paper)' : ' (paper mode)'}`;
}

/**
 * Which designer a rig uses when the launch does not say, and why: the paper's designer is the same
 * model as the policy, so an `openai:<model>` policy gets the `llm` designer on that model and
 * endpoint; a scripted (or human) policy has no model, so it gets the offline `heuristic` one.
 */
export function defaultDesigner(policy: string): {
  designer: DesignerName;
  model?: string;
  why: string;
} {
  const model = /^openai:(.+)$/.exec(policy)?.[1];
  if (model) {
    return {
      designer: 'llm',
      model,
      why: `the paper's designer is the policy's own model: ${model}, on the policy's endpoint`,
    };
  }
  return {
    designer: 'heuristic',
    why: 'a scripted policy has no model to design with: the offline rule-based designer',
  };
}

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

/**
 * One step a diagnosis rests on. `quote` is the exact text of that step — what the agent typed or
 * what it was shown — that supports the claim; server/rigger/diagnosis-check.ts proves it occurs
 * there verbatim before the diagnosis is stored. Required on write.
 */
export const EvidenceSchema = z.object({
  episodeId: z.string().min(1),
  /** 0-based agent step (the trajectory viewer's `?step=`). */
  step: z.number().int().min(0),
  quote: z.string().min(1),
  note: z.string().optional(),
});
export type Evidence = z.infer<typeof EvidenceSchema>;

/** Evidence as read back: diagnoses stored before quotes existed have none. */
export const StoredEvidenceSchema = EvidenceSchema.extend({ quote: z.string().optional() });
export type StoredEvidence = z.infer<typeof StoredEvidenceSchema>;

/** Which text of a step a claim is about: what the agent typed, or what it was shown. */
export const CLAIM_SOURCES = ['action', 'observation'] as const;
export type ClaimSource = (typeof CLAIM_SOURCES)[number];

/**
 * A negative claim ("never typed `open`", "never saw a glassbottle"): `text` occurs as a whole word
 * in no step of any of `episodeIds` (occurrences inside an `except` string do not count), and
 * `phrase` is the words of the description that state it. Checked against every step of every
 * episode it names; a false one is never stored.
 */
export const AbsenceClaimSchema = z.object({
  kind: z.literal('absent'),
  in: z.enum(CLAIM_SOURCES),
  text: z.string().min(1),
  except: z.array(z.string().min(1)).optional(),
  episodeIds: z.array(z.string().min(1)).min(1),
  phrase: z.string().min(1),
});
export const ClaimSchema = z.discriminatedUnion('kind', [AbsenceClaimSchema]);
export type Claim = z.infer<typeof ClaimSchema>;

/** What the checker took out of a diagnosis before storing it, and why. */
export const CHECK_REMOVALS = ['evidence', 'claim', 'sentence'] as const;
export const CheckRemovalSchema = z.object({
  kind: z.enum(CHECK_REMOVALS),
  /** The evidence item, claim phrase or sentence, as the designer wrote it. */
  what: z.string(),
  reason: z.string(),
});
export type CheckRemoval = z.infer<typeof CheckRemovalSchema>;

/** The checker's record on a stored diagnosis: how much it proved, what it removed. */
export const DiagnosisCheckSchema = z.object({
  evidence: z.number().int().min(0),
  claims: z.number().int().min(0),
  removed: z.array(CheckRemovalSchema),
});
export type DiagnosisCheck = z.infer<typeof DiagnosisCheckSchema>;
