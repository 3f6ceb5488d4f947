// Fixture for restart-scaleout.hardening.test.ts: a stand-in studio process in scale-out mode
// (PostgreSQL + Redis) that launches a BullMQ run, reports its id, and idles until SIGKILLed.
// The episodes are executed by separate `harness worker` processes.

import { builtInBridges } from '../../bridges/index.ts';
import { openDb } from '../db/index.ts';
import { defaultEngine } from '../rollouts/default-engine.ts';
import { testRollouts } from '../rollouts/testing.ts';

const [url, redisUrl, queueName, specJson, episodes] = process.argv.slice(2);
if (!url || !redisUrl || !queueName || !specJson || !episodes) {
  throw new Error(
    'usage: restart-scaleout-child.fixture.ts <postgres-url> <redis-url> <queue> <spec-json> <episodes>',
  );
}
const handle = await openDb({ kind: 'postgres', url });
const rollouts = testRollouts(handle, defaultEngine(builtInBridges), { redisUrl, queueName });
const { runId } = await rollouts.launchRun({
  spec: JSON.parse(specJson),
  policy: 'scripted:household-explorer',
  k: Number(episodes),
  seed: 300,
  queue: 'bullmq',
});
process.stdout.write(`run ${runId}\n`);
setInterval(() => {}, 1000);
