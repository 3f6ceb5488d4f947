// The typed_columns migration on a database filled by the schema before it: String columns holding
// closed sets become enums and a run's policy options and loop limit leave "rewardParams", with every
// row carried over (values kept, out-of-set values mapped as the migration says), and the app reads
// the migrated rows. On PGlite (a persisted folder, opened the way the server opens it) and on the
// PostgreSQL server.
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { PASS_THROUGH_OPTIONS } from '../rollouts/engine.ts';
import { RunEvents } from '../rollouts/events.ts';
import { getRunSummary } from '../rollouts/reads.ts';
import { episodeInput, loadRunSettings } from '../rollouts/run-settings.ts';
import { getBank } from '../skills/store.ts';
import { type DbHandle, openDb } from './index.ts';
import { CorruptRowError } from './json.ts';
import { applyMigrations, MIGRATIONS_DIR, migrationsFingerprint } from './migrate.ts';
import { freshPGlite } from './pglite.ts';
import { PGliteMigrationFactory, PgMigrationFactory } from './schema-engine.ts';
import { rowCounts, TEST_PG_ADMIN_URL } from './testing.ts';
import { FILL } from './typed-columns-fill.fixture.ts';

const NEW = readdirSync(MIGRATIONS_DIR).find((n) => n.endsWith('_typed_columns'));
if (!NEW) throw new Error('the typed_columns migration is missing');

const tmpDirs: string[] = [];
afterAll(() => {
  for (const d of tmpDirs) rmSync(d, { recursive: true, force: true });
});
function tmpDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'envharness-typed-columns-'));
  tmpDirs.push(dir);
  return dir;
}

/** A copy of the migrations folder holding those before the new one (`through`: and it too). */
function migrationsUpTo(o: { through: boolean }): string {
  const dir = tmpDir();
  cpSync(MIGRATIONS_DIR, dir, {
    recursive: true,
    filter: (src) => {
      const rel = path.relative(MIGRATIONS_DIR, src);
      const top = rel.split(path.sep)[0] ?? '';
      if (rel === '' || top === 'migration_lock.toml') return true;
      return o.through ? top <= NEW! : top < NEW!;
    },
  });
  return dir;
}

/** One SQL connection, whichever the database. */
interface Sql {
  exec(script: string): Promise<void>;
  rows(query: string): Promise<Record<string, unknown>[]>;
}

/** The tables the migration touches (and Step, which it must not), each with its row order. */
const TABLES: Record<string, string> = {
  Run: 't.id',
  Episode: 't.id',
  Step: 't."episodeId", t."index"',
  RunEvent: 't.id',
  Rig: 't.id',
  Diagnosis: 't.id',
  SkillBank: 't.id',
  Skill: 't.id',
  SkillEdit: 't.id',
};
type Row = Record<string, unknown>;
type Snapshot = Record<string, Row[]>;

/** Every row of those tables, each as one JSON object (every column). */
async function snapshot(sql: Sql): Promise<Snapshot> {
  const out: Snapshot = {};
  for (const [table, order] of Object.entries(TABLES)) {
    const rows = await sql.rows(`SELECT to_jsonb(t) AS row FROM "${table}" AS t ORDER BY ${order}`);
    out[table] = rows.map((r) => r.row as Row);
  }
  return out;
}

const byId = (rows: Row[], id: unknown) => rows.find((r) => r.id === id);

/** What each table must hold after the migration, from what it held before (the migration's rules). */
function expected(before: Snapshot): Snapshot {
  const runs = before.Run!.map((r) => {
    const { policyOptions, invalidLoopLimit, ...reward } = r.rewardParams as Row;
    const movesLimit = Number.isInteger(invalidLoopLimit);
    return {
      ...r,
      rewardParams:
        movesLimit || invalidLoopLimit === undefined ? reward : { ...reward, invalidLoopLimit },
      policyOptions: policyOptions ?? null,
      invalidLoopLimit: movesLimit ? invalidLoopLimit : null,
    };
  });
  const known = {
    failure: ['step_budget_exhausted', 'gave_up', 'wrong_final_state', 'invalid_action_loop'],
    event: ['run_started', 'episode_started', 'episode_ended', 'run_progress', 'run_completed'],
    axis: ['start_state', 'action', 'observation', 'transition', 'task_understanding', 'none'],
  };
  const paper: Record<string, string> = {
    S0: 'start_state',
    A: 'action',
    O: 'observation',
    T: 'transition',
    task: 'task_understanding',
  };
  return {
    Run: runs,
    Episode: before.Episode!.map((e) => ({
      ...e,
      failureCategory: known.failure.includes(e.failureCategory as string)
        ? e.failureCategory
        : null,
    })),
    Step: before.Step!,
    RunEvent: before
      .RunEvent!.filter((e) => known.event.includes(e.type as string))
      .map((e) => {
        const p = e.payload as Row;
        return e.type === 'episode_ended' && !known.failure.includes(p.failureCategory as string)
          ? { ...e, payload: { ...p, failureCategory: null } }
          : e;
      }),
    Rig: before.Rig!.map((r) =>
      r.designer === 'heuristic' || r.designer === 'llm'
        ? r
        : {
            ...r,
            designer: 'heuristic',
            constraints: { ...(r.constraints as Row), legacyDesigner: r.designer },
          },
    ),
    Diagnosis: before.Diagnosis!.map((d) => {
      const axis = d.axis as string;
      if (known.axis.includes(axis)) return d;
      if (paper[axis]) return { ...d, axis: paper[axis] };
      return {
        ...d,
        axis: 'none',
        report: { ...((d.report as Row | null) ?? {}), legacyAxis: axis },
      };
    }),
    SkillBank: before.SkillBank!.map((b) =>
      ['original', 'envharness', 'run', 'manual'].includes(b.source as string)
        ? b
        : { ...b, source: 'manual', config: { ...(b.config as Row), legacySource: b.source } },
    ),
    Skill: before.Skill!.map((s) =>
      ['general', 'task', 'mistake', 'prior'].includes(s.category as string)
        ? s
        : { ...s, category: 'general' },
    ),
    SkillEdit: before.SkillEdit!.map((e) =>
      ['add', 'update', 'merge', 'delete'].includes(e.op as string)
        ? e
        : { ...e, op: 'update', reason: `[legacy op ${e.op}] ${e.reason}` },
    ),
  };
}

const ENUM_COLUMNS = [
  ['Episode', 'failureCategory', 'FailureCategory'],
  ['RunEvent', 'type', 'RunEventType'],
  ['Rig', 'designer', 'RigDesigner'],
  ['Diagnosis', 'axis', 'DiagnosisAxis'],
  ['SkillBank', 'source', 'SkillBankSource'],
  ['Skill', 'category', 'SkillCategory'],
  ['SkillEdit', 'op', 'SkillEditOp'],
] as const;

async function columnTypes(sql: Sql): Promise<Record<string, string>> {
  const rows = await sql.rows(
    `SELECT table_name, column_name, udt_name FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name IN ('Run', ${ENUM_COLUMNS.map(([t]) => `'${t}'`).join(', ')})`,
  );
  return Object.fromEntries(
    rows.map((r) => [`${r.table_name}.${r.column_name}`, String(r.udt_name)]),
  );
}

/** Fills the database as the previous schema, migrates it, and checks the rows and their types. */
async function migrateFilled(sql: Sql, migrate: (dir: string) => Promise<string[]>) {
  await sql.exec(FILL);
  const types = await columnTypes(sql);
  for (const [table, column] of ENUM_COLUMNS) expect(types[`${table}.${column}`]).toBe('text');
  expect(types['Run.policyOptions']).toBeUndefined();
  const before = await snapshot(sql);

  expect(await migrate(migrationsUpTo({ through: true }))).toEqual([NEW]);

  const after = await snapshot(sql);
  expect(after).toEqual(expected(before));
  // Row counts: unchanged but for the one event of an unknown type.
  for (const table of Object.keys(TABLES)) {
    const removed = table === 'RunEvent' ? 1 : 0;
    expect(after[table], table).toHaveLength(before[table]!.length - removed);
  }
  const retyped = await columnTypes(sql);
  for (const [table, column, type] of ENUM_COLUMNS) {
    expect(retyped[`${table}.${column}`], `${table}.${column}`).toBe(type);
  }
  expect(retyped['Run.policyOptions']).toBe('jsonb');
  expect(retyped['Run.invalidLoopLimit']).toBe('int4');

  // Spelled out, what the rules above do to these rows.
  const run = byId(after.Run!, 'run-opts')!;
  expect(run.rewardParams).toEqual({ lambdaEff: 0.5, update: 3 });
  expect(run.policyOptions).toEqual({ skillBankId: 'bank-manual', tags: ['open', 'look'] });
  expect(run.invalidLoopLimit).toBe(7);
  expect(byId(after.Run!, 'run-plain')).toMatchObject({
    rewardParams: {},
    policyOptions: null,
    invalidLoopLimit: null,
  });
  // Not a whole number: the limit stays where it was (and reads as corrupt, as it did before).
  expect(byId(after.Run!, 'run-odd')).toMatchObject({
    rewardParams: { tMax: 40, invalidLoopLimit: 2.5 },
    policyOptions: null,
    invalidLoopLimit: null,
  });
  expect(byId(after.Episode!, 'ep-5')?.failureCategory).toBeNull();
  expect(after.RunEvent!.map((e) => e.type)).not.toContain('episode_step');
  expect(after.RunEvent).toHaveLength(before.RunEvent!.length - 1);
  expect(byId(after.Rig!, 'rig-x')).toMatchObject({
    designer: 'heuristic',
    constraints: { band: [0.2, 0.8], legacyDesigner: 'gpt-designer' },
  });
  expect(after.Diagnosis!.map((d) => d.axis)).toEqual([
    ...['start_state', 'action', 'observation', 'transition', 'task_understanding', 'none'],
    ...['start_state', 'action', 'observation', 'transition', 'task_understanding'],
    ...['none', 'none'],
  ]);
  expect(byId(after.Diagnosis!, 'dg-d')?.report).toEqual({ stats: 1, legacyAxis: 'mystery' });
  expect(byId(after.SkillBank!, 'bank-legacy')).toMatchObject({
    source: 'manual',
    config: { from: 'old', legacySource: 'imported' },
  });
  expect(byId(after.Skill!, 'sk-5')?.category).toBe('general');
  expect(after.SkillEdit!.at(-1)).toMatchObject({
    op: 'update',
    reason: '[legacy op rename] renamed',
  });
  return { before, after };
}

/** The app's reads on the migrated rows (`after`: what the tables held right after the migration). */
async function appReads(handle: DbHandle, after: Snapshot) {
  const db = handle.db;
  const counts = await rowCounts(db);
  for (const [table, n] of Object.entries(counts)) {
    expect(n, table).toBe(after[table]?.length ?? 0);
  }

  const summary = await getRunSummary(db, 'run-opts');
  expect(summary.rewardParams).toEqual({ lambdaEff: 0.5, update: 3 });
  expect(summary.policyOptions).toEqual({ skillBankId: 'bank-manual', tags: ['open', 'look'] });
  expect(summary.invalidLoopLimit).toBe(7);
  expect(summary.metrics.failureDistribution).toEqual({
    step_budget_exhausted: 1,
    gave_up: 1,
    wrong_final_state: 1,
    invalid_action_loop: 1,
    unknown: 1,
  });
  expect(summary.counts).toEqual({ queued: 1, running: 0, done: 6 });
  const plain = await getRunSummary(db, 'run-plain');
  expect(plain).toMatchObject({ rewardParams: {}, policyOptions: null, invalidLoopLimit: null });
  await expect(getRunSummary(db, 'run-odd')).rejects.toBeInstanceOf(CorruptRowError);

  const settings = await loadRunSettings(db, PASS_THROUGH_OPTIONS, 'run-opts');
  expect(settings).toMatchObject({
    rewardParams: { lambdaEff: 0.5, update: 3 },
    invalidLoopLimit: 7,
    policyOptions: { skillBankId: 'bank-manual', tags: ['open', 'look'] },
  });
  expect(episodeInput(settings, { taskId: 'reach-3', seed: 0 })).toMatchObject({
    rewardParams: { lambdaEff: 0.5, update: 3 },
    invalidLoopLimit: 7,
    policyOptions: { skillBankId: 'bank-manual', tags: ['open', 'look'] },
  });
  const plainSettings = await loadRunSettings(db, PASS_THROUGH_OPTIONS, 'run-plain');
  expect(plainSettings.invalidLoopLimit).toBeNull();
  expect(plainSettings.policyOptions).toBeUndefined();

  const bank = await getBank(db, 'bank-manual');
  expect(bank.bank.source).toBe('manual');
  expect(bank.skills.map((s) => [s.id, s.category])).toEqual([
    ['sk-1', 'general'],
    ['sk-5', 'general'],
    ['sk-2', 'task'],
    ['sk-3', 'mistake'],
    ['sk-4', 'prior'],
  ]);
  expect(bank.edits.map((e) => e.op)).toEqual(['add', 'update', 'merge', 'delete', 'update']);
  expect((await getBank(db, 'bank-legacy')).bank).toMatchObject({
    source: 'manual',
    config: { from: 'old', legacySource: 'imported' },
  });

  const events = await new RunEvents(db).list('run-opts');
  expect(events.map((e) => e.type)).toEqual([
    'run_started',
    'episode_started',
    'episode_ended',
    'episode_ended',
    'episode_ended',
    'run_progress',
    'run_completed',
  ]);
  const endings = events.flatMap((e) => (e.type === 'episode_ended' ? [e.payload] : []));
  expect(endings.map((p) => p.failureCategory)).toEqual([null, 'step_budget_exhausted', null]);

  const rigs = await db.rig.findMany({
    orderBy: { id: 'asc' },
    include: { diagnoses: { orderBy: { round: 'asc' } } },
  });
  expect(rigs.map((r) => r.designer)).toEqual(['heuristic', 'llm', 'heuristic']);
  expect(rigs.map((r) => r.diagnoses.map((d) => d.axis))).toEqual([
    ['start_state', 'action', 'observation', 'transition', 'task_understanding', 'none'],
    ['start_state', 'action', 'observation', 'transition', 'task_understanding'],
    ['none', 'none'],
  ]);

  // The columns take only their sets now.
  await expect(
    db.$executeRawUnsafe(`UPDATE "Skill" SET "category" = 'tactic' WHERE "id" = 'sk-1'`),
  ).rejects.toThrow(/invalid input value for enum/);
}

describe('the typed_columns migration', { timeout: 180_000 }, () => {
  it('carries every row of a PGlite database over, and the app reads them', async () => {
    const before = migrationsUpTo({ through: false });
    const dir = path.join(tmpDir(), 'pglite');
    const { db: pglite } = await freshPGlite(
      {
        key: migrationsFingerprint(before),
        prepare: async (db) => {
          await applyMigrations({ factory: new PGliteMigrationFactory(db), migrationsDir: before });
        },
      },
      dir,
    );
    let instance: PGlite | undefined = pglite;
    let after: Snapshot;
    try {
      const sql: Sql = {
        exec: async (script) => {
          await pglite.exec(script);
        },
        rows: async (query) => (await pglite.query<Row>(query)).rows,
      };
      ({ after } = await migrateFilled(sql, (migrationsDir) =>
        applyMigrations({ factory: new PGliteMigrationFactory(pglite), migrationsDir }),
      ));
      await pglite.close();
      instance = undefined;
    } finally {
      if (instance && !instance.closed) await instance.close();
    }
    // Reopened the way the server opens its folder.
    const handle = await openDb({ kind: 'pglite', dir });
    try {
      expect(handle.applied.filter((n) => n <= NEW)).toEqual([]);
      await appReads(handle, after);
    } finally {
      await handle.close();
    }
  });

  it('carries every row of a PostgreSQL database over, and the app reads them', async () => {
    const name = `envharness_test_typed_${process.pid}_${Date.now()}`;
    const admin = async (statement: string) => {
      const c = new pg.Client({ connectionString: TEST_PG_ADMIN_URL });
      await c.connect();
      try {
        await c.query(statement);
      } finally {
        await c.end();
      }
    };
    await admin(`CREATE DATABASE "${name}"`);
    const url = new URL(TEST_PG_ADMIN_URL);
    url.pathname = `/${name}`;
    const client = new pg.Client({ connectionString: url.toString() });
    let handle: DbHandle | undefined;
    try {
      await applyMigrations({
        factory: new PgMigrationFactory(url.toString()),
        migrationsDir: migrationsUpTo({ through: false }),
      });
      await client.connect();
      const sql: Sql = {
        exec: async (script) => {
          await client.query(script);
        },
        rows: async (query) => (await client.query<Row>(query)).rows,
      };
      const { after } = await migrateFilled(sql, (migrationsDir) =>
        applyMigrations({ factory: new PgMigrationFactory(url.toString()), migrationsDir }),
      );
      await client.end();
      handle = await openDb({ kind: 'postgres', url: url.toString() });
      await appReads(handle, after);
    } finally {
      await client.end().catch(() => {});
      await handle?.close();
      await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    }
  });
});
