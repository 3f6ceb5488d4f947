// The must-show: on household, for each scripted policy with a known weakness, the heuristic
// designer names that weakness from the trajectories alone and its accepted candidate lands in the
// band. Tasks were picked where the baseline is outside the band (scene 0 of eval_seen).
import { describe, expect, it } from 'vitest';
import { runRig } from './loop.ts';
import { inBand } from './stats.ts';
import { withRigServices } from './testing/setup.ts';

const env = withRigServices();
const db = () => env().db;

const CASES = [
  {
    policy: 'scripted:household-no-open',
    task: 'eval_seen-007',
    label: 'never-opens-closed-receptacles',
  },
  { policy: 'scripted:household-looper', task: 'eval_seen-003', label: 'repeats-failed-actions' },
  {
    policy: 'scripted:household-no-transform',
    task: 'eval_seen-004',
    label: 'skips-required-transformation',
  },
] as const;

describe('EnvRigger on household with the heuristic designer', { timeout: 90_000 }, () => {
  for (const c of CASES) {
    it(`${c.policy}: names ${c.label} and moves the success rate into [0.4, 0.6]`, async () => {
      const r = await runRig(env().services.rigDeps(), {
        task: `household:${c.task}`,
        policy: c.policy,
      });
      expect(inBand(r.baseline.successRate ?? 0, [0.4, 0.6])).toBe(false);
      expect(r.diagnosis.label).toBe(c.label);
      expect(r.diagnosis.direction).toBe('scaffold');
      expect(r.accepted).not.toBeNull();
      const accepted = r.iterations.find((x) => x.decision === 'accept');
      expect(accepted?.validation?.successRate).toBeGreaterThanOrEqual(0.4);
      expect(accepted?.validation?.successRate).toBeLessThanOrEqual(0.6);

      // The evidence points at real steps of real baseline episodes.
      expect(r.diagnosis.evidence.length).toBeGreaterThan(0);
      for (const e of r.diagnosis.evidence) {
        const step = await db().step.findFirst({
          where: { episodeId: e.episodeId, index: e.step },
        });
        expect(step).not.toBeNull();
        const ep = await db().episode.findUnique({ where: { id: e.episodeId } });
        expect(ep?.runId).toBe(r.baseline.runId);
      }

      // Everything persisted: rig, diagnosis, each candidate with its validation run and decision.
      const rig = await db().rig.findUniqueOrThrow({
        where: { id: r.rigId },
        include: { diagnoses: true, candidates: { orderBy: { iteration: 'asc' } } },
      });
      expect(rig.status).toBe('completed');
      expect(rig.baselineRunId).toBe(r.baseline.runId);
      expect(rig.acceptedCandidateId).toBe(accepted?.candidateId);
      expect(rig.diagnoses[0]?.label).toBe(c.label);
      expect(rig.candidates.map((x) => x.decision)).toEqual(r.iterations.map((x) => x.decision));
      for (const cand of rig.candidates) {
        expect(cand.validationRunId).not.toBeNull();
        const run = await db().run.findUniqueOrThrow({ where: { id: cand.validationRunId ?? '' } });
        expect(run.kind).toBe('validation');
      }
    });
  }

  it('never accepts a candidate with 0% success (hiding the target from a policy that cannot open)', async () => {
    const r = await runRig(env().services.rigDeps(), {
      task: 'household:eval_seen-022',
      policy: 'scripted:household-no-open',
    });
    expect(r.diagnosis.direction).toBe('harder');
    const zero = r.iterations.filter((x) => x.validation?.successRate === 0);
    expect(zero.length).toBeGreaterThan(0);
    for (const x of zero) expect(x.decision).toBe('reject');
    for (const x of r.iterations.filter((i) => i.decision === 'accept'))
      expect(x.validation?.successRate).toBeGreaterThan(0);
  });
});
