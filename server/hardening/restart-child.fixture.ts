// Fixture for restart.hardening.test.ts: a stand-in studio process on a PostgreSQL database that
// launches a run on the counter engine, reports its id, and keeps executing until it is SIGKILLed.
import { openDb } from '../db/index.ts';
import { counterEngine, counterSpec, testRollouts } from '../rollouts/testing.ts';

const [url, episodes] = process.argv.slice(2);
if (!url || !episodes) throw new Error('usage: restart-child.fixture.ts <postgres-url> <episodes>');
const handle = await openDb({ kind: 'postgres', url });
// Slow episodes so the kill lands mid-run: 300 ms each, two at a time (the default concurrency; the
// local queue claims none ahead for episodes that long).
const rollouts = testRollouts(handle, counterEngine({ delayMs: 300 }));
const { runId } = await rollouts.launchRun({
  spec: counterSpec,
  policy: 'test:inc',
  k: Number(episodes),
  maxSteps: 10,
});
process.stdout.write(`run ${runId}\n`);
setInterval(() => {}, 1000);
