// Property: for random scripted runs (bridge, policy, task, seeds and step budget drawn from a fixed
// seed, so a failure replays), the heuristic designer's diagnosis passes the checker as written,
// and every diagnosis stored — as written, or with a wrong quote, a false negative claim and an
// unbacked "never" sentence slipped in — reads back from the database passing the checker, the
// slipped-in items recorded as removed.
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../bridges/core/rng.ts';
import { listPolicies } from '../policies/index.ts';
import { checkDiagnosis, gateDiagnosis, stepTexts } from './diagnosis-check.ts';
import { createRig } from './loop.ts';
import { loadProgress, recordDiagnosis } from './records.ts';
import { diagnoseBaseline } from './testing/baseline.ts';
import { withRigServices } from './testing/setup.ts';
import type { Batch, DiagnosisReport } from './types.ts';

const env = withRigServices();
const deps = () => env().services.rigDeps();

const SEED = 1312;
const DRAWS = 8;

interface Draw {
  bridge: 'household' | 'toy24';
  policy: string;
  task: string;
  seeds: number[];
  maxSteps: number;
}

async function draws(): Promise<Draw[]> {
  const rng = mulberry32(SEED);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)] as T;
  const out: Draw[] = [];
  for (let i = 0; i < DRAWS; i++) {
    const bridge = rng() < 0.7 ? 'household' : 'toy24';
    const b = await deps().bridges.get(bridge);
    const tasks = (await b?.listTasks()) ?? [];
    const policies = listPolicies(bridge).filter(
      (p) => p.kind === 'scripted' && p.bridge === bridge,
    );
    const first = Math.floor(rng() * 1000);
    out.push({
      bridge,
      policy: pick(policies).id,
      task: pick(tasks).id,
      seeds: Array.from({ length: 2 + Math.floor(rng() * 2) }, (_, k) => first + k),
      maxSteps: pick([15, 30, 50]),
    });
  }
  return out;
}

/** A wrong quote, a false "never typed" claim and an unbacked "never" sentence, where the run allows. */
function corrupt(d: DiagnosisReport, batch: Batch): { d: DiagnosisReport; slipped: number } {
  const e = batch.episodes.find((x) => x.trajectory.length > 0);
  if (!e) return { d, slipped: 0 };
  const s = e.trajectory[0];
  if (!s) return { d, slipped: 0 };
  const typed = stepTexts(s).action;
  const word = /[a-z]+/i.exec(typed)?.[0] ?? 'x';
  const phrase = `never typed \`${word}\``;
  return {
    slipped: 3,
    d: {
      ...d,
      description: `${d.description} In every episode the agent ${phrase}. It never looked back.`,
      evidence: [
        ...d.evidence,
        { episodeId: e.episodeId, step: s.index, quote: `${typed} (not in the step)` },
      ],
      claims: [
        ...(d.claims ?? []),
        { kind: 'absent', in: 'action', text: word, episodeIds: [e.episodeId], phrase },
      ],
    },
  };
}

async function storeAndReadBack(draw: Draw, d: DiagnosisReport, batch: Batch) {
  const { rigId } = await createRig(deps(), {
    task: `${draw.bridge}:${draw.task}`,
    policy: draw.policy,
  });
  await recordDiagnosis(deps().db, rigId, 0, gateDiagnosis(d, batch.episodes), {});
  const stored = (await loadProgress(deps().db, rigId)).diagnoses.get(0)?.report;
  if (!stored) throw new Error('no stored diagnosis');
  return stored;
}

describe('every stored diagnosis passes the checker', { timeout: 180_000 }, () => {
  it(`on ${DRAWS} random scripted runs (seed ${SEED})`, async () => {
    for (const draw of await draws()) {
      const where = JSON.stringify(draw);
      const { batch, diagnosis } = await diagnoseBaseline(deps(), {
        task: `${draw.bridge}:${draw.task}`,
        policy: draw.policy,
        seeds: draw.seeds,
        maxSteps: draw.maxSteps,
      });
      expect(checkDiagnosis(diagnosis, batch.episodes), where).toEqual([]);

      const stored = await storeAndReadBack(draw, diagnosis, batch);
      expect(checkDiagnosis(stored, batch.episodes), where).toEqual([]);
      expect(stored.check?.removed, where).toEqual([]);
      expect(stored.description, where).toBe(diagnosis.description);

      const bad = corrupt(diagnosis, batch);
      const storedBad = await storeAndReadBack(draw, bad.d, batch);
      expect(checkDiagnosis(storedBad, batch.episodes), where).toEqual([]);
      expect(storedBad.check?.removed.length, where).toBeGreaterThanOrEqual(bad.slipped);
      expect(storedBad.description, where).not.toMatch(/never looked back/);
    }
  });
});
