// Measures writing one long trajectory through Prisma: 10,000 steps by createMany in batches, on
// PGlite and on the local PostgreSQL. `npx tsx server/db/bench-steps.ts [steps] [batch]`.
import { performance } from 'node:perf_hooks';
import type { Prisma } from './generated/client.ts';
import { pageSteps } from './queries.ts';
import { createTestDb, type TestDbKind } from './testing.ts';

const total = Number(process.argv[2] ?? 10_000);
const batch = Number(process.argv[3] ?? 1_000);

function steps(episodeId: string, from: number, n: number): Prisma.StepCreateManyInput[] {
  return Array.from({ length: n }, (_, i) => ({
    episodeId,
    index: from + i,
    action: { name: 'act', args: { command: `go to countertop ${(from + i) % 7}` } },
    executedAction: { name: 'act', args: { command: `go to countertop ${(from + i) % 7}` } },
    rawObservation: `You arrive at countertop ${(from + i) % 7}. On it you see a mug 1.`,
    observation: `You arrive at countertop ${(from + i) % 7}. On it you see a mug 1.`,
    reward: 0,
    terminated: false,
    truncated: false,
    changes: [],
    info: { valid: true },
  }));
}

async function bench(kind: TestDbKind): Promise<void> {
  const t = await createTestDb(kind);
  try {
    const run = await t.db.run.create({
      data: {
        policy: 'bench',
        spec: {},
        taskIds: ['t'],
        k: 1,
        seeds: [0],
        maxSteps: total,
        rewardParams: {},
      },
    });
    const ep = await t.db.episode.create({
      data: { runId: run.id, taskId: 't', seed: 0, ordinal: 0 },
    });
    const t0 = performance.now();
    for (let from = 0; from < total; from += batch) {
      await t.db.step.createMany({ data: steps(ep.id, from, Math.min(batch, total - from)) });
    }
    const writeMs = performance.now() - t0;
    const t1 = performance.now();
    let read = 0;
    let after: number | undefined;
    do {
      const page = await pageSteps(t.db, ep.id, { after, take: 500 });
      read += page.items.length;
      after = page.next;
    } while (after !== undefined);
    const readMs = performance.now() - t1;
    console.log(
      `${kind}: wrote ${total} steps in ${writeMs.toFixed(0)} ms (${Math.round((total / writeMs) * 1000)} rows/s, batches of ${batch}); read ${read} back in pages of 500 in ${readMs.toFixed(0)} ms`,
    );
  } finally {
    await t.close();
  }
}

await bench('pglite');
await bench('postgres');
process.exit(0);
