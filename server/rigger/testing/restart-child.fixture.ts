// Fixture for server/rigger/restart.test.ts: a stand-in studio process on a PostgreSQL database —
// the real composition with its embedded queues — that launches a rig (as rigs.launch does),
// reports its id, and works until it is SIGKILLed. Episodes are slowed (one at a time, each after
// a delay) so that the kill lands mid-rig.

import { builtInBridges } from '../../../bridges/index.ts';
import { composeServices } from '../../compose.ts';
import { config } from '../../config.ts';
import { openDb } from '../../db/index.ts';
import { inProcessEngine } from '../../rollouts/default-engine.ts';
import type { RolloutEngine } from '../../rollouts/engine.ts';

const [url, inputJson, delay] = process.argv.slice(2);
if (!url || !inputJson || !delay) {
  throw new Error('usage: rig-restart-child.fixture.ts <postgres-url> <rig-input-json> <delay-ms>');
}

function slowEngine(delayMs: number): RolloutEngine {
  let queue: Promise<unknown> = Promise.resolve();
  const engine = inProcessEngine(builtInBridges);
  return {
    validate: engine.validate,
    executor(concurrency) {
      const inner = engine.executor(concurrency);
      return {
        run(input) {
          const result = queue.then(async () => {
            await new Promise((r) => setTimeout(r, delayMs));
            return inner.run(input);
          });
          queue = result.catch(() => undefined);
          return result;
        },
        close: () => inner.close(),
      };
    },
  };
}

const handle = await openDb({ kind: 'postgres', url });
const services = await composeServices({
  db: handle,
  engine: slowEngine(Number(delay)),
  // The embedded queues (no Redis): the rig and its runs live in this process.
  config: { ...config(), REDIS_URL: undefined },
});
const { rigId } = await services.rigs.start(JSON.parse(inputJson));
process.stdout.write(`rig ${rigId}\n`);
setInterval(() => {}, 1000);
