// The loop's contract with any designer: a candidate whose code does not compile or whose set-up the
// environment rejects goes back to Write with a repairable error; baselines are cached; co-evolution
// carries what an accepted harness taught into the next round's policy.
import { describe, expect, it } from 'vitest';
import type { HarnessSpec } from '../harness/spec.ts';
import { HeuristicDesigner } from './designers/heuristic/index.ts';
import { runRig } from './loop.ts';
import { withRigServices } from './testing/setup.ts';
import type { CandidateDraft, DesignContext, Designer, DiagnosisReport } from './types.ts';

const env = withRigServices();
const db = () => env().db;

/** Writes two broken candidates, then hands over to the heuristic designer. */
class ClumsyDesigner implements Designer {
  readonly name = 'clumsy';
  readonly seen: string[] = [];
  private readonly inner = new HeuristicDesigner();
  diagnose(ctx: DesignContext): Promise<DiagnosisReport> {
    return this.inner.diagnose(ctx);
  }
  async write(ctx: DesignContext): Promise<CandidateDraft | undefined> {
    const last = ctx.attempts.at(-1);
    if (last?.writeError) this.seen.push(last.writeError);
    const base = ctx.baseSpec;
    if (ctx.attempts.length === 0) {
      const spec: HarnessSpec = {
        version: 1,
        env: {
          type: 'contract',
          code: 'export function filterAction(action) {\n  return action +;\n}\n',
          env: base.env,
        },
      };
      return { spec, rationale: 'broken code' };
    }
    if (ctx.attempts.length === 1) {
      const spec: HarnessSpec = {
        version: 1,
        env: {
          type: 'stage',
          actions: [{ name: 'act', args: { command: 'take unicorn 1 from countertop 1' } }],
          env: base.env,
        },
      };
      return { spec, rationale: 'impossible set-up' };
    }
    return this.inner.write({ ...ctx, attempts: ctx.attempts.slice(2) });
  }
}

describe('EnvRigger loop', { timeout: 90_000 }, () => {
  it('sends a non-compiling or rejected candidate back to Write with a repairable error', async () => {
    const designer = new ClumsyDesigner();
    const r = await runRig(
      env().services.rigDeps(),
      {
        task: 'household:eval_seen-004',
        policy: 'scripted:household-explorer',
        maxIterations: 5,
      },
      { designer },
    );
    expect(r.iterations[0]?.writeError).toMatch(/line 2/);
    expect(r.iterations[0]?.validation).toBeNull();
    expect(r.iterations[0]?.decision).toBe('reject');
    expect(r.iterations[1]?.writeError).toMatch(/Stage set-up action #1.*take unicorn 1/s);
    expect(designer.seen).toHaveLength(2);
    expect(designer.seen[0]).toMatch(/Contract code/);
    expect(r.accepted).not.toBeNull();
    const rows = await db().candidate.findMany({
      where: { rigId: r.rigId },
      orderBy: { iteration: 'asc' },
    });
    expect(rows[0]?.writeError).toMatch(/line 2/);
    expect(rows[0]?.validationRunId).toBeNull();
  });

  it('reuses a cached baseline for the same task, policy, K and seeds', async () => {
    const a = await runRig(env().services.rigDeps(), {
      task: 'household:eval_seen-004',
      policy: 'scripted:household-no-transform',
      maxIterations: 1,
    });
    const b = await runRig(env().services.rigDeps(), {
      task: 'household:eval_seen-004',
      policy: 'scripted:household-no-transform',
      maxIterations: 1,
    });
    expect(b.baseline.cached).toBe(true);
    expect(b.baseline.runId).toBe(a.baseline.runId);
    const c = await runRig(env().services.rigDeps(), {
      task: 'household:eval_seen-004',
      policy: 'scripted:household-no-transform',
      maxIterations: 1,
      seed: 100,
    });
    expect(c.baseline.cached).toBe(false);
  });

  it('co-evolves: the next round plays against the policy carrying the accepted harness lessons', async () => {
    const r = await runRig(env().services.rigDeps(), {
      task: 'household:eval_seen-004',
      policy: 'scripted:household-no-transform',
      rounds: 2,
    });
    const [first, second] = r.rounds ?? [];
    expect(first?.diagnosis.label).toBe('skips-required-transformation');
    expect(first?.lessons).toContain('verify-state-before-placing');
    expect(second?.skills).toContain('verify-state-before-placing');
    // With the skill the policy transforms before placing: the baseline of round 2 is no longer 0%.
    expect(second?.baseline.successRate ?? 0).toBeGreaterThan(first?.baseline.successRate ?? 0);
    expect(second?.diagnosis.label).not.toBe('skips-required-transformation');
    const diagnoses = await db().diagnosis.findMany({
      where: { rigId: r.rigId },
      orderBy: { round: 'asc' },
    });
    expect(diagnoses.map((d) => d.round)).toEqual([0, 1]);
  });
});
