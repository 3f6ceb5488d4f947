// Skill-bank services the CLI and the API share: build a bank from a recorded run (extraction +
// consolidation of the episodes' queued notes), read banks and comparisons.
import type { BridgeResolver } from '../../bridges/core/types.ts';
import { firstBase } from '../../contracts/spec.ts';
import type { Db } from '../db/index.ts';
import { NotFoundError } from '../errors.ts';
import { exportRun, getRunSummary } from '../rollouts/reads.ts';
import { proposeEdits, SkillBankState } from './bank.ts';
import { digestEpisode, recalledIds } from './digest.ts';
import { type ExtractorName, extractSkills } from './extract.ts';
import { consolidateWithLlm, type LlmSettings } from './llm.ts';
import { applyEditsToBank, getBank, saveBank } from './store.ts';
import type { EpisodeDigest } from './types.ts';

export { getBank, getComparison, listBanks, listComparisons } from './store.ts';

/** What building a bank from a run needs: the database, and the bridges its episodes played. */
export interface SkillStore {
  db: Db;
  bridges: BridgeResolver;
}

async function digestsOfRun(
  { db, bridges }: SkillStore,
  runId: string,
): Promise<{ digests: EpisodeDigest[]; uses: string[] }> {
  const run = await getRunSummary(db, runId);
  const base = firstBase(run.spec.env);
  const bridge = await bridges.get(base.bridge);
  if (!bridge) throw new NotFoundError(`unknown bridge '${base.bridge}'`);
  const digests: EpisodeDigest[] = [];
  const uses: string[] = [];
  for await (const e of exportRun(db, runId)) {
    if (e.outcome === 'error' || e.outcome === null) continue;
    const task = await bridge.getTask(e.taskId);
    digests.push(
      digestEpisode({
        id: e.id,
        bridge: base.bridge,
        taskId: e.taskId,
        taskType: task?.type ?? 'unknown',
        goal: task?.goal ?? '',
        success: e.outcome === 'success',
        failureCategory: e.failureCategory,
        trajectory: e.trajectory,
        ...(bridge.textTool ? { textTool: bridge.textTool } : {}),
      }),
    );
    uses.push(...recalledIds(e.trajectory));
  }
  return { digests, uses };
}

/**
 * Consolidation between batches: the run's episodes (new evidence, queued notes, recall counts)
 * turn into validated edits of an existing bank — with the llm extractor the model also proposes the
 * edits, and the bank rejects what breaks its rules.
 */
export async function consolidateBankFromRun(
  store: SkillStore,
  o: {
    bankId: string;
    runId: string;
    extractor?: ExtractorName;
    llm?: LlmSettings;
  },
): Promise<{ applied: number; rejected: { reason: string }[]; skills: number }> {
  const { db } = store;
  const stored = await getBank(db, o.bankId);
  const bank = new SkillBankState(stored.skills);
  const { digests, uses } = await digestsOfRun(store, o.runId);
  const notes = digests.flatMap((d) => d.notes);
  const drafts = await extractSkills(o.extractor ?? 'heuristic', digests, o.llm);
  let edits: unknown[] = proposeEdits(bank, drafts, o.extractor === 'llm' ? [] : notes);
  if (o.extractor === 'llm') {
    edits = [...edits, ...(await consolidateWithLlm(bank.skills, notes, o.llm))];
  }
  const result = bank.apply(edits);
  const counts = new Map<string, number>();
  for (const id of uses) counts.set(id, (counts.get(id) ?? 0) + 1);
  await applyEditsToBank(db, o.bankId, bank, result.applied, counts);
  return {
    applied: result.applied.length,
    rejected: result.rejected.map((r) => ({ reason: r.reason })),
    skills: bank.skills.length,
  };
}

export async function extractBankFromRun(
  store: SkillStore,
  o: {
    runId: string;
    extractor?: ExtractorName;
    name?: string;
    llm?: LlmSettings;
  },
): Promise<{ bankId: string; skills: number; edits: number; rejected: number }> {
  const { db } = store;
  const run = await getRunSummary(db, o.runId);
  const base = firstBase(run.spec.env);
  const { digests } = await digestsOfRun(store, o.runId);
  const bank = new SkillBankState();
  const drafts = await extractSkills(o.extractor ?? 'heuristic', digests, o.llm);
  const result = bank.apply(
    proposeEdits(
      bank,
      drafts,
      digests.flatMap((d) => d.notes),
    ),
  );
  const bankId = await saveBank(db, {
    name: o.name ?? `skills from run ${o.runId}`,
    bridge: base.bridge,
    source: 'run',
    config: {
      runId: o.runId,
      policy: run.policy,
      extractor: o.extractor ?? 'heuristic',
      episodes: digests.length,
    },
    bank,
  });
  return {
    bankId,
    skills: bank.skills.length,
    edits: result.applied.length,
    rejected: result.rejected.length,
  };
}
