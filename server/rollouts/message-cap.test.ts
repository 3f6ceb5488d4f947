// Stored messages are capped in one place (contracts/text.ts capText): a hook that throws a 5 MB
// Error stores at most 8 KiB per episode and per run event, with a note of the original length.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtInBridges } from '../../bridges/index.ts';
import { MAX_MESSAGE_CHARS } from '../../contracts/text.ts';
import { createTestDb, type TestDb } from '../db/testing.ts';
import { inProcessEngine } from './default-engine.ts';
import { errorMessage } from './recorder.ts';
import type { Rollouts } from './service.ts';
import { testRollouts } from './testing.ts';

let db: TestDb;
let rollouts: Rollouts;

beforeAll(async () => {
  db = await createTestDb('pglite');
  rollouts = testRollouts(db, inProcessEngine(builtInBridges));
});

afterAll(async () => {
  await rollouts.close();
  await db.close();
});

describe('stored error messages', () => {
  it('are cut to the cap with the original length', () => {
    const message = errorMessage({
      outcome: 'error',
      error: { kind: 'policy', name: 'Error', message: 'm'.repeat(5_000_000) },
      steps: 0,
      invalidActions: 0,
      envReward: 0,
      durationMs: 1,
      trajectory: [],
      taskId: 't',
      seed: 0,
    });
    expect(message?.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
    expect(message).toMatch(/\[cut: 5000007 characters in all\]$/);
  });

  it('a hook throwing a 5 MB Error: episodes, events and the episode list stay small', async () => {
    const { runId } = await rollouts.launchRun({
      spec: {
        version: 1,
        env: {
          type: 'contract',
          code: 'export function filterAction(a) { throw new Error("x".repeat(5e6)); }',
          env: { type: 'base', bridge: 'toy24', task: '4-7-8-8' },
        },
      },
      policy: 'scripted:toy24-exact',
      k: 2,
      queue: 'local',
    });
    const summary = await rollouts.waitForRun(runId);
    expect(summary.metrics.errors).toBe(2);
    const page = await rollouts.listEpisodes(runId);
    for (const e of page.items) {
      expect(e.errorKind).toBe('harness');
      expect(e.errorMessage?.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
      expect(e.errorMessage).toMatch(
        /^HarnessCodeError: .*hook filterAction failed: .*x{100} … \[cut: 5000000 characters in all\]/,
      );
    }
    expect(JSON.stringify(page).length).toBeLessThan(4 * MAX_MESSAGE_CHARS);
    const events = await rollouts.listRunEvents(runId);
    const ended = events.filter((e) => e.type === 'episode_ended');
    expect(ended).toHaveLength(2);
    for (const e of ended) expect(JSON.stringify(e).length).toBeLessThan(2 * MAX_MESSAGE_CHARS);
  }, 60_000);
});
