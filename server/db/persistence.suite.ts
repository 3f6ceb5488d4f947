// The persistence suite both databases must pass (PGlite and PostgreSQL run the very same tests).
import { beforeEach, describe, expect, it } from 'vitest';
import type { Prisma, PrismaClient } from './generated/client.ts';
import {
  createHarnessVersion,
  isUniqueViolation,
  pageEpisodes,
  pageRuns,
  pageSteps,
  runEventsAfter,
} from './queries.ts';
import { rowCounts, type TestDbKind, truncateAll, withTestDb } from './testing.ts';

function newRun(db: PrismaClient, over: Partial<Prisma.RunUncheckedCreateInput> = {}) {
  return db.run.create({
    data: {
      policy: 'scripted:toy24-exact',
      spec: { kind: 'env', bridge: 'toy24', task: 'toy24:1' },
      taskIds: ['toy24:1', 'toy24:2'],
      k: 3,
      seeds: [0, 1, 2],
      maxSteps: 20,
      rewardParams: { success: 10, tMax: 50 },
      ...over,
    },
  });
}

function stepRows(episodeId: string, count: number, from = 0): Prisma.StepCreateManyInput[] {
  return Array.from({ length: count }, (_, i) => {
    const index = from + i;
    const blocked = index % 7 === 3;
    return {
      episodeId,
      index,
      action: { name: 'act', args: { command: `go to shelf ${index}` } },
      executedAction: blocked
        ? undefined
        : { name: 'act', args: { command: `go to shelf ${index}` } },
      rawObservation: blocked ? null : `You arrive at shelf ${index}.`,
      observation: blocked ? 'That action is not allowed here.' : `You arrive at shelf ${index}.`,
      reward: index === count - 1 ? 1 : 0,
      terminated: false,
      truncated: false,
      invalid: blocked,
      blocked: blocked ? 'env.rules' : null,
      changes: blocked
        ? [{ layer: 'env', component: 'contract', what: 'blocked', note: 'shelf is locked' }]
        : [],
      info: { valid: !blocked },
    };
  });
}

export function persistenceSuite(kind: TestDbKind): void {
  describe(`persistence on ${kind}`, () => {
    const db = withTestDb(kind);
    beforeEach(async () => {
      await truncateAll(db());
    });

    it('numbers harness versions per harness and refuses to change a saved version', async () => {
      const h = await db().harness.create({
        data: { name: 'hide the apple', bridge: 'household', taskId: 'household:pick_0' },
      });
      const spec1 = {
        kind: 'stage',
        actions: [{ name: 'act', args: { command: 'open fridge 1' } }],
      };
      const v1 = await createHarnessVersion(db(), h.id, { name: 'first', spec: spec1 });
      const v2 = await createHarnessVersion(db(), h.id, {
        name: 'second',
        spec: { kind: 'env' },
        note: 'simpler',
      });
      expect([v1.version, v2.version]).toEqual([1, 2]);
      expect(v1.spec).toEqual(spec1);

      await expect(
        db().harnessVersion.update({ where: { id: v1.id }, data: { name: 'renamed' } }),
      ).rejects.toThrow(/immutable/);
      await expect(
        db().harnessVersion.updateMany({ where: { harnessId: h.id }, data: { note: 'x' } }),
      ).rejects.toThrow(/immutable/);
      const again = await db().harnessVersion.findUniqueOrThrow({ where: { id: v1.id } });
      expect(again.name).toBe('first');
      expect(again.spec).toEqual(spec1);

      // The library entry itself stays editable (status moves draft -> approved).
      await db().harness.update({ where: { id: h.id }, data: { status: 'approved' } });

      const dup = db().harnessVersion.create({
        data: { harnessId: h.id, version: 2, name: 'clash', spec: {} },
      });
      await expect(dup).rejects.toSatisfy(isUniqueViolation);

      await db().harness.delete({ where: { id: h.id } });
      expect(await db().harnessVersion.count({ where: { harnessId: h.id } })).toBe(0);
    });

    it('gives concurrent saves of one harness distinct consecutive version numbers', async () => {
      const h = await db().harness.create({ data: { name: 'raced', bridge: 'toy24' } });
      const saved = await Promise.all(
        Array.from({ length: 4 }, (_, i) =>
          createHarnessVersion(db(), h.id, { name: `v${i}`, spec: { i } }),
        ),
      );
      expect(saved.map((v) => v.version).sort()).toEqual([1, 2, 3, 4]);
    });

    it('writes episodes and steps in batches and reads steps back page by page', async () => {
      const run = await newRun(db(), { kind: 'baseline', queue: 'local', concurrency: 2 });
      const episodes = run.taskIds.flatMap((taskId, t) =>
        run.seeds.map((seed, s) => ({
          runId: run.id,
          taskId,
          seed,
          ordinal: t * run.seeds.length + s,
        })),
      );
      const created = await db().episode.createMany({ data: episodes });
      expect(created.count).toBe(6);
      const ep = await db().episode.findFirstOrThrow({ where: { runId: run.id, ordinal: 4 } });
      expect([ep.taskId, ep.seed, ep.status, ep.attempt, ep.reward]).toEqual([
        'toy24:2',
        1,
        'queued',
        0,
        null,
      ]);

      const batch1 = await db().step.createMany({ data: stepRows(ep.id, 120) });
      const batch2 = await db().step.createMany({ data: stepRows(ep.id, 130, 120) });
      expect(batch1.count + batch2.count).toBe(250);

      const seen: number[] = [];
      let after: number | undefined;
      let pages = 0;
      do {
        const page = await pageSteps(db(), ep.id, { after, take: 100 });
        seen.push(...page.items.map((s) => s.index));
        after = page.next;
        pages++;
      } while (after !== undefined);
      expect(pages).toBe(3);
      expect(seen).toEqual(Array.from({ length: 250 }, (_, i) => i));

      const { items } = await pageSteps(db(), ep.id, { after: 2, take: 1 });
      const blocked = items[0]!;
      expect(blocked.index).toBe(3);
      expect(blocked.invalid).toBe(true);
      expect(blocked.blocked).toBe('env.rules');
      expect(blocked.executedAction).toBeNull();
      expect(blocked.rawObservation).toBeNull();
      expect(blocked.changes).toEqual([
        { layer: 'env', component: 'contract', what: 'blocked', note: 'shelf is locked' },
      ]);
      expect(blocked.action).toEqual({ name: 'act', args: { command: 'go to shelf 3' } });

      // A step index is written once per episode (primary key episodeId + index).
      await expect(db().step.createMany({ data: stepRows(ep.id, 1, 10) })).rejects.toSatisfy(
        isUniqueViolation,
      );

      await db().episode.update({
        where: { id: ep.id },
        data: {
          status: 'done',
          outcome: 'success',
          steps: 250,
          reward: 7.5,
          costReward: { task: 10, efficiency: -2.5, diversity: 0, spam: 0, invalid: 0 },
          durationMs: 1234,
          finishedAt: new Date(),
        },
      });
      const firstPage = await pageEpisodes(db(), run.id, { take: 4 });
      expect(firstPage.items.map((e) => e.ordinal)).toEqual([0, 1, 2, 3]);
      const rest = await pageEpisodes(db(), run.id, { after: firstPage.next, take: 4 });
      expect(rest.items.map((e) => e.ordinal)).toEqual([4, 5]);
      expect(rest.next).toBeUndefined();
      expect(rest.items[0]).toMatchObject({ outcome: 'success', reward: 7.5, steps: 250 });

      // Deleting a run removes its episodes and their steps.
      await db().run.delete({ where: { id: run.id } });
      expect(await db().step.count()).toBe(0);
      expect(await db().episode.count()).toBe(0);
    });

    it('enforces one episode per (run, task, seed) and writes nothing from a failed batch', async () => {
      const run = await newRun(db());
      const rows = [
        { runId: run.id, taskId: 'toy24:1', seed: 0, ordinal: 0 },
        { runId: run.id, taskId: 'toy24:1', seed: 1, ordinal: 1 },
        { runId: run.id, taskId: 'toy24:1', seed: 0, ordinal: 2 },
      ];
      await expect(db().episode.createMany({ data: rows })).rejects.toSatisfy(isUniqueViolation);
      expect(await db().episode.count()).toBe(0);

      // Re-enqueueing is idempotent with skipDuplicates (e.g. a restarted launcher).
      await db().episode.createMany({ data: rows.slice(0, 2) });
      const again = await db().episode.createMany({ data: rows, skipDuplicates: true });
      expect(again.count).toBe(0);
      expect(await db().episode.count({ where: { runId: run.id } })).toBe(2);

      // The same (task, seed) in another run is a different episode.
      const other = await newRun(db());
      await db().episode.create({
        data: { runId: other.id, taskId: 'toy24:1', seed: 0, ordinal: 0 },
      });
      expect(await db().episode.count()).toBe(3);
    });

    it('orders run events by their id so a stream can resume after the last one it saw', async () => {
      const a = await newRun(db());
      const b = await newRun(db());
      for (let i = 0; i < 30; i++) {
        await db().runEvent.create({
          data: { runId: i % 3 === 2 ? b.id : a.id, type: 'episode_ended', payload: { i } },
        });
      }
      const all = await runEventsAfter(db(), a.id);
      expect(all).toHaveLength(20);
      for (let i = 1; i < all.length; i++) expect(all[i]!.id > all[i - 1]!.id).toBe(true);
      expect(typeof all[0]!.id).toBe('bigint');

      const resumed = await runEventsAfter(db(), a.id, all[9]!.id);
      expect(resumed.map((e) => (e.payload as { i: number }).i)).toEqual(
        all.slice(10).map((e) => (e.payload as { i: number }).i),
      );
      expect(await runEventsAfter(db(), a.id, all.at(-1)!.id)).toEqual([]);
    });

    it('lists runs newest first by cursor and keeps arrays, enums and JSON intact', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const r = await newRun(db(), {
          createdAt: new Date(Date.UTC(2026, 0, 1 + i)),
          seeds: [i, i + 10, -3],
          status: i === 4 ? 'running' : 'completed',
          kind: 'validation',
          queue: 'bullmq',
          rewardParams: { lambdaSpam: 0.1, nested: { ok: true, list: [1, 'two', null] } },
        });
        ids.push(r.id);
      }
      const p1 = await pageRuns(db(), { take: 2 });
      const p2 = await pageRuns(db(), { take: 2, cursor: p1.next });
      const p3 = await pageRuns(db(), { take: 2, cursor: p2.next });
      expect([...p1.items, ...p2.items, ...p3.items].map((r) => r.id)).toEqual([...ids].reverse());
      expect(p3.next).toBeUndefined();
      expect(p1.items[0]).toMatchObject({ status: 'running', kind: 'validation', queue: 'bullmq' });

      const full = await db().run.findUniqueOrThrow({ where: { id: ids[2]! } });
      expect(full.seeds).toEqual([2, 12, -3]);
      expect(full.taskIds).toEqual(['toy24:1', 'toy24:2']);
      expect(full.rewardParams).toEqual({
        lambdaSpam: 0.1,
        nested: { ok: true, list: [1, 'two', null] },
      });

      const running = await pageRuns(db(), { where: { status: 'running' } });
      expect(running.items.map((r) => r.id)).toEqual([ids[4]]);
    });

    it('counts rows per table, and a rejected write changes no count', async () => {
      const empty = await rowCounts(db());
      expect(Object.keys(empty)).toEqual(
        expect.arrayContaining(['Run', 'Episode', 'Step', 'RunEvent', 'HarnessVersion']),
      );
      expect(Object.values(empty).every((n) => n === 0)).toBe(true);

      const run = await newRun(db());
      await db().runEvent.create({ data: { runId: run.id, type: 'run_started', payload: {} } });
      const before = await rowCounts(db());
      expect(before.Run).toBe(1);
      expect(before.RunEvent).toBe(1);

      // An interactive transaction that fails half-way leaves nothing behind.
      await expect(
        db().$transaction(async (tx) => {
          await tx.episode.create({ data: { runId: run.id, taskId: 't', seed: 1, ordinal: 0 } });
          await tx.episode.create({ data: { runId: run.id, taskId: 't', seed: 1, ordinal: 1 } });
        }),
      ).rejects.toSatisfy(isUniqueViolation);
      expect(await rowCounts(db())).toEqual(before);
    });

    it('stores a rig with its diagnosis, candidates, validation run and a human approval', async () => {
      const baseline = await newRun(db(), { kind: 'baseline' });
      const rig = await db().rig.create({
        data: {
          bridge: 'household',
          taskId: 'household:pick_0',
          policy: 'scripted:household-never-opens',
          designer: 'heuristic',
          k: 5,
          maxIterations: 5,
          constraints: { band: [0.4, 0.6] },
          baselineRunId: baseline.id,
        },
      });
      await db().diagnosis.create({
        data: {
          rigId: rig.id,
          axis: 'action',
          label: 'never opens closed receptacles',
          description: 'The target is inside a closed fridge the policy never opens.',
          evidence: [{ episodeId: 'e1', step: 4 }],
        },
      });
      const validation = await newRun(db(), { kind: 'validation' });
      const cand = await db().candidate.create({
        data: {
          rigId: rig.id,
          iteration: 0,
          spec: { kind: 'stage' },
          rationale: 'open the fridge up front',
          validationRunId: validation.id,
          decision: 'accept',
          stats: { successRate: 0.6 },
        },
      });
      await db().rig.update({
        where: { id: rig.id },
        data: { acceptedCandidateId: cand.id, status: 'completed' },
      });
      await db().approval.create({
        data: { candidateId: cand.id, decision: 'approve', reason: 'looks right', by: 'local' },
      });
      await expect(
        db().candidate.create({
          data: { rigId: rig.id, iteration: 0, spec: {}, rationale: 'same slot' },
        }),
      ).rejects.toSatisfy(isUniqueViolation);

      const loaded = await db().rig.findUniqueOrThrow({
        where: { id: rig.id },
        include: {
          diagnoses: true,
          candidates: { include: { approvals: true, validationRun: true } },
          acceptedCandidate: true,
        },
      });
      expect(loaded.diagnoses[0]?.evidence).toEqual([{ episodeId: 'e1', step: 4 }]);
      expect(loaded.acceptedCandidate?.id).toBe(cand.id);
      expect(loaded.candidates[0]?.approvals[0]?.decision).toBe('approve');
      expect(loaded.candidates[0]?.validationRun?.kind).toBe('validation');
    });

    it('keeps a skill bank with its edit history', async () => {
      const bank = await db().skillBank.create({
        data: { name: 'envharness skills', source: 'envharness', bridge: 'household', config: {} },
      });
      const skill = await db().skill.create({
        data: {
          bankId: bank.id,
          category: 'general',
          title: 'Open closed receptacles',
          description: 'when the target is unseen',
          content: 'open every closed receptacle before giving up',
          sourceEpisodeIds: ['e1', 'e2'],
        },
      });
      await db().skillEdit.createMany({
        data: [
          { bankId: bank.id, skillId: skill.id, op: 'add', after: { title: skill.title } },
          {
            bankId: bank.id,
            skillId: skill.id,
            op: 'update',
            before: { uses: 0 },
            after: { uses: 3 },
          },
        ],
      });
      await db().skill.update({ where: { id: skill.id }, data: { uses: { increment: 3 } } });
      const edits = await db().skillEdit.findMany({
        where: { bankId: bank.id },
        orderBy: { id: 'asc' },
      });
      expect(edits.map((e) => e.op)).toEqual(['add', 'update']);
      const s = await db().skill.findUniqueOrThrow({ where: { id: skill.id } });
      expect(s.uses).toBe(3);
      expect(s.sourceEpisodeIds).toEqual(['e1', 'e2']);
    });
  });
}
