// Work the studio asks of the harness engine that can take long or run user hook code: it runs in
// an IsolatedPool worker thread (studio-pool.ts), never on the server's main thread, so a replay of
// 10,000 steps or a hook stuck in a built-in cannot stall the API or the live streams.
import type { Action, Json, Screenshot } from '../../bridges/core/types.ts';
import { bridgesFromConfig } from '../bridges.ts';
import { config } from '../config.ts';
import { NotFoundError } from '../errors.ts';
import { createHarness, type Harness, parseSpec } from '../harness/index.ts';
import type { StepRecord } from '../harness/types.ts';
import { validationHandlers } from '../harnesses/validate-jobs.ts';
import { lintHandlers } from '../lint/jobs.ts';

// This module runs in the studio pool's worker thread and is that thread's composition root: its
// bridges come from the process's configuration (REMOTE_ENVS).
const bridges = bridgesFromConfig(config());

export interface ReplayStateInput {
  spec: unknown;
  seed: number;
  taskId?: string;
  actions: Action[];
}

export interface ReplayInput {
  spec: unknown;
  seed: number;
  actions: Action[];
  /** Stop at the first step that ends the episode. */
  untilDone?: boolean;
}

export interface PlayStartInput {
  id: string;
  spec: unknown;
  seed: number;
  taskId?: string;
}

/**
 * Try-it sessions live in the worker, beside their hooks: a hook stuck in a built-in gets this thread
 * terminated by the pool's watchdog (the step answers with a harness error and the session ends),
 * while the server's main thread keeps serving.
 */
const playSessions = new Map<string, Harness>();

function playSession(id: string): Harness {
  const harness = playSessions.get(id);
  if (!harness)
    throw new NotFoundError('play session ended (idle, closed or stopped by a hook); start again');
  return harness;
}

export const handlers = {
  // Does the spec run? (server/harnesses/validate.ts drives these jobs.)
  ...validationHandlers(bridges),
  // Can it still be won? Solvability lint and the verifier audit (server/lint).
  ...lintHandlers(bridges),

  async playStart(raw: unknown) {
    const input = raw as PlayStartInput;
    const harness = await createHarness(parseSpec(input.spec), { bridges });
    try {
      const reset = await harness.reset(
        input.taskId ? { seed: input.seed, taskId: input.taskId } : { seed: input.seed },
      );
      playSessions.set(input.id, harness);
      return {
        observation: reset.observation,
        info: reset.info,
        task: harness.task(),
        tools: harness.tools(),
        textTool: harness.textTool() ?? null,
        state: harness.getEnvState() as Json,
      };
    } catch (e) {
      await harness.close();
      throw e;
    }
  },

  async playStep(raw: unknown) {
    const input = raw as { id: string; action: Action };
    const harness = playSession(input.id);
    try {
      const result = await harness.step(input.action);
      const done = result.terminated || result.truncated;
      return {
        record: result.record,
        state: harness.getEnvState() as Json,
        agentSteps: harness.agentSteps,
        done,
        evaluation: done ? await harness.evaluate() : null,
      };
    } catch (e) {
      // A failing hook ends the episode, as it would in a rollout.
      playSessions.delete(input.id);
      await harness.close();
      throw e;
    }
  },

  async playEvaluate(raw: unknown) {
    return playSession((raw as { id: string }).id).evaluate();
  },

  async playClose(raw: unknown): Promise<{ closed: true }> {
    const id = (raw as { id: string }).id;
    const harness = playSessions.get(id);
    playSessions.delete(id);
    await harness?.close();
    return { closed: true };
  },

  /** The state view after replaying `actions` from reset. */
  async replayState(raw: unknown): Promise<{ state: Json }> {
    const input = raw as ReplayStateInput;
    const harness = await createHarness(parseSpec(input.spec), { bridges });
    try {
      await harness.reset(
        input.taskId ? { seed: input.seed, taskId: input.taskId } : { seed: input.seed },
      );
      for (const action of input.actions) await harness.step(action);
      return { state: harness.getEnvState() };
    } finally {
      await harness.close();
    }
  },

  /** The screenshot after replaying `actions` from reset (null where the bridge takes none). */
  async replayScreenshot(raw: unknown): Promise<{ screenshot: Screenshot | null }> {
    const input = raw as ReplayStateInput;
    const harness = await createHarness(parseSpec(input.spec), { bridges });
    try {
      await harness.reset(
        input.taskId ? { seed: input.seed, taskId: input.taskId } : { seed: input.seed },
      );
      for (const action of input.actions) await harness.step(action);
      return { screenshot: (await harness.screenshot?.()) ?? null };
    } finally {
      await harness.close();
    }
  },

  /** Reset, replay, and report every step record plus what may be typed next. */
  async replay(raw: unknown): Promise<{
    records: StepRecord[];
    observation: { text: string; data?: Json };
    admissible: string[];
    textTool: { name: string; arg: string } | null;
  }> {
    const input = raw as ReplayInput;
    const harness = await createHarness(parseSpec(input.spec), { bridges });
    try {
      const reset = await harness.reset({ seed: input.seed });
      let observation = reset.observation;
      let info = reset.info;
      const records: StepRecord[] = [];
      for (const action of input.actions) {
        const r = await harness.step(action);
        records.push(r.record);
        observation = r.observation;
        info = r.info;
        if (input.untilDone && (r.terminated || r.truncated)) break;
      }
      return {
        records,
        observation,
        admissible: Array.isArray(info.admissibleCommands) ? info.admissibleCommands : [],
        textTool: harness.textTool() ?? null,
      };
    } finally {
      await harness.close();
    }
  },
};
