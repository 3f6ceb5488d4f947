// Episode digests: what extractors read of a finished episode (goal, verdict, commands and feedback),
// built alike from a live EpisodeResult and from a stored run.
import type { StepRecord } from '../harness/types.ts';
import type { EpisodeDigest } from './types.ts';

export function commandOf(
  step: Pick<StepRecord, 'action'>,
  textTool?: { name: string; arg: string },
): string {
  const a = step.action;
  if (textTool && a.name === textTool.name) {
    const t = a.args[textTool.arg];
    if (typeof t === 'string') return t.trim().toLowerCase();
  }
  if (a.name === '__invalid__') return `<invalid ${String(a.args.raw ?? '')}>`;
  const arg = a.args.arg;
  if (typeof arg === 'string') return `${a.name}[${arg}]`;
  return `${a.name} ${JSON.stringify(a.args)}`;
}

function notesOf(trajectory: Pick<StepRecord, 'meta'>[]): string[] {
  const out: string[] = [];
  for (const s of trajectory) {
    const bpe = (
      s.meta as
        | { bpe?: { kind?: string; verb?: string; arg?: string; valid?: boolean } }
        | null
        | undefined
    )?.bpe;
    if (bpe?.kind === 'meta' && bpe.verb === 'note' && bpe.valid && typeof bpe.arg === 'string')
      out.push(bpe.arg);
  }
  return out;
}

/** Ids of skills a bpe episode recalled (for usage counts). */
export function recalledIds(trajectory: Pick<StepRecord, 'meta'>[]): string[] {
  const out: string[] = [];
  for (const s of trajectory) {
    const bpe = (s.meta as { bpe?: { kind?: string; retrieved?: unknown } } | null | undefined)
      ?.bpe;
    if (bpe?.kind === 'meta' && Array.isArray(bpe.retrieved))
      for (const id of bpe.retrieved) if (typeof id === 'string') out.push(id);
  }
  return out;
}

export function digestEpisode(e: {
  id: string;
  bridge: string;
  taskId: string;
  taskType: string;
  goal: string;
  success: boolean;
  failureCategory?: string | null;
  trajectory: Pick<StepRecord, 'action' | 'observation' | 'invalid' | 'executedAction' | 'meta'>[];
  textTool?: { name: string; arg: string };
  initialObservation?: string;
}): EpisodeDigest {
  return {
    id: e.id,
    bridge: e.bridge,
    taskId: e.taskId,
    taskType: e.taskType,
    goal: e.goal,
    success: e.success,
    steps: e.trajectory.length,
    ...(e.failureCategory ? { failureCategory: e.failureCategory } : {}),
    steps_: e.trajectory.map((s) => ({
      command: commandOf(s, e.textTool),
      observation: s.observation.text,
      invalid: s.invalid,
      meta:
        s.executedAction === null &&
        (s.meta as { bpe?: { kind?: string } } | null | undefined)?.bpe?.kind === 'meta',
    })),
    initialObservation: e.initialObservation ?? '',
    notes: notesOf(e.trajectory),
  };
}
