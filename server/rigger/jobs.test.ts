// Rigs as jobs on the embedded queue: the studio's launch answers with the id of a queued rig that
// runs in the composition's rig queue; closing the services stops a rig between steps and leaves
// it unfinished; the start-up resume (runs, then rigs) finishes it, each iteration recorded once.
import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../errors.ts';
import { testServices } from '../testing/services.ts';
import { createRig, type RigInput, runRig } from './loop.ts';
import { withRigServices } from './testing/setup.ts';

const env = withRigServices();
const db = () => env().db;

const INPUT: RigInput = {
  task: 'household:eval_seen-004',
  policy: 'scripted:household-no-transform',
};

async function until(what: string, check: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('rig jobs (embedded queue)', { timeout: 120_000 }, () => {
  it('start() answers with a recorded rig that the rig queue runs to the end', async () => {
    const { rigs } = env().services;
    const { rigId } = await rigs.start(INPUT);
    const row = await db().rig.findUniqueOrThrow({ where: { id: rigId } });
    expect(['queued', 'running']).toContain(row.status);
    // Every setting it runs with is on the row.
    expect(row.constraints).toMatchObject({
      band: [0.4, 0.6],
      seed: 0,
      maxSteps: 50,
      queue: 'local',
    });
    await rigs.whenIdle();
    const done = await db().rig.findUniqueOrThrow({
      where: { id: rigId },
      include: { candidates: true },
    });
    expect(done.status).toBe('completed');
    expect(done.acceptedCandidateId).not.toBeNull();
    expect(done.candidates.every((c) => c.decision !== null)).toBe(true);
  });

  it('refuses an unknown task before recording anything', async () => {
    const before = await db().rig.count();
    await expect(
      env().services.rigs.start({ ...INPUT, task: 'household:no-such-task' }),
    ).rejects.toThrow(NotFoundError);
    expect(await db().rig.count()).toBe(before);
  });

  it('a closed studio leaves its rig unfinished; the next start resumes it and a queued one', async () => {
    // The studio that stops mid-rig: its own composition on the same database.
    const first = await testServices({
      db: db(),
      kind: 'pglite',
      applied: [],
      close: async () => {},
    });
    const { rigId } = await first.rigs.start({ ...INPUT, seed: 40 });
    await until('a first decided candidate', async () => {
      const n = await db().candidate.count({ where: { rigId, decision: { not: null } } });
      return n >= 1;
    });
    await first.close();
    const stopped = await db().rig.findUniqueOrThrow({
      where: { id: rigId },
      include: { candidates: true },
    });
    expect(stopped.status).toBe('running');
    // A rig recorded by a process that died before it ran anything.
    const { rigId: queued } = await createRig(env().services.rigDeps(), { ...INPUT, seed: 40 });

    const resumed = await env().services.resumeUnfinished();
    expect(resumed.rigs).toEqual([rigId, queued]);
    await env().services.rigs.whenIdle();

    const reference = await runRig(env().services.rigDeps(), { ...INPUT, seed: 40 });
    for (const id of [rigId, queued]) {
      const rig = await db().rig.findUniqueOrThrow({
        where: { id },
        include: { candidates: { orderBy: { iteration: 'asc' } }, diagnoses: true },
      });
      expect(rig.status).toBe('completed');
      expect(rig.diagnoses).toHaveLength(1);
      expect(rig.candidates.map((c) => c.decision)).toEqual(
        reference.iterations.map((i) => i.decision),
      );
      expect(rig.candidates.map((c) => c.spec)).toEqual(
        reference.iterations.map((i) => i.candidate.spec),
      );
      const runs = await db().run.count({ where: { id: { startsWith: id }, kind: 'validation' } });
      expect(runs).toBe(rig.candidates.filter((c) => c.validationRunId).length);
    }
  });
});
