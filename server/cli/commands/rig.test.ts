// `harness rig` / `harness calibrate` in-process: the documented JSON shape, progress on stderr,
// flag errors. Rollouts run on the test thread against an in-memory database.
import { describe, expect, it } from 'vitest';
import {
  CALIBRATION_GOAL_IN_BAND,
  CALIBRATION_GOAL_MAX_TEMPLATE,
  templateMix,
} from '../../rigger/calibrate.ts';
import { withRigServices } from '../../rigger/testing/setup.ts';
import { runCli } from '../testing.ts';

const env = withRigServices();

// The command uses the test's services; they outlive the command (no close).
const run = (argv: string[]) => {
  const services = env().services;
  return runCli(argv, { compose: async () => ({ ...services, close: async () => {} }) });
};

describe('harness rig', () => {
  it('prints the rig as JSON and its progress on stderr', { timeout: 120_000 }, async () => {
    const { code, out, err } = await run([
      'rig',
      '--task',
      'household:eval_seen-004',
      '--policy',
      'scripted:household-no-transform',
      '--band',
      '0.4,0.6',
      '--json',
    ]);
    expect(err).toMatch(/observe — 5 baseline rollouts/);
    expect(code).toBe(0);
    const r = JSON.parse(out);
    expect(r).toMatchObject({
      rigId: expect.any(String),
      baseline: {
        successRate: 0,
        failureDistribution: expect.any(Object),
        meanSteps: expect.any(Number),
      },
      diagnosis: {
        axis: 'task_understanding',
        label: 'skips-required-transformation',
        description: expect.any(String),
      },
      accepted: { version: 1 },
    });
    expect(r.diagnosis.evidence[0]).toEqual({
      episodeId: expect.any(String),
      step: expect.any(Number),
      quote: expect.any(String),
    });
    expect(r.diagnosis.check).toEqual({
      evidence: r.diagnosis.evidence.length,
      claims: expect.any(Number),
      removed: [],
    });
    const last = r.iterations.at(-1);
    expect(last).toMatchObject({
      candidate: { spec: { version: 1 }, rationale: expect.any(String) },
      validation: {
        successRate: expect.any(Number),
        interval: [expect.any(Number), expect.any(Number)],
        errors: 0,
      },
      decision: 'accept',
      feedback: expect.any(String),
    });
  });

  it('rejects malformed flags with a usage error', async () => {
    const bad = await run([
      'rig',
      '--task',
      'household:eval_seen-004',
      '--policy',
      'p',
      '--band',
      '0.7,0.2',
    ]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--band must be lo,hi/);
    const designer = await run([
      'rig',
      '--task',
      'household:x',
      '--policy',
      'p',
      '--designer',
      'oracle',
    ]);
    expect(designer.code).toBe(2);
    expect(designer.err).toMatch(/--designer must be one of heuristic, llm/);
  });

  it('calibrate reports the share of tasks in the band before and after', {
    timeout: 120_000,
  }, async () => {
    const { code, out } = await run([
      'calibrate',
      '--bridge',
      'household',
      '--split',
      'eval_seen',
      '--policy',
      'scripted:household-no-transform',
      '--limit',
      '2',
      '--json',
    ]);
    expect(code).toBe(0);
    const r = JSON.parse(out);
    expect(r.tasks).toBe(2);
    expect(r.detail).toHaveLength(2);
    expect(r.before.inBand).toBe(
      r.detail.filter((d: { inBandBefore: boolean }) => d.inBandBefore).length,
    );
    expect(r.after.share).toBeGreaterThanOrEqual(r.before.share);
    // The report names its settings (paper mode by default, the designer and why) and its mix.
    expect(r.settings).toMatchObject({
      components: ['stage', 'contract'],
      designer: 'heuristic',
      designerWhy: expect.stringMatching(/^a scripted policy/),
      k: 5,
      band: [0.4, 0.6],
      maxIterations: 5,
      maxSteps: 50,
    });
    const accepted = r.detail.filter((d: { template: string | null }) => d.template !== null);
    expect(r.mix.accepted).toBe(accepted.length);
    expect(r.mix.templates.reduce((n: number, t: { count: number }) => n + t.count, 0)).toBe(
      accepted.length,
    );
    expect(r.goal).toMatchObject({ inBand: expect.any(Boolean), mix: expect.any(Boolean) });
  });

  it('refuses components it does not know, in one line', async () => {
    const bad = await run([
      'calibrate',
      '--bridge',
      'household',
      '--split',
      'eval_seen',
      '--policy',
      'scripted:household-explorer',
      '--components',
      'stage,teleport',
    ]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/^harness: --components must list some of stage, contract, chain/);
  });
});

describe('the calibration mix', () => {
  it('counts accepted templates and the step caps among them; the goal needs both under 40%', () => {
    const detail = [
      ...Array(3).fill({ template: 'glance' }),
      ...Array(3).fill({ template: 'partial-room' }),
      ...Array(2).fill({ template: 'glance+time-pressure' }),
      { template: 'time-pressure' },
      { template: null },
    ];
    const mix = templateMix(detail);
    expect(mix.accepted).toBe(9);
    expect(mix.templates[0]).toEqual({ template: 'glance', count: 3, share: 3 / 9 });
    expect(mix.stepCap).toEqual({ count: 3, share: 3 / 9 });
    expect(CALIBRATION_GOAL_MAX_TEMPLATE).toBe(0.4);
    expect(CALIBRATION_GOAL_IN_BAND).toBe(0.8);
  });
});
