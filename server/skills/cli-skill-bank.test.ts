// `harness rollout --skill-bank ID`: the CLI launches a recorded run whose policy gets the bank.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/testing.ts';
import { type Config, config } from '../config.ts';
import { type Db, openDb } from '../db/index.ts';
import { getRunSummary } from '../rollouts/reads.ts';
import { SkillBankState } from './bank.ts';
import { saveBank } from './store.ts';

let dir: string;
let cfg: Config;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'cli-skill-bank-'));
  cfg = { ...config(), DATA_DIR: dir, REDIS_URL: undefined, DATABASE_URL: undefined };
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The CLI's embedded database, opened between commands (one process holds it at a time). */
async function withDb<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  const handle = await openDb({ kind: 'pglite', dir: path.join(dir, 'pglite') });
  try {
    return await fn(handle.db);
  } finally {
    await handle.close();
  }
}

const cli = (...argv: string[]) => runCli(argv, { config: cfg });

describe('harness rollout --skill-bank', () => {
  it('refuses an unknown bank and records a known one on the run', async () => {
    const base = ['rollout', '--spec', 'household:eval_unseen-001', '--json'];
    const missing = await cli(
      ...base,
      '--policy',
      'bpe(scripted:household-explorer)',
      '--skill-bank',
      'nope',
    );
    expect(missing.code).not.toBe(0);
    expect(missing.err).toMatch(/skill bank 'nope' not found/);

    const bankId = await withDb((db) =>
      saveBank(db, {
        name: 'one prior',
        bridge: 'household',
        source: 'manual',
        config: {},
        bank: new SkillBankState([
          {
            id: 'p',
            category: 'prior',
            taskType: null,
            title: 'Where to find a mug',
            description: '',
            content: 'Search order for mug: countertop > cabinet',
            sourceEpisodeIds: [],
            uses: 0,
          },
        ]),
      }),
    );
    const ok = await cli(
      ...base,
      '--policy',
      'bpe(scripted:household-explorer)',
      '--skill-bank',
      bankId,
    );
    expect(ok.code).toBe(0);
    const { runId } = JSON.parse(ok.out) as { runId: string };
    const run = await withDb((db) => getRunSummary(db, runId));
    expect(run.policyOptions).toMatchObject({ skillBankId: bankId });
    expect(run.episodesDone).toBe(1);
  });
});
