// `harness audit` and the audit page's "Run audit": which tasks (a bridge's split, sampled; or a
// harness spec's task), what the store knows of them (recorded gold, recorded disagreements), the
// probes played in a worker (the caller's pool job), then the probe episodes and the report stored.
import '#server-only';
import { z } from 'zod';
import { mulberry32 } from '../../bridges/core/rng.ts';
import type { BridgeResolver, TaskInfo } from '../../bridges/core/types.ts';
import type { AuditReport } from '../../contracts/audit.ts';
import { firstBase, type HarnessSpec, HarnessSpecSchema } from '../../contracts/spec.ts';
import { requireBridge } from '../catalogue.ts';
import type { Db } from '../db/index.ts';
import { InvalidInputError, parseInput } from '../errors.ts';
import type { AuditPlayInput, playAudit } from './audit.ts';
import { auditReport } from './report.ts';
import { insertAudit, recordedDisagreements, recordedGold, storeProbeEpisodes } from './store.ts';

export const AuditInputSchema = z
  .object({
    bridge: z.string().min(1).optional(),
    spec: HarnessSpecSchema.optional(),
    split: z.string().min(1).optional(),
    /** At most this many tasks, drawn with the seed (all of them when unset). */
    sample: z.number().int().min(1).max(100_000).optional(),
    seed: z.number().int().min(0).default(0),
  })
  .refine((v) => (v.bridge === undefined) !== (v.spec === undefined), {
    message: 'give a bridge or a harness spec to audit (one of them)',
  });
export type AuditInput = z.input<typeof AuditInputSchema>;

export interface AuditDeps {
  db: Db;
  bridges: BridgeResolver;
  /** Plays the probes where hook code may run: a worker pool's `audit` job. */
  play: (input: AuditPlayInput) => ReturnType<typeof playAudit>;
}

/** `n` of the tasks, drawn with the seed and listed in their own order. */
export function sampleTasks<T>(tasks: T[], n: number | undefined, seed: number): T[] {
  if (n === undefined || n >= tasks.length) return tasks;
  const rng = mulberry32(seed ^ 0x5eed);
  const index = tasks.map((_, i) => i);
  for (let i = index.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [index[i], index[j]] = [index[j] as number, index[i] as number];
  }
  return index
    .slice(0, n)
    .sort((a, b) => a - b)
    .map((i) => tasks[i] as T);
}

async function tasksOf(
  bridges: BridgeResolver,
  input: z.output<typeof AuditInputSchema>,
): Promise<{ bridge: string; spec: HarnessSpec; tasks: TaskInfo[]; harness: boolean }> {
  const name = input.spec ? firstBase(input.spec.env).bridge : (input.bridge as string);
  const bridge = await requireBridge(bridges, name);
  if (input.split !== undefined && !bridge.splits.includes(input.split)) {
    throw new InvalidInputError(
      `unknown split '${input.split}' for bridge '${name}' (splits: ${bridge.splits.join(', ')})`,
    );
  }
  let tasks: TaskInfo[];
  if (input.spec && input.split === undefined) {
    const task = await bridge.getTask(firstBase(input.spec.env).task);
    tasks = task ? [task] : [];
  } else {
    tasks = await bridge.listTasks(input.split !== undefined ? { split: input.split } : undefined);
  }
  tasks = sampleTasks(tasks, input.sample, input.seed);
  if (tasks.length === 0) throw new InvalidInputError(`bridge '${name}' has no task to audit`);
  const first = tasks[0] as TaskInfo;
  const spec = input.spec ?? {
    version: 1 as const,
    env: { type: 'base' as const, bridge: name, task: first.id },
  };
  return { bridge: name, spec, tasks, harness: input.spec !== undefined };
}

/** Audits a bridge (or a harness) and stores the result; the report names the stored episodes. */
export async function runAudit(
  deps: AuditDeps,
  raw: AuditInput,
  who: { createdBy?: string | null; projectId?: string | null } = {},
): Promise<AuditReport> {
  const started = performance.now();
  const input = parseInput(AuditInputSchema, raw);
  const { bridge, spec, tasks, harness } = await tasksOf(deps.bridges, input);
  const ids = tasks.map((t) => t.id);
  const projectId = who.projectId ?? undefined;
  const [recorded, disagreements] = await Promise.all([
    recordedGold(deps.db, bridge, ids, projectId),
    recordedDisagreements(deps.db, bridge, ids, projectId),
  ]);
  const played = await deps.play({
    spec,
    tasks: tasks.map((t) => ({ id: t.id, type: t.type })),
    seed: input.seed,
    recorded,
  });
  const { runs, stored } = await storeProbeEpisodes(deps.db, {
    spec,
    bridge,
    task: firstBase(spec.env).task,
    episodes: played.episodes,
    ...who,
  });
  const report = auditReport({
    bridge,
    ...(harness ? { spec } : {}),
    split: input.split ?? null,
    sample: input.sample ?? null,
    seed: input.seed,
    played: played.tasks,
    recorded: disagreements,
    stored,
    runs,
    ms: performance.now() - started,
  });
  return insertAudit(deps.db, report, who);
}
