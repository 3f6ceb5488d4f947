// Statements bound over PGlite's extended protocol: every value reaches the statement as the same
// bind parameter would, the statements of one call commit or fail together, and a call waits for a
// transaction another caller holds open.
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { runBound, textParam } from './pglite-bound.ts';

const lite = new PGlite();
afterAll(() => lite.close());

const strings = [
  '',
  "it's",
  'a $r$ tag, $$ and "quotes" inside',
  'back\\slash \\n and a {brace}, a comma',
  'NULL',
  'unicode é 漢字 🙂',
  JSON.stringify({ q: "'", d: '"', nested: ['\\', '{}'] }),
];

describe('runBound', () => {
  it('reads back every string as it was, alone and in a text array', async () => {
    for (const s of strings) {
      const rows = await runBound(lite, [{ text: 'SELECT $1::text AS v', values: [s] }]);
      expect(rows).toEqual([{ v: s }]);
    }
    const arr = await runBound(lite, [
      {
        text: 'SELECT $1::text[] = $2::text[] AS same, cardinality($1::text[]) AS n',
        values: [strings, strings],
      },
    ]);
    expect(arr).toEqual([{ same: 't', n: String(strings.length) }]);
    const back = await lite.query<{ v: string[] }>('SELECT $1::text[] AS v', [
      (await runBound(lite, [{ text: 'SELECT $1::text[]::text AS v', values: [strings] }]))?.[0]?.v,
    ]);
    expect(back.rows[0]?.v).toEqual(strings);
    const empty = await runBound(lite, [
      { text: 'SELECT cardinality($1::text[]) AS n', values: [[]] },
    ]);
    expect(empty).toEqual([{ n: '0' }]);
  });

  it('gives numbers, booleans and null; refuses what a parameter cannot carry, sending nothing', async () => {
    const rows = await runBound(lite, [
      {
        text: 'SELECT $1::float8 AS a, $2::boolean AS b, $3::text AS c',
        values: [-2.5, true, null],
      },
    ]);
    expect(rows).toEqual([{ a: '-2.5', b: 't', c: null }]);
    for (const bad of [Number.NaN, 'nul \0 inside', { a: 1 }, [1, 2], ['a\0']]) {
      expect(textParam(bad)).toBeUndefined();
    }
    await lite.exec('CREATE TABLE IF NOT EXISTS refused (v text)');
    expect(
      await runBound(lite, [
        { text: 'INSERT INTO refused VALUES ($1)', values: ['kept out'] },
        { text: 'SELECT $1::text AS v', values: [{ a: 1 }] },
      ]),
    ).toBeUndefined();
    expect((await lite.query('SELECT * FROM refused')).rows).toEqual([]);
  });

  it('runs the statements of a call as one transaction: a failure keeps none of them', async () => {
    await lite.exec('CREATE TABLE IF NOT EXISTS atomic (v int)');
    await expect(
      runBound(lite, [
        { text: 'INSERT INTO atomic VALUES ($1)', values: [1] },
        { text: 'SELECT 1 / $1::int AS v', values: [0] },
      ]),
    ).rejects.toMatchObject({ code: '22012' });
    expect((await lite.query('SELECT * FROM atomic')).rows).toEqual([]);
    // The connection is usable at once, and a success keeps both.
    await runBound(lite, [
      { text: 'INSERT INTO atomic VALUES ($1)', values: [2] },
      { text: 'SELECT count(*)::int AS n FROM atomic', values: [] },
    ]);
    expect((await lite.query('SELECT v FROM atomic')).rows).toEqual([{ v: 2 }]);
  });

  it('waits for a transaction another caller holds open instead of running inside it', async () => {
    await lite.exec('CREATE TABLE IF NOT EXISTS waits (v int)');
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const held = lite
      .transaction(async (tx) => {
        await tx.query('INSERT INTO waits VALUES (1)');
        await gate;
        await tx.rollback();
      })
      .catch(() => undefined);
    await new Promise((r) => setTimeout(r, 10));
    const counted = runBound(lite, [{ text: 'SELECT count(*)::int AS n FROM waits', values: [] }]);
    await new Promise((r) => setTimeout(r, 10));
    release();
    await held;
    // Had it run inside the open transaction it would have counted the uncommitted row.
    expect(await counted).toEqual([{ n: '0' }]);
  });

  it('parses a prepared statement once, and again after it was deallocated', async () => {
    const prepared = async () =>
      (await lite.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_prepared_statements'))
        .rows[0]?.n;
    const before = await prepared();
    const st = { text: 'SELECT $1::int + 1 AS v', values: [41], prepare: true };
    expect(await runBound(lite, [st])).toEqual([{ v: '42' }]);
    expect(await runBound(lite, [st])).toEqual([{ v: '42' }]);
    expect(await prepared()).toBe((before ?? 0) + 1);
    await lite.exec('DEALLOCATE ALL');
    await expect(runBound(lite, [st])).rejects.toMatchObject({ code: '26000' });
    expect(await runBound(lite, [st])).toEqual([{ v: '42' }]);
    expect(await prepared()).toBe(1);
  });
});
