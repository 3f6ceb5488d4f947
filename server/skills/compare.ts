// The skill-source comparison (PAPERS.md §1 "Experiments", skill learning): skill banks from
// (a) no skills, (b) trajectories on N original training envs, (c) trajectories on EnvHarness
// versions of the same N envs — same policy, seeds, env count and extraction — then the skilled
// policy plays each held-out original task once. Episodes run in-process (deterministic, fast);
// the result and the banks are persisted, the training episodes as runs (skills cite their ids).

import type { Bridge, BridgeResolver, TaskInfo } from '../../bridges/core/types.ts';
import type { Db } from '../db/index.ts';
import { InvalidInputError, NotFoundError, parseInput } from '../errors.ts';
import type { HarnessSpec } from '../harness/spec.ts';
import { getPolicy } from '../policies/index.ts';
import { runEpisode } from '../rollouts/episode.ts';
import type { RunEvents } from '../rollouts/events.ts';
import { wilsonInterval } from '../rollouts/metrics.ts';
import type { EpisodeInput, EpisodeResult } from '../rollouts/types.ts';
import { proposeEdits, SkillBankState } from './bank.ts';
import {
  type CompareInput,
  CompareInputSchema,
  type CompareResult,
  SKILL_SOURCES,
  type SkillSource,
  type SourceRow,
} from './comparison.ts';
import { digestEpisode, recalledIds } from './digest.ts';
import { templateCandidates } from './envharness-templates.ts';
import { extractSkills } from './extract.ts';
import { recordPlayedRun } from './record.ts';
import { sampleTasks, skilledOptions, statsByTaskType } from './skilled.ts';
import { saveBank, saveComparison } from './store.ts';
import type { EpisodeDigest } from './types.ts';

export {
  type CompareInput,
  CompareInputSchema,
  type CompareResult,
  SKILL_SOURCES,
  type SkillSource,
  type SourceRow,
} from './comparison.ts';
export { sampleTasks, skilledOptions } from './skilled.ts';

type Input = CompareResult['input'];

/** (b)'s and (c)'s training episodes, task by task. */
interface Training {
  train: TaskInfo[];
  original: EpisodeResult[];
  wrapped: { task: TaskInfo; r: EpisodeResult }[];
  envharness: CompareResult['envharness'];
}

/** EnvRigger on one training task (envharness: 'rigger'), handed in so that skills need no rigger import. */
export type RigRunner = (input: {
  task: string;
  policy: string;
  k: number;
  maxIterations: number;
  seed: number;
  scene: number;
  maxSteps: number;
}) => Promise<{ accepted: HarnessSpec | null; diagnosis: { label: string; direction: string } }>;

export interface CompareDeps {
  /** The bridges the comparison plays. */
  bridges: BridgeResolver;
  /** Where a persisted comparison, its banks and its training runs are written. */
  store?: { db: Db; events: RunEvents };
  runRig?: RigRunner;
  onProgress?: (text: string) => void;
}

function baseSpec(bridge: string, task: string): HarnessSpec {
  return { version: 1, env: { type: 'base', bridge, task } };
}

function play(bridges: BridgeResolver, input: EpisodeInput): Promise<EpisodeResult> {
  return runEpisode(input, bridges);
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
  input: Input,
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
    perType: statsByTaskType(results),
    errors: results.length - scored.length,
  };
}

export async function compareSkillSources(
  deps: CompareDeps,
  raw: CompareInput,
): Promise<CompareResult> {
  const input = parseInput(CompareInputSchema, raw);
  const store = input.persist ? deps.store : undefined;
  if (input.persist && !store)
    throw new InvalidInputError('a persisted comparison needs a database');
  const say = deps.onProgress ?? (() => {});
  const started = performance.now();
  const bridge = await deps.bridges.get(input.bridge);
  if (!bridge) throw new NotFoundError(`unknown bridge '${input.bridge}'`);
  getPolicy(input.policy);
  const { train, evalTasks } = await sampleSplits(bridge, input);
  const training = await playTraining(deps, input, train, say);

  // Persisted comparisons record the training episodes as runs first, so the skills cite real
  // episode ids (the studio links sources to trajectories); otherwise the ids are descriptive.
  const ids = {
    originalIds: train.map((t) => `original:${t.id}:${input.seed}`),
    wrappedIds: training.wrapped.map((x) => `envharness:${x.task.id}:${input.seed}`),
  };
  if (store) {
    say('recording training episodes');
    await recordTraining(store, input, training, ids);
  }

  say(`extracting skills (${input.extractor})`);
  const banks = await buildBanks(input, bridge.textTool, training, ids);
  const rows: SourceRow[] = [];
  for (const source of SKILL_SOURCES) {
    say(
      `evaluating '${source}' skills (${banks[source].skills.length}) on ${evalTasks.length} held-out tasks`,
    );
    const results = await evaluate(deps.bridges, input, banks[source], evalTasks);
    const bankId =
      store && source !== 'none'
        ? await saveSourceBank(store.db, input, source, banks[source])
        : null;
    const trainOf =
      source === 'none'
        ? []
        : source === 'original'
          ? training.original
          : training.wrapped.map((x) => x.r);
    rows.push(row(source, banks[source], bankId, trainOf, results));
  }

  const result: CompareResult = {
    id: null,
    input,
    trainTasks: train.map((t) => t.id),
    evalTasks: evalTasks.map((t) => t.id),
    envharness: training.envharness,
    rows,
    banks: { none: [], original: banks.original.skills, envharness: banks.envharness.skills },
    durationMs: Math.round(performance.now() - started),
  };
  if (store) result.id = await saveComparison(store.db, result);
  return result;
}

/** The training and held-out tasks, sampled from their splits with the comparison's seed. */
async function sampleSplits(bridge: Bridge, input: Input) {
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
  return { train, evalTasks };
}

/** (b) the policy without skills on the original training envs; (c) the same envs wrapped by
 * EnvHarness, same policy and seeds. */
async function playTraining(
  deps: CompareDeps,
  input: Input,
  train: TaskInfo[],
  say: (line: string) => void,
): Promise<Training> {
  const common = { policyId: input.policy, seed: input.seed, maxSteps: input.maxSteps };
  say(`(b) ${train.length} original training envs`);
  const original: EpisodeResult[] = [];
  for (const t of train)
    original.push(await play(deps.bridges, { ...common, spec: baseSpec(input.bridge, t.id) }));

  say(`(c) ${train.length} EnvHarness training envs (${input.envharness})`);
  const envharness: CompareResult['envharness'] = [];
  const wrapped: { task: TaskInfo; r: EpisodeResult }[] = [];
  for (const [i, t] of train.entries()) {
    const made = await envharnessFor(deps, input, t, original[i]?.outcome === 'success');
    envharness.push(made);
    // Without an accepted harness the env stays original: (c) then shares (b)'s episode for it.
    const r = made.spec
      ? await play(deps.bridges, { ...common, spec: made.spec })
      : (original[i] as EpisodeResult);
    wrapped.push({ task: t, r });
  }
  return { train, original, wrapped, envharness };
}

/** The same extraction for both sources; `none` is the empty bank. */
async function buildBanks(
  input: Input,
  textTool: Bridge['textTool'],
  { train, original, wrapped }: Training,
  { originalIds, wrappedIds }: { originalIds: string[]; wrappedIds: string[] },
): Promise<Record<SkillSource, SkillBankState>> {
  return {
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
}

/** (c)'s environment for one training task: EnvRigger's accepted harness, or a validated template. */
async function envharnessFor(
  deps: CompareDeps,
  input: Input,
  t: TaskInfo,
  baselineSuccess: boolean,
): Promise<CompareResult['envharness'][number]> {
  let spec: HarnessSpec | null = null;
  let rationale = '';
  let direction: string | undefined;
  let via: string = input.envharness;
  if (input.envharness === 'rigger') {
    try {
      if (!deps.runRig) throw new InvalidInputError('EnvRigger is not available here');
      const rig = await deps.runRig({
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
    const picked = await validatedTemplate(deps.bridges, input, t, baselineSuccess);
    spec = picked.spec;
    direction = picked.direction ?? direction;
    rationale = `${rationale ? `${rationale}; ` : ''}${picked.rationale}`;
  }
  return { taskId: t.id, spec, ...(direction ? { direction } : {}), rationale, via };
}

/**
 * EnvRigger's Validate step on the templates: K fresh rollouts (agent seeds after S, the scene
 * pinned to S) per candidate; the first whose success rate is inside the band is kept — a 0% env
 * teaches nothing, a 100% one shows nothing new (PAPERS.md §1 EnvRigger).
 */
async function validatedTemplate(
  bridges: BridgeResolver,
  input: Input,
  t: TaskInfo,
  baselineSuccess: boolean,
): Promise<{ spec: HarnessSpec | null; direction?: string; rationale: string }> {
  const common = { policyId: input.policy, maxSteps: input.maxSteps };
  const tried: string[] = [];
  for (const c of await templateCandidates(
    bridges,
    input.bridge,
    t.id,
    input.seed,
    baselineSuccess,
  )) {
    let wins = 0;
    for (let k = 1; k <= input.validateK; k += 1) {
      const v = await play(bridges, { ...common, seed: input.seed + k, spec: c.spec });
      if (v.outcome === 'success') wins += 1;
    }
    const rate = wins / input.validateK;
    tried.push(`${c.direction} ${Math.round(rate * 100)}%`);
    if (rate >= input.band[0] && rate <= input.band[1]) {
      return {
        spec: c.spec,
        direction: c.direction,
        rationale: `${c.rationale} Validated: ${wins}/${input.validateK} successes.`,
      };
    }
  }
  return {
    spec: null,
    rationale: `no template in the band [${input.band.join(', ')}]${
      tried.length > 0 ? ` (${tried.join(', ')})` : ' (none applies)'
    }: original env kept`,
  };
}

/** Records (b)'s and (c)'s training episodes as runs and puts their episode ids into `ids`. */
async function recordTraining(
  store: { db: Db; events: RunEvents },
  input: Input,
  played: Training,
  ids: { originalIds: string[]; wrappedIds: string[] },
): Promise<void> {
  const first = played.train[0] as TaskInfo;
  const b = await recordPlayedRun(store, {
    spec: baseSpec(input.bridge, first.id),
    policy: input.policy,
    maxSteps: input.maxSteps,
    projectId: input.projectId,
    episodes: played.original.map((r, i) => ({
      taskId: (played.train[i] as TaskInfo).id,
      seed: input.seed,
      result: r,
    })),
  });
  b.episodeIds.forEach((id, i) => {
    ids.originalIds[i] = id;
  });
  for (const [i, x] of played.wrapped.entries()) {
    const spec = played.envharness[i]?.spec;
    if (!spec) {
      // The original env was kept: (c) shares (b)'s episode.
      ids.wrappedIds[i] = ids.originalIds[i] as string;
      continue;
    }
    const c = await recordPlayedRun(store, {
      spec,
      policy: input.policy,
      maxSteps: input.maxSteps,
      projectId: input.projectId,
      episodes: [{ taskId: x.task.id, seed: input.seed, result: x.r }],
    });
    ids.wrappedIds[i] = c.episodeIds[0] as string;
  }
}

/** The skilled policy on every held-out task once; the bank counts which skills it recalled. */
async function evaluate(
  bridges: BridgeResolver,
  input: Input,
  bank: SkillBankState,
  evalTasks: TaskInfo[],
): Promise<{ task: TaskInfo; r: EpisodeResult }[]> {
  const results: { task: TaskInfo; r: EpisodeResult }[] = [];
  for (const t of evalTasks) {
    const r = await play(bridges, {
      policyId: input.policy,
      seed: input.seed,
      maxSteps: input.maxSteps,
      spec: baseSpec(input.bridge, t.id),
      policyOptions: skilledOptions(input.policy, bank.skills, t, input.topK),
    });
    bank.recordUses(recalledIds(r.trajectory));
    results.push({ task: t, r });
  }
  return results;
}

/** The comparison's 'none' source has no skills and so no bank. */
function saveSourceBank(
  db: Db,
  input: Input,
  source: Exclude<SkillSource, 'none'>,
  bank: SkillBankState,
) {
  return saveBank(db, {
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
    bank,
    projectId: input.projectId,
  });
}
