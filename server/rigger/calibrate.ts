// Appendix G of the EnvHarness paper: the share of a split's tasks whose success rate lies in a band,
// on the original tasks and after EnvRigger (the accepted candidate's validation rate; a task already
// in the band keeps its original rate, one without an accepted candidate keeps its baseline). The
// report names the settings that make it comparable (components, designer, K, band) and the mix of
// templates that were accepted: a rate landed in the band by one knob everywhere teaches little.
import { z } from 'zod';
import type { TaskInfo } from '../../bridges/core/types.ts';
import {
  type ComponentName,
  ComponentsSchema,
  defaultDesigner,
  PAPER_COMPONENTS,
} from '../../contracts/rigs.ts';
import { InvalidInputError, NotFoundError, parseInput } from '../errors.ts';
import type { HarnessSpec } from '../harness/spec.ts';
import { TIME_PRESSURE } from './designers/heuristic/index.ts';
import { DESIGNERS } from './designers/index.ts';
import { type RigDeps, type RigHooks, runRig } from './loop.ts';
import { inBand } from './stats.ts';
import { BandSchema } from './types.ts';

/** The goal §7 of issue 14 sets: at least this share in the band after EnvRigger… */
export const CALIBRATION_GOAL_IN_BAND = 0.8;
/** …with no single template (and no step cap) in more than this share of the accepted harnesses. */
export const CALIBRATION_GOAL_MAX_TEMPLATE = 0.4;

export const CalibrateInputSchema = z.object({
  bridge: z.string().min(1),
  split: z.string().min(1),
  policy: z.string().min(1),
  band: BandSchema.default([0.4, 0.6]),
  /** Unset: the policy decides (`openai:<model>` → llm on that model; scripted → heuristic). */
  designer: z.enum(DESIGNERS).optional(),
  components: ComponentsSchema.default([...PAPER_COMPONENTS]),
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
  /** The accepted candidate's template (none: nothing accepted). */
  template: string | null;
  error?: string;
}

/** How often each template was accepted, and how often a step cap was in it. */
export interface TemplateMix {
  accepted: number;
  templates: { template: string; count: number; share: number }[];
  /** Accepted harnesses with a step cap (time pressure), alone or on another template. */
  stepCap: { count: number; share: number };
}

export interface CalibrateResult {
  bridge: string;
  split: string;
  policy: string;
  band: [number, number];
  /** What decides the comparison: like for like with the paper's 6% → 80% only in paper mode. */
  settings: {
    components: ComponentName[];
    designer: string;
    designerModel?: string;
    designerWhy: string;
    k: number;
    band: [number, number];
    maxIterations: number;
    maxSteps: number;
  };
  tasks: number;
  before: { inBand: number; share: number };
  after: { inBand: number; share: number };
  /** Rollouts over the sweep: launched, and skipped because lint refuted the candidate. */
  rollouts: { launched: number; skipped: number; refuted: number; lint: boolean };
  mix: TemplateMix;
  /** ≥ 80% in the band, no template (and no step cap) above 40% of the accepted harnesses. */
  goal: { inBand: boolean; mix: boolean; met: boolean };
  detail: CalibrateTask[];
  durationMs: number;
}

/** The accepted templates, by count (most first), and the share carrying a step cap. */
export function templateMix(detail: Pick<CalibrateTask, 'template'>[]): TemplateMix {
  const accepted = detail.filter((d) => d.template !== null);
  const counts = new Map<string, number>();
  for (const d of accepted) counts.set(d.template ?? '', (counts.get(d.template ?? '') ?? 0) + 1);
  const share = (n: number) => (accepted.length === 0 ? 0 : n / accepted.length);
  const stepCap = accepted.filter((d) => (d.template ?? '').includes(TIME_PRESSURE)).length;
  return {
    accepted: accepted.length,
    templates: [...counts.entries()]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([template, count]) => ({ template, count, share: share(count) })),
    stepCap: { count: stepCap, share: share(stepCap) },
  };
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
  const mix = templateMix(detail);
  const top = Math.max(0, ...mix.templates.map((t) => t.share));
  const goal = {
    inBand: share(a) >= CALIBRATION_GOAL_IN_BAND - 1e-9,
    mix:
      top <= CALIBRATION_GOAL_MAX_TEMPLATE + 1e-9 &&
      mix.stepCap.share <= CALIBRATION_GOAL_MAX_TEMPLATE + 1e-9,
  };
  const d = input.designer ?? defaultDesigner(input.policy).designer;
  const model = input.designer ? undefined : defaultDesigner(input.policy).model;
  return {
    bridge: input.bridge,
    split: input.split,
    policy: input.policy,
    band,
    settings: {
      components: [...input.components],
      designer: d,
      ...(model ? { designerModel: model } : {}),
      designerWhy: input.designer ? 'chosen at launch' : defaultDesigner(input.policy).why,
      k: input.k,
      band,
      maxIterations: input.maxIterations,
      maxSteps: input.maxSteps,
    },
    tasks: detail.length,
    before: { inBand: b, share: share(b) },
    after: { inBand: a, share: share(a) },
    rollouts: {
      launched: detail.reduce((n, d) => n + d.rollouts.launched, 0),
      skipped: detail.reduce((n, d) => n + d.rollouts.skipped, 0),
      refuted: detail.reduce((n, d) => n + d.rollouts.refuted, 0),
      lint: input.lint,
    },
    mix,
    goal: { ...goal, met: goal.inBand && goal.mix },
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
        ...(input.designer ? { designer: input.designer } : {}),
        components: input.components,
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
      template: null,
      error: message,
    };
  }
  const before = r.baseline.successRate;
  const acceptedIteration = r.iterations.find((x) => x.decision === 'accept');
  const acceptedRate = acceptedIteration?.validation?.successRate ?? null;
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
    template: r.accepted ? (acceptedIteration?.template ?? 'unnamed') : null,
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
