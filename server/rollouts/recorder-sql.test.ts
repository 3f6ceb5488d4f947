// The batch statement runs on PGlite as EXECUTE of a prepared statement with its values written as
// literals: every value must reach the statement exactly as a bind parameter would.
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { openDb, pgliteOf } from '../db/index.ts';
import { recordBatchSql, runBatch, sqlLiteral } from './recorder-sql.ts';

const lite = new PGlite();
afterAll(() => lite.close());

const strings = [
  '',
  "it's",
  'a $r$ tag, $r0$ and $$ inside',
  'ends with $r',
  'ends with $',
  '$r$',
  'back\\slash \\n',
  'unicode é 漢字 🙂',
  JSON.stringify({ q: "'", d: '$r$', nested: ['$r0$', 'x$r'] }),
];

describe('sqlLiteral', () => {
  it('reads back every string as it was, alone and in a text array', async () => {
    for (const s of strings) {
      const lit = sqlLiteral(s);
      expect(lit).toBeDefined();
      const r = await lite.query<{ v: string }>(`SELECT ${lit}::text AS v`);
      expect(r.rows[0]?.v).toBe(s);
    }
    const arr = await lite.query<{ v: string[] }>(`SELECT ${sqlLiteral(strings)}::text[] AS v`);
    expect(arr.rows[0]?.v).toEqual(strings);
    const empty = await lite.query<{ v: string[] }>(`SELECT ${sqlLiteral([])}::text[] AS v`);
    expect(empty.rows[0]?.v).toEqual([]);
  });

  it('gives numbers, booleans and null; refuses what a literal cannot carry', async () => {
    const r = await lite.query<{ a: number; b: boolean; c: null }>(
      `SELECT ${sqlLiteral(-2.5)}::float8 AS a, ${sqlLiteral(true)}::boolean AS b, ${sqlLiteral(null)}::text AS c`,
    );
    expect(r.rows[0]).toEqual({ a: -2.5, b: true, c: null });
    expect(sqlLiteral(Number.NaN)).toBeUndefined();
    expect(sqlLiteral('nul \0 inside')).toBeUndefined();
    expect(sqlLiteral({ a: 1 })).toBeUndefined();
    expect(sqlLiteral([1, 2])).toBeUndefined();
  });
});

describe('runBatch on PGlite', () => {
  it('prepares the batch statement once, and again when it was deallocated', async () => {
    const h = await openDb({ kind: 'pglite', memory: true });
    try {
      const lite = pgliteOf(h.db);
      if (!lite) throw new Error('not PGlite');
      const batch = () =>
        recordBatchSql({
          syncCommit: 'on',
          workerId: "w'1 $r$",
          runIds: ['no-such-run'],
          claimIds: ['no-such-episode'],
          rows: [],
          steps: [],
        });
      const prepared = async () =>
        (await lite.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_prepared_statements'))
          .rows[0]?.n;
      expect(await runBatch(h.db, [batch()])).toMatchObject({ claimed: [], won: [] });
      expect(await runBatch(h.db, [batch()])).toMatchObject({ claimed: [], won: [] });
      expect(await prepared()).toBe(1);
      await lite.exec('DEALLOCATE ALL');
      expect(await runBatch(h.db, [batch()])).toMatchObject({ claimed: [], won: [] });
      expect(await prepared()).toBe(1);
    } finally {
      await h.close();
    }
  });
});
