// The lint gate before Validate: a candidate no known winning sequence survives is refuted without
// launching its rollouts; the skip and the finding are the iteration's feedback, which Write sees.
// With the gate off (`lint: false`, the loop as it was) the same candidate spends its K rollouts.
import { describe, expect, it } from 'vitest';
import type { HarnessSpec } from '../harness/spec.ts';
import { HeuristicDesigner } from './designers/heuristic/index.ts';
import { runRig } from './loop.ts';
import { rigRunId } from './observe.ts';
import { withRigServices } from './testing/setup.ts';
import type { Attempt, CandidateDraft, DesignContext, Designer, DiagnosisReport } from './types.ts';

const env = withRigServices();

const BLOCK_TAKE = `export function filterAction(action) {
  if (/^take /.test(String(action.args.command ?? ''))) return { blocked: 'Nothing happens.' };
  return action;
}`;

/** First proposes a Contract that blocks `take` (unsolvable), then hands over to the heuristic. */
class OverEagerDesigner implements Designer {
  readonly name = 'over-eager';
  readonly seen: Attempt[] = [];
  private readonly inner = new HeuristicDesigner();
  diagnose(ctx: DesignContext): Promise<DiagnosisReport> {
    return this.inner.diagnose(ctx);
  }
  async write(ctx: DesignContext): Promise<CandidateDraft | undefined> {
    this.seen.push(...ctx.attempts.slice(this.seen.length));
    if (ctx.attempts.length === 0) {
      const spec: HarnessSpec = {
        version: 1,
        env: { type: 'contract', code: BLOCK_TAKE, env: ctx.baseSpec.env },
      };
      return { spec, rationale: 'forbid taking anything' };
    }
    return this.inner.write({ ...ctx, attempts: ctx.attempts.slice(1) });
  }
}

const input = {
  task: 'household:eval_seen-004',
  policy: 'scripted:household-no-transform',
  k: 2,
  maxIterations: 2,
};

describe('EnvRigger lint gate', { timeout: 120_000 }, () => {
  it('skips a refuted candidate without launching rollouts and feeds the finding to Write', async () => {
    const designer = new OverEagerDesigner();
    const r = await runRig(env().services.rigDeps(), input, { designer });
    const first = r.iterations[0];
    expect(first?.validation).toBeNull();
    expect(first?.decision).toBe('refine');
    expect(first?.feedback).toMatch(
      /^Solvability lint refuted the candidate before Validate, so none of its 2 rollouts were launched\. env \(step \d+\): contract-blocks-verb: blocks "take"/,
    );
    // No validation run exists for it: not launched, not even queued.
    const runs = await env().db.run.findMany({ where: { id: { startsWith: r.rigId } } });
    expect(runs.map((x) => x.id)).not.toContain(rigRunId(r.rigId, 0, 0));
    const row = await env().db.candidate.findFirstOrThrow({
      where: { rigId: r.rigId, iteration: 0 },
    });
    expect(row.validationRunId).toBeNull();
    expect(row.writeError).toBeNull();
    expect(row.stats).toMatchObject({
      lint: {
        solvable: 'refuted',
        skippedRollouts: 2,
        findings: [expect.objectContaining({ rule: 'contract-blocks-verb', path: 'env' })],
      },
    });
    // Write saw the refutation and refined: the next candidate was validated.
    expect(designer.seen[0]?.lint?.findings[0]?.rule).toBe('contract-blocks-verb');
    expect(r.iterations[1]?.validation).not.toBeNull();
  });

  it('with the gate off, the same candidate spends its K rollouts (the loop as before)', async () => {
    const r = await runRig(
      env().services.rigDeps(),
      { ...input, maxIterations: 1, seed: 50, lint: false },
      { designer: new OverEagerDesigner() },
    );
    expect(r.iterations[0]?.validation?.successRate).toBe(0);
    const run = await env().db.run.findUniqueOrThrow({
      where: { id: rigRunId(r.rigId, 0, 0) },
      select: { episodesTotal: true },
    });
    expect(run.episodesTotal).toBe(2);
  });
});
