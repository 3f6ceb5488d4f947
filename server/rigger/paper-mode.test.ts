// Paper mode and the step-cap gate, without rollouts: the designer a rig gets by default, the
// components it may write (Stage and Contract unless Chain is opted in), and the heuristic
// designer's walk over household templates when every candidate comes back too easy — a step cap
// only for an efficiency diagnosis or as the stated last resort.
import { describe, expect, it } from 'vitest';
import { resolverOf } from '../../bridges/core/capabilities.ts';
import { householdBridge } from '../../bridges/household/index.ts';
import type { ComponentName } from '../../contracts/rigs.ts';
import type { HarnessSpec } from '../harness/spec.ts';
import { componentProblem, initialState, tryActions } from './check.ts';
import { HeuristicDesigner } from './designers/heuristic/index.ts';
import { parseRigInput, settingsOfRow, storedSettings } from './settings.ts';
import { batchStats } from './stats.ts';
import type { Attempt, Batch, DesignContext, ObservedEpisode, StoredDiagnosis } from './types.ts';

describe('the designer a rig gets', () => {
  it('is the policy’s own model for openai:<model>, the heuristic one for a scripted policy', () => {
    const llm = parseRigInput({ task: 'household:train-0001', policy: 'openai:qwen3-8b' });
    expect(llm).toMatchObject({
      designer: 'llm',
      designerModel: 'qwen3-8b',
      designerChoice: 'default',
      components: ['stage', 'contract'],
    });
    const scripted = parseRigInput({ task: 'household:train-0001', policy: 'scripted:x' });
    expect(scripted).toMatchObject({ designer: 'heuristic', designerChoice: 'default' });
    expect(scripted.designerModel).toBeUndefined();
    const chosen = parseRigInput({
      task: 'household:train-0001',
      policy: 'openai:qwen3-8b',
      designer: 'heuristic',
      components: ['stage', 'contract', 'chain'],
    });
    expect(chosen).toMatchObject({ designer: 'heuristic', designerChoice: 'chosen' });
  });

  it('is read back from the rig row as launched; rows from before paper mode could write Chain', () => {
    const input = parseRigInput({ task: 'household:train-0001@scene0', policy: 'openai:m' });
    const row = {
      bridge: 'household',
      taskId: 'train-0001@scene0',
      policy: 'openai:m',
      designer: input.designer,
      k: input.k,
      maxIterations: input.maxIterations,
      rounds: input.rounds,
      constraints: storedSettings(input, 'local'),
      createdBy: null,
      projectId: null,
    };
    expect(settingsOfRow(row)).toMatchObject({
      designer: 'llm',
      designerModel: 'm',
      designerChoice: 'default',
      components: ['stage', 'contract'],
    });
    const old = settingsOfRow({ ...row, designer: 'heuristic', constraints: { band: [0.4, 0.6] } });
    expect(old).toMatchObject({
      designerChoice: 'chosen',
      components: ['stage', 'contract', 'chain'],
    });
  });

  it('refuses a Chain candidate in paper mode, worded for the designer', () => {
    const base = { type: 'base' as const, bridge: 'household', task: 'train-0001' };
    const chain: HarnessSpec = {
      version: 1,
      env: { type: 'chain', mode: 'sequential', first: base, second: base },
    };
    expect(componentProblem(chain, ['stage', 'contract'])).toMatch(
      /^the candidate uses chain, which this rig may not write \(components: stage, contract \(paper mode\)\)/,
    );
    expect(componentProblem(chain, ['stage', 'contract', 'chain'])).toBeUndefined();
  });
});

// ─────────────────── the heuristic designer's walk, every validation too easy ───────────────────

const bridges = resolverOf([householdBridge]);
const TASK = 'eval_seen-021@scene0';
const baseSpec: HarnessSpec = {
  version: 1,
  env: { type: 'base', bridge: 'household', task: TASK },
};

function solvedBatch(steps: number[], successes = steps.length): Batch {
  const episodes: ObservedEpisode[] = steps.map((n, i) => ({
    episodeId: `e${i}`,
    seed: i,
    outcome: i < successes ? 'success' : 'failure',
    failureCategory: i < successes ? null : 'gave_up',
    errorMessage: null,
    steps: n,
    trajectory: [],
  }));
  return { runId: 'r', seeds: steps.map((_, i) => i), episodes, stats: batchStats(episodes) };
}

async function context(
  components: ComponentName[],
  diagnosis: StoredDiagnosis,
): Promise<DesignContext> {
  const task = (await householdBridge.getTask(TASK))!;
  return {
    bridge: 'household',
    taskId: TASK,
    task,
    baseSpec,
    tools: householdBridge.tools(),
    stateSchema: householdBridge.stateSchema(),
    constraints: { band: [0.4, 0.6] },
    components,
    maxSteps: 50,
    baseline: solvedBatch([12, 14, 16, 18, 20]),
    diagnosis,
    attempts: [],
    initialState: () => initialState(bridges, baseSpec, TASK, 0),
    tryActions: (actions) => tryActions(bridges, baseSpec, TASK, 0, actions),
    listTasks: (filter) => householdBridge.listTasks(filter),
  };
}

const MASTERED: StoredDiagnosis = {
  axis: 'none',
  label: 'mastered',
  description: 'The policy solved all 5 baseline episodes.',
  evidence: [],
  direction: 'harder',
};

/** Writes until the designer stops, every candidate validated as too easy (5 of 5). */
async function walk(ctx: DesignContext, max = 40): Promise<Attempt[]> {
  const designer = new HeuristicDesigner();
  for (let i = 0; i < max; i++) {
    const draft = await designer.write(ctx);
    if (!draft) break;
    ctx.attempts.push({
      iteration: i,
      candidate: draft,
      validation: solvedBatch([10, 12, 14, 16, 18]),
      decision: 'refine',
      feedback: 'too easy',
    });
  }
  return ctx.attempts;
}

describe('the heuristic designer in paper mode', { timeout: 60_000 }, () => {
  it('tries every template and knob before a step cap, never a Chain, and says why it caps', async () => {
    const attempts = await walk(await context(['stage', 'contract'], MASTERED));
    const templates = attempts.map((a) => a.candidate.template ?? '');
    expect(templates.some((t) => t.includes('chain'))).toBe(false);
    const firstCap = templates.findIndex((t) => t.includes('time-pressure'));
    expect(firstCap).toBeGreaterThan(0);
    // Before the cap: the structural templates, their knobs moved towards harder.
    const before = new Set(templates.slice(0, firstCap));
    expect(before).toEqual(
      new Set(['hide-target', 'glance', 'partial-room', 'slippery-hands', 'truncate-observations']),
    );
    const glance = attempts.filter((a) => a.candidate.template === 'glance');
    expect(glance.length).toBeGreaterThan(2);
    const shown = glance.map((a) => (a.candidate.params as { knob: number }).knob);
    expect(shown).toEqual([...shown].sort((x, y) => y - x));
    // The cap comes last, with its reason.
    expect(templates.slice(firstCap).every((t) => t.includes('time-pressure'))).toBe(true);
    expect(attempts[firstCap]?.candidate.rationale).toMatch(
      /last resort here: no other template landed in the band \(tried: hide-target, /,
    );
  });

  it('with Chain opted in, a chained second task is one of the templates', async () => {
    const attempts = await walk(await context(['stage', 'contract', 'chain'], MASTERED));
    expect(attempts.map((a) => a.candidate.template)).toContain('chain-second-task');
  });

  it('a step cap right away when the diagnosis is about efficiency', async () => {
    const ctx = await context(['stage', 'contract'], {
      ...MASTERED,
      axis: 'start_state',
      label: 'runs-out-of-steps',
    });
    const attempts = await walk(ctx, 2);
    expect(attempts[0]?.candidate.template).toBe('hide-target');
    expect(attempts[1]?.candidate.template).toBe('hide-target+time-pressure');
    expect(attempts[1]?.candidate.rationale).toMatch(/about efficiency/);
  });
});
