// Appendix G of the EnvHarness paper: the share of a split's tasks whose success rate lies in a band,

// on the original tasks and after EnvRigger (the accepted candidate's validation rate; a task already
// in the band keeps its original rate, one without an accepted candidate keeps its baseline).
import { z } from 'zod';
import type { TaskInfo } from '../../bridges/core/types.ts';
import { InvalidInputError, NotFoundError, parseInput } from '../errors.ts';
import type { HarnessSpec } from '../harness/spec.ts';
import { DESIGNERS } from './designers/index.ts';
import { type RigDeps, type RigHooks, runRig } from './loop.ts';
import { inBand } from './stats.ts';
import { BandSchema } from './types.ts';

export const CalibrateInputSchema = z.object({
  bridge: z.string().min(1),
  split: z.string().min(1),
  policy: z.string().min(1),
  band: BandSchema.default([0.4, 0.6]),
  designer: z.enum(DESIGNERS).default('heuristic'),
  limit: z.number().int().min(1).optional(),
  k: z.number().int().min(1).max(100).default(5),
  maxIterations: z.number().int().min(1).max(50).default(5),
  maxSteps: z.number().int().min(1).default(50),
  type: z.string().optional(),
  /** The solvability lint gate before Validate (off: every candidate spends its K rollouts). */
  lint: z.boolean().default(true),
});
export type CalibrateInput = z.input<typeof CalibrateInputSchema>;

export interface CalibrateTask {
  taskId: string;
  type: string;
  rigId: string;
  before: number | null;
  after: number | null;
  inBandBefore: boolean;
  inBandAfter: boolean;
  diagnosis: string;
  iterations: number;
  accepted: HarnessSpec | null;
  /** Episodes launched (baseline unless cached, and every validation) and skipped by the lint gate. */
  rollouts: { launched: number; skipped: number; refuted: number };
  error?: string;
}

export interface CalibrateResult {
  bridge: string;
  split: string;
  policy: string;
  band: [number, number];
  tasks: number;
  before: { inBand: number; share: number };
  after: { inBand: number; share: number };
  /** Rollouts over the sweep: launched, and skipped because lint refuted the candidate. */
  rollouts: { launched: number; skipped: number; refuted: number; lint: boolean };
  detail: CalibrateTask[];
  durationMs: number;
}

export async function calibrate(
  deps: RigDeps,
  raw: CalibrateInput,
  hooks: RigHooks = {},
): Promise<CalibrateResult> {
  const input = parseInput(CalibrateInputSchema, raw);
  const started = performance.now();
  const bridge = await deps.bridges.get(input.bridge);
  if (!bridge) throw new NotFoundError(`unknown bridge '${input.bridge}'`);
  if (!bridge.splits.includes(input.split)) {
    throw new InvalidInputError(
      `unknown split '${input.split}' (splits: ${bridge.splits.join(', ')})`,
    );
  }
  let tasks = await bridge.listTasks({
    split: input.split,
    ...(input.type ? { type: input.type } : {}),
  });
  if (input.limit !== undefined) tasks = tasks.slice(0, input.limit);
  const band = input.band as [number, number];
  const detail: CalibrateTask[] = [];
  for (const [i, t] of tasks.entries()) {
    hooks.onProgress?.(`[${i + 1}/${tasks.length}] ${t.id}`);
    detail.push(await calibrateTask(deps, input, t, hooks));
  }
  const count = (f: (d: CalibrateTask) => boolean) => detail.filter(f).length;
  const share = (n: number) => (detail.length === 0 ? 0 : n / detail.length);
  const b = count((d) => d.inBandBefore);
  const a = count((d) => d.inBandAfter);
  return {
    bridge: input.bridge,
    split: input.split,
    policy: input.policy,
    band,
    tasks: detail.length,
    before: { inBand: b, share: share(b) },
    after: { inBand: a, share: share(a) },
    rollouts: {
      launched: detail.reduce((n, d) => n + d.rollouts.launched, 0),
      skipped: detail.reduce((n, d) => n + d.rollouts.skipped, 0),
      refuted: detail.reduce((n, d) => n + d.rollouts.refuted, 0),
      lint: input.lint,
    },
    detail,
    durationMs: Math.round(performance.now() - started),
  };
}

/** One task's rig, as a calibration row; a failed rig (e.g. its baseline could not run) is
 * reported in its row, not fatal to the sweep. */
async function calibrateTask(
  deps: RigDeps,
  input: z.output<typeof CalibrateInputSchema>,
  t: TaskInfo,
  hooks: RigHooks,
): Promise<CalibrateTask> {
  const band = input.band as [number, number];
  let r: Awaited<ReturnType<typeof runRig>>;
  try {
    r = await runRig(
      deps,
      {
        task: `${input.bridge}:${t.id}`,
        policy: input.policy,
        designer: input.designer,
        k: input.k,
        maxIterations: input.maxIterations,
        maxSteps: input.maxSteps,
        band,
        lint: input.lint,
      },
      hooks,
    );
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    hooks.onProgress?.(`  failed: ${message}`);
    return {
      taskId: t.id,
      type: t.type,
      rigId: '',
      before: null,
      after: null,
      inBandBefore: false,
      inBandAfter: false,
      diagnosis: 'error',
      iterations: 0,
      accepted: null,
      rollouts: { launched: 0, skipped: 0, refuted: 0 },
      error: message,
    };
  }
  const before = r.baseline.successRate;
  const acceptedRate =
    r.iterations.find((x) => x.decision === 'accept')?.validation?.successRate ?? null;
  const after = r.accepted ? acceptedRate : before;
  return {
    taskId: r.taskId,
    type: t.type,
    rigId: r.rigId,
    before,
    after,
    inBandBefore: before !== null && inBand(before, band),
    inBandAfter: after !== null && inBand(after, band),
    diagnosis: r.diagnosis.label,
    iterations: r.iterations.length,
    accepted: r.accepted,
    rollouts: rolloutsOf(r, input.k),
  };
}

/** What a rig spent: K per baseline it ran (a cached one costs nothing) and per validation. */
function rolloutsOf(r: Awaited<ReturnType<typeof runRig>>, k: number): CalibrateTask['rollouts'] {
  const rounds = r.rounds ?? [r];
  let launched = 0;
  let skipped = 0;
  let refuted = 0;
  for (const round of rounds) {
    if (!round.baseline.cached) launched += k;
    for (const it of round.iterations) {
      if (it.validation) launched += k;
      if (it.lint) {
        skipped += it.lint.skippedRollouts;
        refuted += 1;
      }
    }
  }
  return { launched, skipped, refuted };
}
