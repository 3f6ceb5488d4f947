// The BPE ablation (PAPERS.md §2 "Ablations"): the bare policy vs bpe(policy) with each workspace
// part switched off, per task type, on held-out tasks. Experience is a skill bank extracted (same
// pipeline as the comparison's source (b)) from the bare policy's episodes on training envs.
import { z } from 'zod';
import type { Bridge, BridgeResolver, TaskInfo } from '../../bridges/core/types.ts';
import { InvalidInputError, NotFoundError } from '../errors.ts';
import { runEpisode } from '../rollouts/episode.ts';
import type { EpisodeResult } from '../rollouts/types.ts';
import { proposeEdits, SkillBankState } from './bank.ts';
import { digestEpisode } from './digest.ts';
import { extractSkills } from './extract.ts';
import { sampleTasks, statsByTaskType } from './skilled.ts';

export const AblationInputSchema = z.object({
  bridge: z.string().min(1),
  /** The bare policy (not a bpe id). */
  policy: z.string().min(1),
  trainSplit: z.string().default('train'),
  evalSplit: z.string().default('eval_unseen'),
  trainEnvs: z.number().int().min(0).max(500).default(24),
  evalEnvs: z.number().int().min(0).max(5000).default(0),
  seed: z.number().int().min(0).default(0),
  maxSteps: z.number().int().min(1).max(1000).default(50),
});
export type AblationInput = z.input<typeof AblationInputSchema>;

export interface AblationRow {
  variant: string;
  policy: string;
  n: number;
  successRate: number;
  meanSteps: number;
  metaSteps: number;
  invalidMeta: number;
  perType: Record<string, { n: number; successes: number; rate: number; meanSteps: number }>;
}

export async function runAblation(
  bridges: BridgeResolver,
  raw: AblationInput,
  say: (t: string) => void = () => {},
) {
  const input = AblationInputSchema.parse(raw);
  if (input.policy.startsWith('bpe('))
    throw new InvalidInputError('give the bare policy; the variants wrap it');
  const bridge = await bridges.get(input.bridge);
  if (!bridge) throw new NotFoundError(`unknown bridge '${input.bridge}'`);
  const bank = await experienceBank(bridges, bridge, input, say);
  const evalTasks = sampleTasks(
    await bridge.listTasks({ split: input.evalSplit }),
    input.evalEnvs,
    input.seed,
  );
  const variants: [string, string][] = [
    ['bare', input.policy],
    ['bpe', `bpe(${input.policy})`],
    ['bpe −belief', `bpe(${input.policy},-belief)`],
    ['bpe −progress', `bpe(${input.policy},-progress)`],
    ['bpe −experience', `bpe(${input.policy},-experience)`],
  ];
  const rows: AblationRow[] = [];
  for (const [variant, policyId] of variants) {
    say(`${variant}: ${evalTasks.length} held-out tasks`);
    const results: { task: TaskInfo; r: EpisodeResult }[] = [];
    for (const t of evalTasks) {
      const r = await runEpisode(
        {
          ...episodeCommon(input, t.id),
          policyId,
          ...(policyId.startsWith('bpe(')
            ? { policyOptions: { experience: bank.skills as never } }
            : {}),
        },
        bridges,
      );
      results.push({ task: t, r });
    }
    rows.push(ablationRow(variant, policyId, results));
  }
  return { input, skills: bank.skills.length, rows };
}

type Input = z.output<typeof AblationInputSchema>;

function episodeCommon(input: Input, task: string) {
  return {
    spec: { version: 1 as const, env: { type: 'base' as const, bridge: input.bridge, task } },
    seed: input.seed,
    maxSteps: input.maxSteps,
  };
}

/** Experience: skills extracted (heuristically) from the bare policy's training episodes. */
async function experienceBank(
  bridges: BridgeResolver,
  bridge: Bridge,
  input: Input,
  say: (t: string) => void,
): Promise<SkillBankState> {
  const train = sampleTasks(
    await bridge.listTasks({ split: input.trainSplit }),
    input.trainEnvs,
    input.seed,
  );
  say(`experience: ${train.length} training episodes of ${input.policy}`);
  const digests = [];
  for (const t of train) {
    const r = await runEpisode({ ...episodeCommon(input, t.id), policyId: input.policy }, bridges);
    digests.push(
      digestEpisode({
        id: `train:${t.id}:${input.seed}`,
        bridge: input.bridge,
        taskId: t.id,
        taskType: t.type,
        goal: t.goal,
        success: r.outcome === 'success',
        trajectory: r.trajectory,
        ...(bridge.textTool ? { textTool: bridge.textTool } : {}),
      }),
    );
  }
  const bank = new SkillBankState();
  bank.apply(proposeEdits(bank, await extractSkills('heuristic', digests)));
  return bank;
}

function ablationRow(
  variant: string,
  policy: string,
  results: { task: TaskInfo; r: EpisodeResult }[],
): AblationRow {
  const scored = results.filter((x) => x.r.outcome !== 'error');
  const perType: AblationRow['perType'] = {};
  for (const [type, e] of Object.entries(statsByTaskType(results))) {
    perType[type] = { ...e, rate: e.successes / e.n };
  }
  const meta = scored.flatMap((x) =>
    x.r.trajectory.filter((s) => s.executedAction === null && s.meta),
  );
  const n = Math.max(1, scored.length);
  return {
    variant,
    policy,
    n: scored.length,
    successRate: scored.filter((x) => x.r.outcome === 'success').length / n,
    meanSteps: scored.reduce((s, x) => s + x.r.steps, 0) / n,
    metaSteps: meta.length / n,
    invalidMeta: meta.filter((s) => s.invalid).length,
    perType,
  };
}
