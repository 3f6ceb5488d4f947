// The run_list_counters migration on a database filled before it: existing runs get the counters
// the runs list sorts and filters on, computed from their episodes, and the first base leaf of
// their spec (a chain's first leg, under its layers) as bridge and task.
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { applyMigrations, MIGRATIONS_DIR, migrationsFingerprint } from './migrate.ts';
import { freshPGlite } from './pglite.ts';
import { PGliteMigrationFactory } from './schema-engine.ts';

const found = readdirSync(MIGRATIONS_DIR).find((n) => n.endsWith('_run_list_counters'));
if (!found) throw new Error('the run_list_counters migration is missing');
const NEW: string = found;

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function migrationsBefore(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'envharness-run-counters-'));
  dirs.push(dir);
  cpSync(MIGRATIONS_DIR, dir, {
    recursive: true,
    filter: (src) => {
      const top = path.relative(MIGRATIONS_DIR, src).split(path.sep)[0] ?? '';
      return top === '' || top === 'migration_lock.toml' || top < NEW;
    },
  });
  return dir;
}

const chain = JSON.stringify({
  version: 1,
  env: {
    type: 'chain',
    mode: 'sequential',
    first: {
      type: 'stage',
      // A set-up action whose arguments look like a leaf must not be taken for one.
      actions: [{ name: 'act', args: { type: 'base', bridge: 'decoy', task: 'decoy' } }],
      env: { type: 'base', bridge: 'household', task: 'eval_seen-003' },
    },
    second: { type: 'base', bridge: 'toy24', task: '1-1-1-8' },
  },
});
const plain = JSON.stringify({
  version: 1,
  env: { type: 'base', bridge: 'toy24', task: '2-3-4-6' },
});

const FILL = `
INSERT INTO "Run" ("id", "policy", "spec", "taskIds", "k", "seeds", "maxSteps", "rewardParams", "status", "episodesTotal", "episodesDone") VALUES
  ('run-chain', 'p', '${chain}', '{eval_seen-003}', 5, '{0,1,2,3,4}', 50, '{}', 'running', 5, 4),
  ('run-empty', 'p', '${plain}', '{2-3-4-6}', 1, '{0}', 50, '{}', 'queued', 1, 0);
INSERT INTO "Episode" ("id", "runId", "taskId", "seed", "ordinal", "status", "outcome", "failureCategory", "errorKind", "steps", "reward") VALUES
  ('e0', 'run-chain', 'eval_seen-003', 0, 0, 'done', 'success', NULL, NULL, 10, 10.5),
  ('e1', 'run-chain', 'eval_seen-003', 1, 1, 'done', 'failure', 'gave_up', NULL, 20, 0.1),
  ('e2', 'run-chain', 'eval_seen-003', 2, 2, 'done', 'failure', 'step_budget_exhausted', NULL, 50, 0.2),
  ('e3', 'run-chain', 'eval_seen-003', 3, 3, 'done', 'error', NULL, 'harness', 7, NULL),
  ('e4', 'run-chain', 'eval_seen-003', 4, 4, 'queued', NULL, NULL, NULL, 0, NULL),
  ('e5', 'run-empty', '2-3-4-6', 0, 0, 'queued', NULL, NULL, NULL, 0, NULL);`;

describe('the run_list_counters migration', { timeout: 180_000 }, () => {
  it('fills the counters and the first base leaf of runs recorded before it', async () => {
    const before = migrationsBefore();
    const { db } = await freshPGlite({
      key: migrationsFingerprint(before),
      prepare: async (p) => {
        await applyMigrations({ factory: new PGliteMigrationFactory(p), migrationsDir: before });
      },
    });
    try {
      await db.exec(FILL);
      const applied = await applyMigrations({ factory: new PGliteMigrationFactory(db) });
      // It is the first to apply; the migrations after it (additive) follow.
      expect(applied[0]).toBe(NEW);
      const rows = (
        await db.query<Record<string, unknown>>(
          `SELECT id, bridge, task, "episodesSucceeded", "episodesFailed", "episodesErrored",
             "stepsScored", "successRate", "meanSteps" FROM "Run" ORDER BY id`,
        )
      ).rows;
      expect(rows).toEqual([
        {
          id: 'run-chain',
          bridge: 'household',
          task: 'eval_seen-003',
          episodesSucceeded: 1,
          episodesFailed: 2,
          episodesErrored: 1,
          stepsScored: 80,
          successRate: 1 / 3,
          meanSteps: 80 / 3,
        },
        {
          id: 'run-empty',
          bridge: 'toy24',
          task: '2-3-4-6',
          episodesSucceeded: 0,
          episodesFailed: 0,
          episodesErrored: 0,
          stepsScored: 0,
          successRate: null,
          meanSteps: null,
        },
      ]);
    } finally {
      await db.close();
    }
  });
});
