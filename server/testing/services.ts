// Services for tests: the real composition (server/compose.ts) on a throw-away database, with an
// in-process engine unless a test hands in another one. Each test file composes its own; nothing
// global is swapped.
import { createCaller } from '../api/root.ts';
import { createContext } from '../api/trpc.ts';
import { type Caller, LOCAL_CALLER } from '../auth/caller.ts';
import { composeServices, type Services } from '../compose.ts';
import { type Config, config } from '../config.ts';
import type { DbHandle } from '../db/index.ts';
import { inProcessEngine } from '../rollouts/default-engine.ts';
import type { RolloutEngine } from '../rollouts/engine.ts';

export interface TestServiceOptions {
  engine?: RolloutEngine;
  config?: Partial<Config>;
  queueName?: string;
}

export function testServices(db: DbHandle, o: TestServiceOptions = {}): Promise<Services> {
  return composeServices({
    db,
    engine: o.engine ?? inProcessEngine,
    config: { ...config(), ...o.config },
    ...(o.queueName ? { queueName: o.queueName } : {}),
  });
}

/** A tRPC caller on these services, as the local user unless another caller is given. */
export function callerFor(services: Services, auth: Caller = LOCAL_CALLER) {
  return createCaller(createContext(services, auth));
}
