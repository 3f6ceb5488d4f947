// EnvRigger: Observe -> Diagnose -> Write -> Validate, against a black-box policy (PAPERS.md §1).
// A rig is a job: createRig() records it with every setting on its Rig row, executeRig() runs it
// from that row. Every baseline, diagnosis, candidate, validation run and decision is persisted as
// it happens, so the studio follows a rig live — and executeRig() run again after a crash rebuilds
// its progress from those rows: finished work is read back, never repeated or recorded twice.
import { pinTask } from '../../bridges/core/capabilities.ts';
import type { Bridge, BridgeResolver } from '../../bridges/core/types.ts';
import { componentsText } from '../../contracts/rigs.ts';
import { NotFoundError } from '../errors.ts';
import type { HarnessSpec } from '../harness/spec.ts';
import { createDesigner } from './designers/index.ts';
import { RigStoppedError, throwIfStopped } from './observe.ts';
import { loadProgress, type RigProgress } from './records.ts';
import type { RigResult, RoundResult } from './results.ts';
import { runRound } from './round.ts';
import type { RigDeps, RoundEnv } from './round-env.ts';
import {
  designerWhy,
  parseRigInput,
  type RigInput,
  type RigQueueKind,
  type RigSettings,
  settingsOfRow,
  storedSettings,
} from './settings.ts';
import type { Designer } from './types.ts';

export type { IterationResult, RigResult, RoundResult, ValidationSummary } from './results.ts';
export type { RigDeps } from './round-env.ts';
export { type RigInput, RigInputSchema } from './settings.ts';

export interface RigHooks {
  onProgress?: (text: string) => void;
  /** A designer built elsewhere (tests, a configured LLM endpoint). */
  designer?: Designer;
  /** Called once the Rig row exists (runRig: the caller learns the id before the loop ends). */
  onRigCreated?: (rigId: string) => void;
  /** Stops the execution between steps (its job's queue is closing): the rig stays unfinished. */
  signal?: AbortSignal;
}

/**
 * A rig plays one start state of its task (the bridge's pinTask capability; household: one fixed
 * scene), so a Stage written against it replays under every seed.
 */
export function rigTaskId(bridge: Bridge, task: string, scene: number): string {
  return pinTask(bridge, task, scene);
}

type Target = Pick<RoundEnv, 'bridgeName' | 'taskId' | 'task' | 'baseSpec'>;

async function resolveTarget(bridges: BridgeResolver, input: RigSettings): Promise<Target> {
  const sep = input.task.indexOf(':');
  const bridgeName = input.task.slice(0, sep);
  const bridge = await bridges.get(bridgeName);
  if (!bridge) throw new NotFoundError(`unknown bridge '${bridgeName}'`);
  const taskId = rigTaskId(bridge, input.task.slice(sep + 1), input.scene);
  const task = await bridge.getTask(taskId);
  if (!task) throw new NotFoundError(`unknown task '${taskId}' for bridge '${bridgeName}'`);
  const baseSpec: HarnessSpec = {
    version: 1,
    env: { type: 'base', bridge: bridgeName, task: taskId },
  };
  return { bridgeName, taskId, task, baseSpec };
}

/** Records a rig (status queued) after checking its input, bridge and task; nothing runs yet. */
export async function createRig(
  deps: RigDeps,
  raw: RigInput,
  o: { queue?: RigQueueKind } = {},
): Promise<{ rigId: string }> {
  const input = parseRigInput(raw);
  const { bridgeName, taskId } = await resolveTarget(deps.bridges, input);
  const rig = await deps.db.rig.create({
    data: {
      bridge: bridgeName,
      taskId,
      policy: input.policy,
      designer: input.designer,
      k: input.k,
      maxIterations: input.maxIterations,
      rounds: input.rounds,
      constraints: storedSettings(input, o.queue ?? 'local') as object,
      status: 'queued',
      createdBy: input.createdBy ?? null,
      projectId: input.projectId ?? null,
    },
    select: { id: true },
  });
  return { rigId: rig.id };
}

/**
 * Runs (or resumes) a recorded rig to its end: queued/running/failed → running → completed or
 * failed. A completed rig is read back as it is. Stopped through `hooks.signal`, it stays running.
 */
export async function executeRig(
  deps: RigDeps,
  rigId: string,
  hooks: RigHooks = {},
): Promise<RigResult> {
  const started = performance.now();
  const say = hooks.onProgress ?? (() => {});
  const { db } = deps;
  const row = await db.rig.findUnique({ where: { id: rigId } });
  if (!row) throw new NotFoundError(`rig '${rigId}' not found`);
  const finished = row.status === 'completed';
  let designer: Designer | undefined;
  try {
    const input = settingsOfRow(row);
    if (!finished) {
      await db.rig.update({
        where: { id: rigId },
        data: {
          status: 'running',
          startedAt: row.startedAt ?? new Date(),
          finishedAt: null,
          error: null,
        },
      });
    }
    say(
      `rig ${rigId}: ${row.bridge}:${row.taskId} with ${input.policy} (${input.designer} designer${input.designerModel ? ` on ${input.designerModel}` : ''}: ${designerWhy(input)}; components ${componentsText(input.components)})`,
    );
    const target = await resolveTarget(deps.bridges, input);
    const progress = await loadProgress(db, rigId);
    designer =
      hooks.designer ??
      (await createDesigner(input.designer, {
        ...(input.designerModel ? { model: input.designerModel } : {}),
        ...(typeof input.policyOptions?.baseUrl === 'string'
          ? { baseUrl: input.policyOptions.baseUrl }
          : {}),
      }));
    const env = { deps, rigId, input, ...target, designer, progress, say, signal: hooks.signal };
    const rounds = await runRounds(env);
    if (!finished) {
      await db.rig.update({
        where: { id: rigId },
        data: { status: 'completed', finishedAt: new Date() },
      });
    }
    const last = rounds.at(-1) as RoundResult;
    return {
      rigId,
      taskId: target.taskId,
      settings: {
        designer: input.designer,
        ...(input.designerModel ? { designerModel: input.designerModel } : {}),
        designerWhy: designerWhy(input),
        components: [...input.components],
        k: input.k,
        band: input.band,
        maxIterations: input.maxIterations,
        maxSteps: input.maxSteps,
      },
      ...last,
      ...(rounds.length > 1 ? { rounds } : {}),
      durationMs: Math.round(performance.now() - started),
    };
  } catch (e) {
    // Stopped: the rig is not finished, the next start resumes it.
    if (!(e instanceof RigStoppedError)) {
      await db.rig.update({
        where: { id: rigId },
        data: {
          status: 'failed',
          finishedAt: new Date(),
          error: e instanceof Error ? e.message : String(e),
        },
      });
    }
    throw e;
  } finally {
    if (!hooks.designer) await designer?.close?.();
  }
}

type RigEnv = Omit<RoundEnv, 'round' | 'skills' | 'signal'> & {
  progress: RigProgress;
  signal: AbortSignal | undefined;
};

/** The rounds: each after the first plays against the policy carrying what earlier ones taught. */
async function runRounds(env: RigEnv): Promise<RoundResult[]> {
  const { input, say, deps } = env;
  const rounds: RoundResult[] = [];
  const baseSkills = input.policyOptions?.skills;
  let skills = Array.isArray(baseSkills)
    ? baseSkills.filter((s): s is string => typeof s === 'string')
    : [];
  for (let round = 0; round < input.rounds; round++) {
    throwIfStopped(env.signal);
    const { signal, ...rest } = env;
    const result = await runRound({ ...rest, ...(signal ? { signal } : {}), round, skills });
    rounds.push(result);
    if (result.acceptedCandidateId) {
      await deps.db.rig.update({
        where: { id: env.rigId },
        data: { acceptedCandidateId: result.acceptedCandidateId },
      });
    }
    const fresh = result.lessons.filter((l) => !skills.includes(l));
    if (round + 1 < input.rounds) {
      if (fresh.length === 0) {
        say(`round ${round + 1}: the accepted harness taught nothing new; stopping co-evolution`);
        break;
      }
      skills = [...skills, ...fresh];
      say(`round ${round + 2}: the policy now carries ${skills.join(', ')}`);
    }
  }
  return rounds;
}

/** Creates and executes a rig in this process (the CLI, calibration, the skill comparison). */
export async function runRig(
  deps: RigDeps,
  raw: RigInput,
  hooks: RigHooks = {},
): Promise<RigResult> {
  const { rigId } = await createRig(deps, raw, { queue: 'local' });
  hooks.onRigCreated?.(rigId);
  return executeRig(deps, rigId, hooks);
}
