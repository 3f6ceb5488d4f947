// Shared selects and the paged reads every list uses (cursor pagination, never offset), plus the one
// write with a rule of its own: harness versions are numbered 1, 2, 3 … per harness and never change.
import type { Prisma, PrismaClient } from './generated/client.ts';

export const runListSelect = {
  id: true,
  kind: true,
  policy: true,
  status: true,
  queue: true,
  harnessVersionId: true,
  taskIds: true,
  k: true,
  seeds: true,
  maxSteps: true,
  concurrency: true,
  episodesTotal: true,
  episodesDone: true,
  error: true,
  createdAt: true,
  startedAt: true,
  finishedAt: true,
  createdBy: true,
  projectId: true,
} satisfies Prisma.RunSelect;

export const episodeListSelect = {
  id: true,
  runId: true,
  taskId: true,
  seed: true,
  startSeed: true,
  ordinal: true,
  status: true,
  attempt: true,
  outcome: true,
  failureCategory: true,
  errorKind: true,
  errorMessage: true,
  steps: true,
  reward: true,
  durationMs: true,
  startedAt: true,
  finishedAt: true,
  promptTokens: true,
  outputTokens: true,
  cachedTokens: true,
} satisfies Prisma.EpisodeSelect;

export const stepSelect = {
  episodeId: true,
  index: true,
  attempt: true,
  action: true,
  executedAction: true,
  rawObservation: true,
  rawObservationData: true,
  observation: true,
  observationData: true,
  reward: true,
  terminated: true,
  truncated: true,
  invalid: true,
  blocked: true,
  changes: true,
  info: true,
  leg: true,
  state: true,
  meta: true,
  llm: true,
  commands: true,
} satisfies Prisma.StepSelect;

export const harnessVersionSelect = {
  id: true,
  harnessId: true,
  version: true,
  name: true,
  spec: true,
  note: true,
  createdBy: true,
  createdAt: true,
} satisfies Prisma.HarnessVersionSelect;

export interface Page<T, C> {
  items: T[];
  /** Pass back to get the next page; undefined on the last page. */
  next: C | undefined;
}

const MAX_PAGE = 1000;

function clampTake(take: number | undefined, fallback: number): number {
  return Math.max(1, Math.min(MAX_PAGE, Math.floor(take ?? fallback)));
}

/** Steps of an episode in index order, `take` at a time after step index `after`. */
export async function pageSteps(
  db: PrismaClient,
  episodeId: string,
  o: { after?: number; take?: number } = {},
): Promise<Page<Prisma.StepGetPayload<{ select: typeof stepSelect }>, number>> {
  const take = clampTake(o.take, 200);
  const rows = await db.step.findMany({
    where: { episodeId, ...(o.after === undefined ? {} : { index: { gt: o.after } }) },
    orderBy: { index: 'asc' },
    take: take + 1,
    select: stepSelect,
  });
  const items = rows.slice(0, take);
  return { items, next: rows.length > take ? items.at(-1)?.index : undefined };
}

/** Newest runs first; the cursor is the last run's id (ties on createdAt broken by id). */
export async function pageRuns(
  db: PrismaClient,
  o: { cursor?: string; take?: number; where?: Prisma.RunWhereInput } = {},
): Promise<Page<Prisma.RunGetPayload<{ select: typeof runListSelect }>, string>> {
  const take = clampTake(o.take, 50);
  const rows = await db.run.findMany({
    where: o.where,
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    ...(o.cursor ? { cursor: { id: o.cursor }, skip: 1 } : {}),
    take: take + 1,
    select: runListSelect,
  });
  const items = rows.slice(0, take);
  return { items, next: rows.length > take ? items.at(-1)?.id : undefined };
}

/** Episodes of a run in ordinal order, after ordinal `after`. */
export async function pageEpisodes(
  db: PrismaClient,
  runId: string,
  o: { after?: number; take?: number; where?: Prisma.EpisodeWhereInput } = {},
): Promise<Page<Prisma.EpisodeGetPayload<{ select: typeof episodeListSelect }>, number>> {
  const take = clampTake(o.take, 100);
  const rows = await db.episode.findMany({
    where: { ...o.where, runId, ...(o.after === undefined ? {} : { ordinal: { gt: o.after } }) },
    orderBy: { ordinal: 'asc' },
    take: take + 1,
    select: episodeListSelect,
  });
  const items = rows.slice(0, take);
  return { items, next: rows.length > take ? items.at(-1)?.ordinal : undefined };
}

/** Events of a run after event id `after` (the resume cursor of a live stream), oldest first. */
export function runEventsAfter(
  db: PrismaClient,
  runId: string,
  after?: bigint,
  take = 500,
): Promise<{ id: bigint; type: string; payload: Prisma.JsonValue; createdAt: Date }[]> {
  return db.runEvent.findMany({
    where: { runId, ...(after === undefined ? {} : { id: { gt: after } }) },
    orderBy: { id: 'asc' },
    take: clampTake(take, 500),
    select: { id: true, type: true, payload: true, createdAt: true },
  });
}

/**
 * Saves a new immutable version of a harness, numbered one past the latest. Two writers racing for
 * the same number meet the unique (harnessId, version) constraint; the loser retries.
 */
export async function createHarnessVersion(
  // Also inside a transaction (approving a rig candidate files it with its decision); a unique
  // violation there aborts the transaction, so the retry helps only outside one.
  db: PrismaClient | Prisma.TransactionClient,
  harnessId: string,
  v: { name: string; spec: Prisma.InputJsonValue; note?: string; createdBy?: string },
): Promise<Prisma.HarnessVersionGetPayload<{ select: typeof harnessVersionSelect }>> {
  for (let attempt = 0; ; attempt++) {
    const latest = await db.harnessVersion.findFirst({
      where: { harnessId },
      orderBy: { version: 'desc' },
      select: { version: true },
    });
    try {
      return await db.harnessVersion.create({
        data: {
          harnessId,
          version: (latest?.version ?? 0) + 1,
          name: v.name,
          spec: v.spec,
          note: v.note ?? '',
          createdBy: v.createdBy ?? null,
        },
        select: harnessVersionSelect,
      });
    } catch (e) {
      if (attempt < 5 && isUniqueViolation(e)) continue;
      throw e;
    }
  }
}

/** Prisma's unique-constraint failure (P2002), whichever adapter raised it. */
export function isUniqueViolation(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { code?: unknown }).code === 'P2002';
}

/**
 * PostgreSQL refused the text itself: a NUL character (22021, invalid byte sequence) or one it
 * cannot translate (22P05), whichever adapter raised it. The caller's input, not a server failure.
 */
export function isInvalidText(e: unknown): boolean {
  if (typeof e !== 'object' || e === null) return false;
  const meta = (e as { meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } } })
    .meta;
  const code = meta?.driverAdapterError?.cause?.originalCode;
  return code === '22021' || code === '22P05';
}
