import { describe, expect, it } from 'vitest';
import type { HarnessSpec } from '../../contracts/spec.ts';
import {
  candidateChanges,
  candidateEditorHref,
  candidateRate,
  currentStage,
  DEFAULT_RIG_FORM,
  decisionTone,
  designerNote,
  inBand,
  layers,
  RIG_FIELD_RANGE,
  rigLaunchInput,
  rigLaunchProblems,
  setupOf,
  stageState,
  taskShownFor,
} from './model.ts';

const bare: HarnessSpec = {
  version: 1,
  env: { type: 'base', bridge: 'household', task: 'pick-mug-1@scene3' },
};

const staged: HarnessSpec = {
  version: 1,
  env: {
    type: 'contract',
    code: 'export function filterAction(a) { return a; }',
    env: {
      type: 'stage',
      actions: [
        { name: 'act', args: { command: 'go to drawer 1' } },
        { name: 'noop', args: {} },
      ],
      env: bare.env,
    },
  },
};

describe('rig stages', () => {
  it('observes until a diagnosis exists, then writes, then validates a candidate in flight', () => {
    expect(currentStage({ status: 'running', diagnosed: false, last: undefined })).toBe('observe');
    expect(currentStage({ status: 'running', diagnosed: true, last: undefined })).toBe('write');
    const validating = { decision: null, validationRunId: 'run-1' };
    expect(currentStage({ status: 'running', diagnosed: true, last: validating })).toBe('validate');
    const decided = { decision: 'refine', validationRunId: 'run-1' };
    expect(currentStage({ status: 'running', diagnosed: true, last: decided })).toBe('write');
    const writing = { decision: null, validationRunId: null };
    expect(currentStage({ status: 'running', diagnosed: true, last: writing })).toBe('write');
  });

  it('ends on validate whatever the rows say once the rig is final', () => {
    expect(currentStage({ status: 'failed', diagnosed: false, last: undefined })).toBe('validate');
  });

  it('marks the current stage active while running, earlier ones done, later ones pending', () => {
    expect(stageState('observe', 'write', 'running')).toBe('done');
    expect(stageState('write', 'write', 'running')).toBe('active');
    expect(stageState('validate', 'write', 'running')).toBe('pending');
    expect(stageState('validate', 'validate', 'completed')).toBe('done');
  });
});

describe('candidate views', () => {
  it("lists the stack top-down and shows the rig's pinned task by its display id", () => {
    const show = taskShownFor({ taskId: 'pick-mug-1@scene3', displayTaskId: 'pick-mug-1' });
    expect(layers(staged.env, show)).toEqual(['contract', 'stage', 'household:pick-mug-1']);
    expect(layers(bare.env, show)).toEqual(['household:pick-mug-1']);
    // Any other task shows as it is.
    expect(layers(bare.env)).toEqual(['household:pick-mug-1@scene3']);
  });

  it('reads set-up actions by their single argument, or their name without one', () => {
    expect(setupOf(staged.env)).toEqual(['go to drawer 1', 'noop']);
    expect(setupOf(bare.env)).toEqual([]);
  });

  it('counts the band edges as inside, and no rate as outside', () => {
    expect(inBand([0.4, 0.6], 0.4)).toBe(true);
    expect(inBand([0.4, 0.6], 0.6000000001)).toBe(true);
    expect(inBand([0.4, 0.6], 0.61)).toBe(false);
    expect(inBand([0.4, 0.6], null)).toBe(false);
  });

  it('reads the rate only when the stats carry a number', () => {
    expect(candidateRate({ successRate: 0.5 })).toBe(0.5);
    expect(candidateRate({ successRate: '0.5' })).toBeNull();
    expect(candidateRate(null)).toBeNull();
  });

  it('opens an approved candidate on its library version', () => {
    expect(candidateEditorHref('rig1', { id: 'c1', library: null })).toBe(
      '/rigs/rig1/candidates/c1',
    );
    expect(
      candidateEditorHref('rig1', { id: 'c1', library: { harnessId: 'h1', version: 2 } }),
    ).toBe('/harnesses/h1?version=2');
  });

  it('colours decisions: accept green, reject red, anything else amber', () => {
    expect(decisionTone('accept')).toBe('success');
    expect(decisionTone('reject')).toBe('danger');
    expect(decisionTone('refine')).toBe('warning');
  });

  it('diffs a candidate against the previous one, keeping only changed lines', () => {
    expect(candidateChanges(undefined, staged)).toEqual([]);
    const changes = candidateChanges(bare, staged);
    expect(changes.map((c) => c.kind)).toEqual(['type']);
    const edited: HarnessSpec = {
      ...staged,
      env: { ...staged.env, code: 'export function filterAction(a) { return null; }' } as never,
    };
    const code = candidateChanges(staged, edited);
    expect(code).toHaveLength(1);
    expect(code[0]?.field).toBe('code');
    expect(code[0]?.changed.map((l) => l.op)).toEqual(['del', 'add']);
    expect(new Set(code[0]?.changed.map((l) => l.id)).size).toBe(2);
  });
});

describe('rig launch', () => {
  it('sends the band and iterations, and a trimmed defect only when one was typed', () => {
    const form = { ...DEFAULT_RIG_FORM, k: 3, iterations: 2, lo: 0.3, hi: 0.7 };
    // No designer chosen: the policy decides; the components are the paper's by default.
    expect(rigLaunchInput('household', 'pick-mug-1', 'scripted:x', form)).toEqual({
      task: 'household:pick-mug-1',
      policy: 'scripted:x',
      components: ['stage', 'contract'],
      k: 3,
      maxIterations: 2,
      band: [0.3, 0.7],
    });
    expect(
      rigLaunchInput('household', 't', 'p', { ...form, designer: 'llm', components: ['stage'] }),
    ).toMatchObject({ designer: 'llm', components: ['stage'] });
    const typed = rigLaunchInput('toy24', 't', 'p', { ...form, defect: '  never opens drawers ' });
    expect(typed.defect).toBe('never opens drawers');
    expect('defect' in rigLaunchInput('toy24', 't', 'p', { ...form, defect: '   ' })).toBe(false);
  });

  it('says which designer a rig will use and why, before it is launched', () => {
    expect(designerNote('openai:qwen3-8b', '')).toBe(
      "llm (qwen3-8b): the paper's designer is the policy's own model: qwen3-8b, on the policy's endpoint",
    );
    expect(designerNote('scripted:household-explorer', '')).toMatch(
      /^heuristic: a scripted policy/,
    );
    expect(designerNote('openai:m', 'heuristic')).toBe('heuristic: chosen here');
    expect(
      rigLaunchProblems(
        rigLaunchInput('household', 't', 'p', { ...DEFAULT_RIG_FORM, components: [] }),
      ),
    ).toEqual([{ path: 'components', message: 'choose at least one component' }]);
  });

  it('checks the rig form with the server schema: a reversed band is one sentence on the band', () => {
    const input = rigLaunchInput('household', 'train-0001', 'scripted:x', {
      ...DEFAULT_RIG_FORM,
      lo: 0.9,
      hi: 0.1,
    });
    expect(rigLaunchProblems(input)).toEqual([
      { path: 'band', message: 'the low end must not be above the high end' },
    ]);
    const big = rigLaunchInput('household', 't', 'p', {
      ...DEFAULT_RIG_FORM,
      k: 1_000_000,
      hi: 1.5,
    });
    expect(rigLaunchProblems(big)).toEqual([
      { path: 'k', message: 'must be at most 100' },
      { path: 'band.1', message: 'must be at most 1' },
    ]);
    expect([RIG_FIELD_RANGE.k.minValue, RIG_FIELD_RANGE.k.maxValue]).toEqual([1, 100]);
  });
});
