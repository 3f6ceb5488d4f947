// zod schemas for the simulator's internal snapshot (saveState / fromState) and for the public,
// read-only state view (getEnvState / stateSchema) that hooks and the designer read.
import { z } from 'zod';
import { TASK_TYPES } from './data.ts';

export const SimReceptacleSchema = z.object({
  name: z.string(),
  type: z.string(),
  openable: z.boolean(),
  open: z.boolean(),
  /** Object indices inside / on it, in the order the text lists them. */
  contents: z.array(z.number().int().min(0)),
  /** Object indices standing next to it on the floor (floor lamps). */
  nextTo: z.array(z.number().int().min(0)),
});

export const SimObjectSchema = z.object({
  name: z.string(),
  type: z.string(),
  /** Receptacle index, or -1 while held. */
  loc: z.number().int().min(-1),
  floor: z.boolean(),
  pickable: z.boolean(),
  toggleable: z.boolean(),
  clean: z.boolean(),
  hot: z.boolean(),
  cool: z.boolean(),
  sliced: z.boolean(),
  on: z.boolean(),
});

export const SimStateSchema = z.object({
  recs: z.array(SimReceptacleSchema),
  objs: z.array(SimObjectSchema),
  /** Receptacle index, or -1 in the middle of the room (the start). */
  agentLoc: z.number().int().min(-1),
  holding: z.number().int().min(-1),
  steps: z.number().int().min(0),
  invalidCount: z.number().int().min(0),
  won: z.boolean(),
  /** Whether the agent has held an object of the task's type (a sub-goal metric). */
  heldTarget: z.boolean(),
  lastObs: z.string(),
});

export type SimReceptacle = z.infer<typeof SimReceptacleSchema>;
export type SimObject = z.infer<typeof SimObjectSchema>;
export type SimState = z.infer<typeof SimStateSchema>;

export const DIALECTS = ['move', 'put'] as const;
export type Dialect = (typeof DIALECTS)[number];

/** What saveState() stores under `state`. */
export const HouseholdSnapshotStateSchema = z.object({
  version: z.literal(1),
  dialect: z.enum(DIALECTS),
  /** The put dialect's lenient option (absent in snapshots taken before it existed: off). */
  lenientPut: z.boolean().optional(),
  maxSteps: z.number().int().positive().nullable(),
  sim: SimStateSchema,
});
export type HouseholdSnapshotState = z.infer<typeof HouseholdSnapshotStateSchema>;

export const HouseholdStateViewSchema = z
  .object({
    task: z.object({
      id: z.string(),
      split: z.string(),
      type: z.enum(TASK_TYPES),
      goal: z.string(),
      objectType: z.string().describe('ALFWorld object type the goal is about, e.g. Mug'),
      receptacleType: z.string().nullable().describe('goal receptacle type; null for look tasks'),
      toggleType: z.string().nullable().describe('lamp type for look tasks, else null'),
      room: z.string(),
      layout: z.string(),
    }),
    dialect: z.enum(DIALECTS).describe("'move' (move X to Y) or 'put' (put X in/on Y)"),
    agent: z.object({
      location: z.string().nullable().describe('receptacle the agent stands at; null at the start'),
      holding: z.string().nullable(),
    }),
    receptacles: z.array(
      z.object({
        name: z.string(),
        type: z.string(),
        openable: z.boolean(),
        open: z.boolean().optional().describe('only for openable receptacles'),
        contents: z.array(z.string()),
        nextTo: z.array(z.string()).describe('objects on the floor next to it (floor lamps)'),
      }),
    ),
    objects: z.array(
      z.object({
        name: z.string(),
        type: z.string(),
        location: z.string().nullable().describe('receptacle name; null while held'),
        held: z.boolean(),
        pickable: z.boolean(),
        clean: z.boolean(),
        hot: z.boolean(),
        cool: z.boolean(),
        sliced: z.boolean(),
        on: z.boolean().optional().describe('only for toggleable objects (lamps)'),
      }),
    ),
    steps: z.number().int(),
    invalidActions: z.number().int(),
    won: z.boolean(),
  })
  .describe('ALFWorld-style household: full, read-only view of the world');
export type HouseholdStateView = z.infer<typeof HouseholdStateViewSchema>;
