// Handlers for IsolatedPool tests: run one harnessed episode (fake bridges or the registry) from a
// spec, a seed and a scripted action list, inside a worker thread.
import { threadId } from 'node:worker_threads';
import type { Action, Evaluation } from '../../../bridges/core/types.ts';
import { builtInBridges } from '../../../bridges/index.ts';
import { createHarness } from '../harness.ts';
import type { HarnessSpec } from '../spec.ts';
import { fakeBridges } from './fake-bridges.ts';

export interface EpisodeInput {
  spec: HarnessSpec;
  seed: number;
  actions: Action[];
  fake?: boolean;
}

export interface EpisodeOutput {
  evaluation: Evaluation;
  agentSteps: number;
  observations: string[];
}

export const handlers = {
  async episode(input: unknown): Promise<EpisodeOutput> {
    const { spec, seed, actions, fake } = input as EpisodeInput;
    const harness = await createHarness(spec, {
      bridges: fake ? fakeBridges().bridges : builtInBridges,
    });
    try {
      const first = await harness.reset({ seed });
      const observations = [first.observation.text];
      for (const action of actions) {
        const r = await harness.step(action);
        observations.push(r.observation.text);
        if (r.terminated) break;
      }
      return { evaluation: await harness.evaluate(), agentSteps: harness.agentSteps, observations };
    } finally {
      await harness.close();
    }
  },
  async exit(): Promise<never> {
    process.exit(3);
  },
  async echo(input: unknown): Promise<unknown> {
    return input;
  },
  async threadId(): Promise<number> {
    return threadId;
  },
  async sleep(input: unknown): Promise<number> {
    const ms = (input as { ms: number }).ms;
    await new Promise((resolve) => setTimeout(resolve, ms));
    return ms;
  },
  /** A thread stuck outside any hook (no watchdog mark): only terminating it stops it. */
  async spin(): Promise<never> {
    for (;;) {
      // busy
    }
  },
};
