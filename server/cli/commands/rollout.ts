import { fileURLToPath } from 'node:url';
import { modeSentence, type TokenPrice } from '../../../contracts/llm.ts';
import type { HarnessSpec } from '../../harness/spec.ts';
import { configuredPrice, runLlmReport } from '../../rollouts/llm-report.ts';
import type { RunMetrics } from '../../rollouts/metrics.ts';
import type { EpisodeInfo, LaunchRunInput, Rollouts, RunSummary } from '../../rollouts/service.ts';
import {
  type CliIO,
  type Command,
  flag,
  intOption,
  json,
  type OptionValues,
  policyOptionsFlag,
  stringOption,
  UsageError,
} from '../command.ts';
import { loadSpec } from '../spec-input.ts';

/** The handlers module of the rollout engine's worker threads (server/rollouts/default-engine.ts). */
const ROLLOUT_HANDLERS = fileURLToPath(
  new URL('../../rollouts/worker-handlers.ts', import.meta.url),
);

/** The one-line progress bar of a rollout on stderr. */
export function progressLine(
  done: number,
  total: number,
  counts: { ok: number; fail: number; err: number },
): string {
  const width = 30;
  const filled = total === 0 ? width : Math.round((done / total) * width);
  const bar = `${'#'.repeat(filled)}${'.'.repeat(width - filled)}`;
  return `\r[${bar}] ${done}/${total}  success ${counts.ok}  failure ${counts.fail}  error ${counts.err}`;
}

export const command: Command = {
  name: 'rollout',
  summary:
    'Run a policy on a spec for K seeds, record every episode, print success rate and metrics.',
  usage:
    'harness rollout --spec FILE|bridge:task --policy P [--episodes K] [--group-size G] [--seed S] [--tasks a,b] [--concurrency N] [--queue local|bullmq] [--max-steps M] [--invalid-loop-limit N] [--skill-bank ID] [--policy-option key=value]... [--json]\n  --group-size G: GRPO groups — every start seed is played G times with different policy seeds (K/G groups; K a multiple of G)\n  --invalid-loop-limit N: end an episode after N invalid actions in a row (off by default: the benchmarks have no such cut-off)\n  --policy-option: e.g. mode=react (openai: tools|react|auto), think=free, keepReasoning=true, pricePromptPerM=0.4, priceCompletionPerM=1.6',
  options: {
    spec: { type: 'string' },
    policy: { type: 'string' },
    episodes: { type: 'string', short: 'k' },
    'group-size': { type: 'string' },
    seed: { type: 'string' },
    tasks: { type: 'string' },
    concurrency: { type: 'string' },
    queue: { type: 'string' },
    'max-steps': { type: 'string' },
    'invalid-loop-limit': { type: 'string' },
    'skill-bank': { type: 'string' },
    'policy-option': { type: 'string', multiple: true },
    json: { type: 'boolean' },
  },
  async run({ values, io, rolloutServices, openDatabase, config }) {
    const input = launchInput(values);
    openDatabase?.();
    const local =
      input.queue === 'local' || (!input.queue && !(config.REDIS_URL && config.DATABASE_URL));
    const onEventLoop = local && (await singleEpisode(input));
    // The episode thread loads its modules while the database opens (they take about as long).
    const pool = local && !onEventLoop ? await import('../../harness/worker-pool.ts') : undefined;
    pool?.prestartWorker(ROLLOUT_HANDLERS);
    try {
      const engine = onEventLoop
        ? (await import('../../rollouts/default-engine.ts')).eventLoopEngine
        : undefined;
      const { rollouts } = await rolloutServices(engine ? { engine } : {});
      const { runId } = await rollouts.launchRun(input);
      await followAndReport(rollouts, runId, io, {
        json: flag(values, 'json'),
        resumeIntervalMs: config.RESUME_INTERVAL_MS,
        price: configuredPrice(config) ?? null,
      });
      return 0;
    } finally {
      await pool?.dropSpareWorkers();
    }
  },
};

/** One scripted episode on a stack without hook code: it runs here, not in a worker thread. */
async function singleEpisode(input: CliLaunch): Promise<boolean> {
  const { singleEpisodeOnEventLoop } = await import('../../rollouts/model-bound.ts');
  return singleEpisodeOnEventLoop({
    spec: input.spec,
    policyId: input.policy,
    episodes: (input.taskIds?.length ?? 1) * input.k,
  });
}

/**
 * Follows a run to its end and prints its report (`rollout`, `resume`). While it waits, a BullMQ
 * run's lost jobs are put back (a Redis restarted empty, a launch while Redis was down).
 */
export async function followAndReport(
  rollouts: Rollouts,
  runId: string,
  io: CliIO,
  o: { json: boolean; resumeIntervalMs: number; price?: TokenPrice | null },
): Promise<void> {
  const resumer = rollouts.startResumer({ intervalMs: o.resumeIntervalMs, runId });
  let summary: RunSummary;
  try {
    summary = await follow(rollouts, runId, o.json ? undefined : io);
  } finally {
    resumer.stop();
  }
  const llm =
    o.price === undefined || !(await mayCallModel(summary.policy))
      ? undefined
      : await llmSummary(rollouts, runId, o.price);
  const out = { ...report(summary, await rollouts.allEpisodes(runId)), ...(llm ? { llm } : {}) };
  if (o.json) io.out(json(out));
  else printReport(io, out, summary.metrics);
}

/** A scripted policy calls no model: its run has no LLM use to report, so its queries are skipped. */
async function mayCallModel(policyId: string): Promise<boolean> {
  const { getPolicy } = await import('../../policies/index.ts');
  try {
    return getPolicy(policyId).descriptor.kind !== 'scripted';
  } catch {
    return true;
  }
}

/** A run's LLM use for the report: tokens, cost estimate and mode, when its policy reported any. */
async function llmSummary(rollouts: Rollouts, runId: string, price: TokenPrice | null) {
  const r = await runLlmReport(rollouts.db, runId, price ?? undefined);
  if (r.usage.episodes === 0 && r.modes.length === 0) return undefined;
  return {
    tokens: { prompt: r.usage.prompt, completion: r.usage.completion, cached: r.usage.cached },
    cost: r.cost,
    price: r.price,
    mode: modeSentence(r.modes),
  };
}

/** A launch as the command builds it: the spec already parsed, K given. */
type CliLaunch = LaunchRunInput & { spec: HarnessSpec; k: number };

function launchInput(values: OptionValues): CliLaunch {
  const spec = loadSpec(stringOption(values, 'spec'));
  const policy = stringOption(values, 'policy');
  if (!policy) throw new UsageError('--policy is required (see harness policies)');
  const queue = stringOption(values, 'queue');
  if (queue !== undefined && queue !== 'local' && queue !== 'bullmq') {
    throw new UsageError(`--queue must be local or bullmq, got '${queue}'`);
  }
  const k = intOption(values, 'episodes', 1);
  if (k < 1) throw new UsageError('--episodes must be at least 1');
  const groupSize = intOption(values, 'group-size', 1);
  if (groupSize < 1) throw new UsageError('--group-size must be at least 1');
  if (k % groupSize !== 0)
    throw new UsageError(
      `--episodes (${k}) must be a multiple of --group-size (${groupSize}): every start seed is played ${groupSize} times`,
    );
  const loopText = stringOption(values, 'invalid-loop-limit');
  const invalidLoopLimit =
    loopText === undefined ? undefined : intOption(values, 'invalid-loop-limit', 1);
  if (invalidLoopLimit !== undefined && invalidLoopLimit < 1)
    throw new UsageError('--invalid-loop-limit must be at least 1 (leave it out for no cut-off)');
  const concurrencyText = stringOption(values, 'concurrency');
  const tasks = stringOption(values, 'tasks')
    ?.split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  // EvoHarness: the run's policy gets this skill bank (bpe: its experience store).
  const skillBank = stringOption(values, 'skill-bank');
  const policyOptions = {
    ...policyOptionsFlag(values),
    ...(skillBank ? { skillBankId: skillBank } : {}),
  };
  return {
    spec,
    policy,
    k,
    ...(groupSize > 1 ? { groupSize } : {}),
    seed: intOption(values, 'seed', 0),
    maxSteps: intOption(values, 'max-steps', 50),
    ...(invalidLoopLimit !== undefined ? { invalidLoopLimit } : {}),
    ...(concurrencyText !== undefined ? { concurrency: intOption(values, 'concurrency', 1) } : {}),
    ...(queue ? { queue } : {}),
    ...(tasks && tasks.length > 0 ? { taskIds: tasks } : {}),
    ...(Object.keys(policyOptions).length > 0 ? { policyOptions } : {}),
  };
}

/** Waits for the run; with `io`, a progress bar on stderr as episodes end. */
async function follow(
  rollouts: Rollouts,
  runId: string,
  io: CliIO | undefined,
): Promise<RunSummary> {
  if (!io) return rollouts.waitForRun(runId);
  const initial = await rollouts.runPlan(runId);
  io.err(`run ${runId}: ${initial.episodesTotal} episodes on ${initial.queue}\n`);
  if (initial.queue === 'bullmq')
    io.err('waiting for workers (start them with `harness worker`)\n');
  const counts = { ok: 0, fail: 0, err: 0 };
  let done = 0;
  const summary = await rollouts.waitForRun(runId, {
    onEvent: (e) => {
      if (e.type !== 'episode_ended') return;
      const outcome = e.payload.outcome;
      if (outcome === 'success') counts.ok += 1;
      else if (outcome === 'failure') counts.fail += 1;
      else counts.err += 1;
      done += 1;
      io.err(progressLine(done, initial.episodesTotal, counts));
    },
  });
  io.err('\n');
  return summary;
}

/** The documented shape of `harness rollout --json`. */
function report(summary: RunSummary, episodes: EpisodeInfo[]) {
  const m = summary.metrics;
  return {
    runId: summary.id,
    status: summary.status,
    successRate: m.successRate,
    interval: m.interval,
    failureDistribution: m.failureDistribution,
    meanSteps: m.meanSteps,
    meanStepsSuccess: m.meanStepsSuccess,
    meanReward: m.meanReward,
    errors: m.errors,
    errorDistribution: m.errorDistribution,
    groupSize: summary.groupSize,
    invalidLoopLimit: summary.invalidLoopLimit,
    episodes: episodes.map((e) => ({
      taskId: e.taskId,
      seed: e.seed,
      ...(e.startSeed !== null ? { startSeed: e.startSeed } : {}),
      outcome: e.outcome,
      steps: e.steps,
      reward: e.reward,
      ...(e.promptTokens !== null || e.outputTokens !== null
        ? {
            tokens: {
              prompt: e.promptTokens ?? 0,
              completion: e.outputTokens ?? 0,
              cached: e.cachedTokens ?? 0,
            },
          }
        : {}),
      ...(e.failureCategory ? { failureCategory: e.failureCategory } : {}),
      ...(e.errorMessage ? { error: e.errorMessage } : {}),
    })),
  };
}

function printReport(
  io: CliIO,
  out: ReturnType<typeof report> & { llm?: Awaited<ReturnType<typeof llmSummary>> },
  m: RunMetrics,
): void {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  io.out(
    `success rate ${m.successRate === null ? 'n/a' : pct(m.successRate)}  95% CI [${pct(m.interval[0])}, ${pct(m.interval[1])}]  (${m.successes}/${m.successes + m.failures})\n`,
  );
  io.out(
    `mean steps ${m.meanSteps?.toFixed(1) ?? 'n/a'} (successful ${m.meanStepsSuccess?.toFixed(1) ?? 'n/a'})  mean reward ${m.meanReward?.toFixed(3) ?? 'n/a'}  errors ${m.errors}\n`,
  );
  const failures = Object.entries(m.failureDistribution).filter(([, n]) => n > 0);
  if (failures.length > 0)
    io.out(`failures: ${failures.map(([c, n]) => `${c} ${n}`).join(', ')}\n`);
  if (out.groupSize > 1)
    io.out(
      `groups: ${out.episodes.length / out.groupSize} of ${out.groupSize} (each start seed played ${out.groupSize} times with different policy seeds)\n`,
    );
  if (out.invalidLoopLimit)
    io.out(`cut-off on: an episode ends after ${out.invalidLoopLimit} invalid actions in a row\n`);
  if (out.llm) {
    const t = out.llm.tokens;
    const cost = out.llm.cost === null ? 'no price set' : `cost ≈ $${out.llm.cost.toPrecision(3)}`;
    io.out(`tokens ${t.prompt} prompt (${t.cached} cached), ${t.completion} completion; ${cost}\n`);
    if (out.llm.mode) io.out(`${out.llm.mode}\n`);
  }
  for (const e of out.episodes) {
    const detail = e.failureCategory ?? e.error ?? '';
    const start = e.startSeed !== undefined ? ` (start ${e.startSeed})` : '';
    io.out(
      `  ${e.taskId} seed ${e.seed}${start}\t${e.outcome}\t${e.steps} steps\treward ${e.reward?.toFixed(3) ?? '-'}\t${detail}\n`,
    );
  }
  io.out(`run ${out.runId}\n`);
}
