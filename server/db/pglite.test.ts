// server/db/pglite.ts: new data folders start as copies of a cached, migrated template folder.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPGlite, PGLITE_START_PARAMS, prewarmPGlite, startOptions } from './pglite.ts';

let tmp: string;
let savedTmpdir: string | undefined;

beforeAll(() => {
  // The template cache lives in the OS temp folder: a folder of this test's own.
  tmp = mkdtempSync(path.join(os.tmpdir(), 'pglite-template-'));
  savedTmpdir = process.env.TMPDIR;
  process.env.TMPDIR = tmp;
});

afterAll(() => {
  if (savedTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmpdir;
  rmSync(tmp, { recursive: true, force: true });
});

const count = async (db: PGlite) =>
  (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM t')).rows[0]?.n;

describe('freshPGlite with a data folder', () => {
  it('prepares the template once, then copies its folder; a copy never writes back', async () => {
    let prepared = 0;
    const template = {
      key: `test-${process.pid}`,
      prepare: async (db: PGlite) => {
        prepared += 1;
        await db.exec('CREATE TABLE t (x int); INSERT INTO t VALUES (1);');
      },
    };
    const first = await freshPGlite(template, path.join(tmp, 'a'));
    expect(first.fromTemplate).toBe(false);
    await first.db.close();
    const cached = readdirSync(tmp).filter((f) => f.startsWith('envharness-pglite-'));
    expect(cached.some((f) => f.endsWith('.tar.gz'))).toBe(true);
    expect(cached.some((f) => f.endsWith('.d'))).toBe(true);

    const second = await freshPGlite(template, path.join(tmp, 'b'));
    expect(second.fromTemplate).toBe(true);
    expect(await count(second.db)).toBe(1);
    await second.db.exec('INSERT INTO t VALUES (2);');
    await second.db.close();

    const third = await freshPGlite(template, path.join(tmp, 'c'));
    expect(third.fromTemplate).toBe(true);
    expect(await count(third.db)).toBe(1);
    await third.db.close();
    expect(prepared).toBe(1);
  }, 120_000);
});

describe('prewarmPGlite', () => {
  it('hands its compiled postgres and file bundle to one start, which runs on them', async () => {
    prewarmPGlite();
    const options = await startOptions();
    expect(options.pgliteWasmModule).toBeInstanceOf(WebAssembly.Module);
    expect(options.fsBundle).toBeDefined();
    const db = new PGlite(path.join(tmp, 'prewarmed'), options);
    expect((await db.query<{ n: number }>('SELECT 41 + 1 AS n')).rows[0]?.n).toBe(42);
    await db.close();
    // Used up: a later start reads its own files.
    expect(await startOptions()).toEqual({ startParams: PGLITE_START_PARAMS });
  }, 120_000);
});
