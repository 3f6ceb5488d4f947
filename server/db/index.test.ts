import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { composeServices } from '../compose.ts';
import { config } from '../config.ts';
import { configuredTarget, DatabaseInUseError, openDb } from './index.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'envharness-data-'));
afterAll(async () => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the configured database (embedded default)', () => {
  it('opens PGlite under DATA_DIR, migrated, once per composition, and keeps data across restarts', async () => {
    const cfg = { ...config(), DATA_DIR: dataDir, DATABASE_URL: undefined };
    expect(configuredTarget(cfg)).toEqual({ kind: 'pglite', dir: path.join(dataDir, 'pglite') });

    const services = await composeServices({ config: cfg });
    const a = services.db;
    const h = await a.harness.create({ data: { name: 'kept', bridge: 'toy24' } });
    expect(existsSync(path.join(dataDir, 'pglite', 'PG_VERSION'))).toBe(true);
    expect(readFileSync(path.join(dataDir, 'pglite.lock'), 'utf8')).toBe(String(process.pid));

    // A second opener of the same folder is refused while it is open (PGlite is single-process).
    await expect(openDb({ kind: 'pglite', dir: path.join(dataDir, 'pglite') })).rejects.toThrow(
      DatabaseInUseError,
    );

    // So is a second composition in the same process.
    await expect(composeServices({ config: cfg })).rejects.toThrow(DatabaseInUseError);

    await services.close();
    expect(existsSync(path.join(dataDir, 'pglite.lock'))).toBe(false);
    const again = await openDb({ kind: 'pglite', dir: path.join(dataDir, 'pglite') });
    expect(again.applied).toEqual([]);
    await again.close();
    const reopened = await composeServices({ config: cfg });
    expect(reopened.db).not.toBe(a);
    expect((await reopened.db.harness.findUniqueOrThrow({ where: { id: h.id } })).name).toBe(
      'kept',
    );
    await reopened.close();
  });

  it('takes over the lock a dead process left behind, but not one a live process holds', async () => {
    const dir = path.join(dataDir, 'other');
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      mkdirSync(dir, { recursive: true });
      writeFileSync(`${dir}.lock`, String(child.pid));
      await expect(openDb({ kind: 'pglite', dir })).rejects.toThrow(
        new RegExp(`open in process ${child.pid}`),
      );
    } finally {
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
    }
    const handle = await openDb({ kind: 'pglite', dir });
    expect(await handle.db.run.count()).toBe(0);
    await handle.close();
    expect(existsSync(`${dir}.lock`)).toBe(false);
  });

  it('keeps committed rows when the process holding the folder is killed (SIGKILL)', async () => {
    const dir = path.join(dataDir, 'crashed');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(here, 'crash-child.fixture.ts'), dir, '5'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = new Promise((r) => child.once('exit', r));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (b: Buffer) => {
        if (b.toString().includes('committed')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`child exited early (${code})`)));
    });
    child.kill('SIGKILL');
    await exited;
    const handle = await openDb({ kind: 'pglite', dir });
    try {
      const names = (await handle.db.harness.findMany({ orderBy: { name: 'asc' } })).map(
        (h) => h.name,
      );
      expect(names).toEqual([0, 1, 2, 3, 4].map((i) => `committed ${i}`));
    } finally {
      await handle.close();
    }
  });

  it('refuses a folder that holds something other than a PGlite database', async () => {
    const dir = path.join(dataDir, 'not-a-db');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'notes.txt'), 'mine');
    await expect(openDb({ kind: 'pglite', dir })).rejects.toThrow(/not empty/);
    expect(readFileSync(path.join(dir, 'notes.txt'), 'utf8')).toBe('mine');
  });

  it('uses PostgreSQL when DATABASE_URL is set', () => {
    const cfg = { ...config(), DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/x' };
    expect(configuredTarget(cfg)).toEqual({
      kind: 'postgres',
      url: 'postgresql://postgres@127.0.0.1:5432/x',
    });
  });
});
