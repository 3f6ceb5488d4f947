// The batch statement runs on PGlite bound over the extended protocol (db/pglite-bound.ts), planned
// once per instance.
import { describe, expect, it } from 'vitest';
import { openDb, pgliteOf } from '../db/index.ts';
import { recordBatchSql, runBatch } from './recorder-sql.ts';

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
