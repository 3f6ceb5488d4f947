// The skill-source comparison (PAPERS.md §1 "Experiments", skill learning): skill banks from
// (a) no skills, (b) trajectories on N original training envs, (c) trajectories on EnvHarness
// versions of the same N envs — same policy, seeds, env count and extraction — then the skilled
// policy plays each held-out original task once. Episodes run in-process (deterministic, fast);
// the result and the banks are persisted, the training episodes as runs (skills cite their ids).

import { z } from 'zod';
import type { Json, TaskInfo } from '../../bridges/core/types.ts';
import { getBridge } from '../../bridges/index.ts';
import { InvalidInputError, NotFoundError } from '../errors.ts';
import type { HarnessSpec } from '../harness/spec.ts';
import { parseBpeId } from '../policies/bpe/index.ts';
import { runEpisode } from '../rollouts/episode.ts';
import { wilsonInterval } from '../rollouts/metrics.ts';
import type { EpisodeInput, EpisodeResult } from '../rollouts/types.ts';
import { proposeEdits, SkillBankState } from './bank.ts';
import { digestEpisode, recalledIds } from './digest.ts';
import { templateCandidates } from './envharness-templates.ts';
import { extractSkills } from './extract.ts';
import { retrieve } from './retrieve.ts';
import { policyOptionsFromSkills } from './tags.ts';
import type { EpisodeDigest, Skill } from './types.ts';

export const SKILL_SOURCES = ['none', 'original', 'envharness'] as const;
export type SkillSource = (typeof SKILL_SOURCES)[number];

export const CompareInputSchema = z.object({
  bridge: z.string().min(1),
  policy: z.string().min(1),
  trainSplit: z.string().default('train'),
  evalSplit: z.string().default('eval_unseen'),
  /** Training environments per source. */
  envs: z.number().int().min(1).max(500).default(8),
  /** Held-out tasks to evaluate on (a seeded sample of the eval split); 0 = the whole split. */
  evalEnvs: z.number().int().min(0).max(5000).default(24),
  seed: z.number().int().min(0).default(0),
  maxSteps: z.number().int().min(1).max(1000).default(50),
  extractor: z.enum(['heuristic', 'llm']).default('heuristic'),
  /** How (c)'s environments are made: EnvRigger (heuristic designer) or its templates directly. */
  envharness: z.enum(['rigger', 'templates']).default('templates'),
  /** EnvRigger settings when envharness = rigger. */
  rigK: z.number().int().min(1).max(20).default(3),
  rigIterations: z.number().int().min(1).max(10).default(2),
  /** Template candidates: fresh rollouts per candidate and the success band a candidate must hit. */
  validateK: z.number().int().min(1).max(50).default(4),
  band: z.tuple([z.number().min(0).max(1), z.number().min(0).max(1)]).default([0.25, 0.75]),
  /** Retrieved skills per episode for a policy without a workspace. */
  topK: z.number().int().min(1).max(20).default(5),
  llm: z
    .object({
      baseUrl: z.string().optional(),
      apiKey: z.string().optional(),
      model: z.string().optional(),
    })
    .optional(),
  persist: z.boolean().default(true),
  /** Team mode: the project the persisted comparison, banks and runs belong to. */
  projectId: z.string().optional(),
});
export type CompareInput = z.input<typeof CompareInputSchema>;

export interface SourceRow {
  source: SkillSource;
  bankId: string | null;
  skills: number;
  trainEpisodes: number;
  trainSuccessRate: number | null;
  n: number;
  successes: number;
  successRate: number;
  interval: [number, number];
  meanSteps: number;
  meanStepsSuccess: number | null;
  perType: Record<string, { n: number; successes: number; meanSteps: number }>;
  errors: number;
}

export interface CompareResult {
  id: string | null;
  input: z.output<typeof CompareInputSchema>;
  trainTasks: string[];
  evalTasks: string[];
  /** What (c) trained on, per training task. */
  envharness: {
    taskId: string;
    spec: HarnessSpec | null;
    direction?: string;
    rationale: string;
    via: string;
  }[];
  rows: SourceRow[];
  banks: Record<SkillSource, Skill[]>;
  durationMs: number;
}

/** A seeded, order-independent sample of `n` tasks (0: all). */
export function sampleTasks(tasks: TaskInfo[], n: number, seed: number): TaskInfo[] {
  const keyed = tasks.map((t) => ({ t, k: hash(`${seed}:${t.id}`) }));
  keyed.sort((a, b) => a.k - b.k || a.t.id.localeCompare(b.t.id));
  const out = keyed.map((x) => x.t);
  return n > 0 ? out.slice(0, n) : out;
}

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i += 1) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

function baseSpec(bridge: string, task: string): HarnessSpec {
  return { version: 1, env: { type: 'base', bridge, task } };
}

/** Policy options that give `skills` to the policy for one task. */
export function skilledOptions(
  policy: string,
  skills: Skill[],
  task: TaskInfo,
  topK: number,
): Record<string, Json> {
  if (skills.length === 0) return {};
  if (parseBpeId(policy)) return { experience: skills as unknown as Json };
  const hits = retrieve(skills, task.goal, { k: topK, taskType: task.type }).map((h) => h.skill);
  const o = policyOptionsFromSkills(hits);
  return {
    skills: o.skills,
    searchPriors: o.searchPriors,
    skillText: hits.map((h) => `${h.title}: ${h.content}`),
  };
}

async function play(input: EpisodeInput): Promise<EpisodeResult> {
  return runEpisode(input);
}

function digest(
  id: string,
  bridge: string,
  task: TaskInfo,
  r: EpisodeResult,
  textTool?: { name: string; arg: string },
): EpisodeDigest {
  return digestEpisode({
    id,
    bridge,
    taskId: r.taskId,
    taskType: task.type,
    goal: task.goal,
    success: r.outcome === 'success',
    failureCategory: r.failureCategory ?? null,
    trajectory: r.trajectory,
    ...(textTool ? { textTool } : {}),
  });
}

async function buildBank(
  source: SkillSource,
  digests: EpisodeDigest[],
  input: z.output<typeof CompareInputSchema>,
): Promise<SkillBankState> {
  const bank = new SkillBankState([], undefined, `${source[0]}`);
  if (digests.length === 0) return bank;
  const drafts = await extractSkills(input.extractor, digests, input.llm);
  const notes = digests.flatMap((d) => d.notes);
  bank.apply(proposeEdits(bank, drafts, notes));
  return bank;
}

function row(
  source: SkillSource,
  bank: SkillBankState,
  bankId: string | null,
  train: EpisodeResult[],
  results: { task: TaskInfo; r: EpisodeResult }[],
): SourceRow {
  const scored = results.filter((x) => x.r.outcome !== 'error');
  const successes = scored.filter((x) => x.r.outcome === 'success');
  const perType: SourceRow['perType'] = {};
  for (const x of scored) {
    const e = perType[x.task.type] ?? { n: 0, successes: 0, meanSteps: 0 };
    e.meanSteps = (e.meanSteps * e.n + x.r.steps) / (e.n + 1);
    e.n += 1;
    if (x.r.outcome === 'success') e.successes += 1;
    perType[x.task.type] = e;
  }
  const trainScored = train.filter((r) => r.outcome !== 'error');
  const mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
  const interval = wilsonInterval(successes.length, scored.length);
  return {
    source,
    bankId,
    skills: bank.skills.length,
    trainEpisodes: train.length,
    trainSuccessRate:
      trainScored.length === 0
        ? null
        : trainScored.filter((r) => r.outcome === 'success').length / trainScored.length,
    n: scored.length,
    successes: successes.length,
    successRate: scored.length === 0 ? 0 : successes.length / scored.length,
    interval: [interval[0], interval[1]],
    meanSteps: mean(scored.map((x) => x.r.steps)),
    meanStepsSuccess: successes.length === 0 ? null : mean(successes.map((x) => x.r.steps)),
    perType,
    errors: results.length - scored.length,
  };
}

export async function compareSkillSources(
  raw: CompareInput,
  hooks: { onProgress?: (text: string) => void } = {},
): Promise<CompareResult> {
  const parsed = CompareInputSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidInputError(
      `${issue?.path.join('.') || 'input'}: ${issue?.message ?? 'invalid'}`,
    );
  }
  const input = parsed.data;
  const say = hooks.onProgress ?? (() => {});
  const started = performance.now();
  const bridge = await getBridge(input.bridge);
  if (!bridge) throw new NotFoundError(`unknown bridge '${input.bridge}'`);
  const { getPolicy } = await import('../policies/index.ts');
  getPolicy(input.policy);
  const train = sampleTasks(
    await bridge.listTasks({ split: input.trainSplit }),
    input.envs,
    input.seed,
  );
  const evalTasks = sampleTasks(
    await bridge.listTasks({ split: input.evalSplit }),
    input.evalEnvs,
    input.seed,
  );
  if (train.length === 0) throw new InvalidInputError(`split '${input.trainSplit}' has no tasks`);
  if (evalTasks.length === 0)
    throw new InvalidInputError(`split '${input.evalSplit}' has no tasks`);
  const textTool = bridge.textTool;
  const common = { policyId: input.policy, seed: input.seed, maxSteps: input.maxSteps };

  // (b) the policy, without skills, on the original training envs.
  say(`(b) ${train.length} original training envs`);
  const original: EpisodeResult[] = [];
  for (const t of train)
    original.push(await play({ ...common, spec: baseSpec(input.bridge, t.id) }));

  // (c) the same envs wrapped by EnvHarness, same policy and seeds.
  say(`(c) ${train.length} EnvHarness training envs (${input.envharness})`);
  const envharness: CompareResult['envharness'] = [];
  const wrapped: { task: TaskInfo; r: EpisodeResult }[] = [];
  for (const [i, t] of train.entries()) {
    const baselineSuccess = original[i]?.outcome === 'success';
    let spec: HarnessSpec | null = null;
    let rationale = '';
    let direction: string | undefined;
    let via: string = input.envharness;
    if (input.envharness === 'rigger') {
      try {
        const { runRig } = await import('../rigger/index.ts');
        const rig = await runRig({
          task: `${input.bridge}:${t.id}`,
          policy: input.policy,
          k: input.rigK,
          maxIterations: input.rigIterations,
          seed: input.seed,
          scene: input.seed,
          maxSteps: input.maxSteps,
        });
        spec = rig.accepted;
        rationale = spec
          ? `EnvRigger accepted a candidate (${rig.diagnosis.label})`
          : `EnvRigger accepted nothing (${rig.diagnosis.label})`;
        direction = rig.diagnosis.direction;
      } catch (e) {
        rationale = `EnvRigger failed (${e instanceof Error ? e.message : String(e)}); template used`;
        via = 'templates (rigger failed)';
      }
    }
    if (!spec && via !== 'rigger') {
      // EnvRigger's Validate step on the templates: K fresh rollouts (agent seeds after S, the scene
      // pinned to S) per candidate; the first whose success rate is inside the band is kept — a 0%
      // env teaches nothing, a 100% one shows nothing new (PAPERS.md §1 EnvRigger).
      const tried: string[] = [];
      for (const c of await templateCandidates(input.bridge, t.id, input.seed, baselineSuccess)) {
        let wins = 0;
        for (let k = 1; k <= input.validateK; k += 1) {
          const v = await play({ ...common, seed: input.seed + k, spec: c.spec });
          if (v.outcome === 'success') wins += 1;
        }
        const rate = wins / input.validateK;
        tried.push(`${c.direction} ${Math.round(rate * 100)}%`);
        if (rate >= input.band[0] && rate <= input.band[1]) {
          spec = c.spec;
          direction = c.direction;
          rationale = `${rationale ? `${rationale}; ` : ''}${c.rationale} Validated: ${wins}/${input.validateK} successes.`;
          break;
        }
      }
      if (!spec) {
        rationale = `${rationale ? `${rationale}; ` : ''}no template in the band [${input.band.join(', ')}]${
          tried.length > 0 ? ` (${tried.join(', ')})` : ' (none applies)'
        }: original env kept`;
      }
    }
    envharness.push({ taskId: t.id, spec, ...(direction ? { direction } : {}), rationale, via });
    // Without an accepted harness the env stays original: (c) then shares (b)'s episode for it.
    const r = spec ? await play({ ...common, spec }) : (original[i] as EpisodeResult);
    wrapped.push({ task: t, r });
  }

  // Persisted comparisons record the training episodes as runs first, so the skills cite real
  // episode ids (the studio links sources to trajectories); otherwise the ids are descriptive.
  const originalIds = train.map((t) => `original:${t.id}:${input.seed}`);
  const wrappedIds = wrapped.map((x) => `envharness:${x.task.id}:${input.seed}`);
  if (input.persist) {
    say('recording training episodes');
    const { recordPlayedRun } = await import('./record.ts');
    const first = train[0] as TaskInfo;
    const b = await recordPlayedRun({
      spec: baseSpec(input.bridge, first.id),
      policy: input.policy,
      maxSteps: input.maxSteps,
      projectId: input.projectId,
      episodes: original.map((r, i) => ({
        taskId: (train[i] as TaskInfo).id,
        seed: input.seed,
        result: r,
      })),
    });
    b.episodeIds.forEach((id, i) => {
      originalIds[i] = id;
    });
    for (const [i, x] of wrapped.entries()) {
      const spec = envharness[i]?.spec;
      if (!spec) {
        // The original env was kept: (c) shares (b)'s episode.
        wrappedIds[i] = originalIds[i] as string;
        continue;
      }
      const c = await recordPlayedRun({
        spec,
        policy: input.policy,
        maxSteps: input.maxSteps,
        projectId: input.projectId,
        episodes: [{ taskId: x.task.id, seed: input.seed, result: x.r }],
      });
      wrappedIds[i] = c.episodeIds[0] as string;
    }
  }

  // Same extraction for both sources.
  say(`extracting skills (${input.extractor})`);
  const banks: Record<SkillSource, SkillBankState> = {
    none: new SkillBankState(),
    original: await buildBank(
      'original',
      original.map((r, i) =>
        digest(originalIds[i] as string, input.bridge, train[i] as TaskInfo, r, textTool),
      ),
      input,
    ),
    envharness: await buildBank(
      'envharness',
      wrapped.map((x, i) => digest(wrappedIds[i] as string, input.bridge, x.task, x.r, textTool)),
      input,
    ),
  };

  const rows: SourceRow[] = [];
  const bankIds: Record<SkillSource, string | null> = {
    none: null,
    original: null,
    envharness: null,
  };
  const store = input.persist ? await import('./store.ts') : undefined;
  for (const source of SKILL_SOURCES) {
    say(
      `evaluating '${source}' skills (${banks[source].skills.length}) on ${evalTasks.length} held-out tasks`,
    );
    const results: { task: TaskInfo; r: EpisodeResult }[] = [];
    for (const t of evalTasks) {
      const options = skilledOptions(input.policy, banks[source].skills, t, input.topK);
      const r = await play({
        ...common,
        spec: baseSpec(input.bridge, t.id),
        policyOptions: options,
      });
      banks[source].recordUses(recalledIds(r.trajectory));
      results.push({ task: t, r });
    }
    if (store && source !== 'none') {
      bankIds[source] = await store.saveBank({
        name: `${source} skills · ${input.policy} · ${input.bridge} ${input.trainSplit} ×${input.envs}`,
        bridge: input.bridge,
        source,
        config: {
          policy: input.policy,
          extractor: input.extractor,
          envs: input.envs,
          seed: input.seed,
          trainSplit: input.trainSplit,
        },
        bank: banks[source],
        projectId: input.projectId,
      });
    }
    const trainOf =
      source === 'none' ? [] : source === 'original' ? original : wrapped.map((x) => x.r);
    rows.push(row(source, banks[source], bankIds[source], trainOf, results));
  }

  const result: CompareResult = {
    id: null,
    input,
    trainTasks: train.map((t) => t.id),
    evalTasks: evalTasks.map((t) => t.id),
    envharness,
    rows,
    banks: { none: [], original: banks.original.skills, envharness: banks.envharness.skills },
    durationMs: Math.round(performance.now() - started),
  };
  if (store) result.id = await store.saveComparison(result);
  return result;
}
