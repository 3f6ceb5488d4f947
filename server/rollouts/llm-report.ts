// A run's LLM use as the run page and the episode page show it: tokens of its finished episodes
// (prompt, completion, cached), the part spent on steps that never reached the environment (bpe
// meta-actions, ReAct thinks), a cost estimate, and which mode the episodes spoke and why.
import '#server-only';
import {
  costOf,
  LLM_MODES,
  priceOfOptions,
  type RunLlmReport,
  SPOKEN_MODES,
  type TokenPrice,
} from '../../contracts/llm.ts';
import { PolicyOptionsSchema } from '../../contracts/runs.ts';
import type { Db } from '../db/index.ts';
import { parseOptionalColumn } from '../db/json.ts';
import { NotFoundError } from '../errors.ts';

/** The server's default price (OPENAI_PRICE_*_PER_M), when prompt and completion are both set. */
export function configuredPrice(c: {
  OPENAI_PRICE_PROMPT_PER_M?: number | undefined;
  OPENAI_PRICE_COMPLETION_PER_M?: number | undefined;
  OPENAI_PRICE_CACHED_PER_M?: number | undefined;
}): TokenPrice | undefined {
  if (c.OPENAI_PRICE_PROMPT_PER_M === undefined || c.OPENAI_PRICE_COMPLETION_PER_M === undefined)
    return undefined;
  return {
    prompt: c.OPENAI_PRICE_PROMPT_PER_M,
    completion: c.OPENAI_PRICE_COMPLETION_PER_M,
    ...(c.OPENAI_PRICE_CACHED_PER_M !== undefined ? { cached: c.OPENAI_PRICE_CACHED_PER_M } : {}),
  };
}

interface KindSums {
  prompt: number;
  completion: number;
  cached: number;
  steps: number;
}

const oneOf = <T extends string>(set: readonly T[], v: string | null, fallback: T): T =>
  set.includes(v as T) ? (v as T) : fallback;

export async function runLlmReport(
  db: Db,
  runId: string,
  defaultPrice: TokenPrice | undefined,
): Promise<RunLlmReport> {
  const run = await db.run.findUnique({ where: { id: runId }, select: { policyOptions: true } });
  if (!run) throw new NotFoundError(`run '${runId}' not found`);
  const options = parseOptionalColumn(
    PolicyOptionsSchema,
    run.policyOptions,
    `Run ${runId} policyOptions`,
  );
  const [totals, kinds, modes] = await Promise.all([
    db.episode.aggregate({
      where: { runId, status: 'done' },
      _sum: { promptTokens: true, outputTokens: true, cachedTokens: true },
      _count: { promptTokens: true },
    }),
    db.$queryRaw<{ meta: KindSums; think: KindSums }[]>`
      WITH k AS (SELECT llm->'byKind' AS b FROM "Episode"
                 WHERE "runId" = ${runId} AND status = 'done' AND llm IS NOT NULL)
      SELECT
        json_build_object('prompt', coalesce(sum((b->'meta'->>'prompt')::int), 0),
          'completion', coalesce(sum((b->'meta'->>'completion')::int), 0),
          'cached', coalesce(sum((b->'meta'->>'cached')::int), 0),
          'steps', coalesce(sum((b->'meta'->>'requests')::int), 0)) AS meta,
        json_build_object('prompt', coalesce(sum((b->'think'->>'prompt')::int), 0),
          'completion', coalesce(sum((b->'think'->>'completion')::int), 0),
          'cached', coalesce(sum((b->'think'->>'cached')::int), 0),
          'steps', coalesce(sum((b->'think'->>'requests')::int), 0)) AS think
      FROM k`,
    db.$queryRaw<
      { requested: string | null; mode: string | null; reason: string | null; episodes: number }[]
    >`
      SELECT llm->>'requested' AS requested, llm->>'mode' AS mode, llm->>'reason' AS reason,
        count(*)::int AS episodes
      FROM "Episode" WHERE "runId" = ${runId} AND status = 'done' AND llm IS NOT NULL
      GROUP BY 1, 2, 3 ORDER BY 4 DESC, 2 LIMIT 10`,
  ]);
  const usage = {
    prompt: totals._sum.promptTokens ?? 0,
    completion: totals._sum.outputTokens ?? 0,
    cached: totals._sum.cachedTokens ?? 0,
    episodes: totals._count.promptTokens,
  };
  const own = priceOfOptions(options);
  const price = own ?? defaultPrice ?? null;
  const zero = { prompt: 0, completion: 0, cached: 0, steps: 0 };
  return {
    usage,
    meta: kinds[0]?.meta ?? zero,
    think: kinds[0]?.think ?? zero,
    price,
    priceSource: own ? 'run' : defaultPrice ? 'config' : 'none',
    cost: price && usage.episodes > 0 ? costOf(usage, price) : null,
    modes: modes.map((m) => ({
      requested: oneOf(LLM_MODES, m.requested, 'auto'),
      mode: oneOf(SPOKEN_MODES, m.mode, 'tools'),
      reason: m.reason,
      episodes: m.episodes,
    })),
  };
}
