// The checker on hand-made diagnoses: what passes, what it removes from a diagnosis before it is
// stored, and why; and how diagnoses stored before quotes existed read back.
import { describe, expect, it } from 'vitest';
import { checkDiagnosis, gateDiagnosis, occurs, sentences } from './diagnosis-check.ts';
import { diagnosisOfRow } from './records.ts';
import { episode } from './testing/episodes.ts';
import type { DiagnosisReport } from './types.ts';

const ep = episode('e1', [
  ['go to cabinet 1', 'You arrive at cabinet 1. The cabinet 1 is closed.'],
  [
    'go to countertop 1',
    'You arrive at countertop 1. On the countertop 1, you see a glassbottle 2.',
  ],
  ['take glassbottle 2 from countertop 1', 'You pick up the glassbottle 2 from the countertop 1.'],
]);
const episodes = [ep];

function report(over: Partial<DiagnosisReport>): DiagnosisReport {
  return {
    axis: 'action',
    label: 'x',
    description: 'The agent walked past a closed cabinet.',
    evidence: [{ episodeId: 'e1', step: 0, quote: 'The cabinet 1 is closed.' }],
    direction: 'scaffold',
    ...over,
  };
}

describe('the diagnosis checker', () => {
  it('passes quotes found verbatim in the cited step, typed or shown', () => {
    const d = report({
      evidence: [
        { episodeId: 'e1', step: 0, quote: 'The cabinet 1 is closed.' },
        { episodeId: 'e1', step: 2, quote: 'take glassbottle 2 from countertop 1' },
      ],
    });
    expect(checkDiagnosis(d, episodes)).toEqual([]);
  });

  it('refuses a quote from another step, an unknown episode or step, and evidence without a quote', () => {
    const d = report({
      evidence: [
        { episodeId: 'e1', step: 1, quote: 'The cabinet 1 is closed.' },
        { episodeId: 'nope', step: 0, quote: 'x' },
        { episodeId: 'e1', step: 9, quote: 'x' },
        { episodeId: 'e1', step: 0, quote: ' ' },
      ],
    });
    const reasons = checkDiagnosis(d, episodes).map((p) => p.reason);
    expect(reasons).toEqual([
      expect.stringMatching(/^the quote is not in step 1 \(typed "go to countertop 1"/),
      'not an episode of the baseline',
      'the episode has no step 9 (it has 3)',
      'no quote',
    ]);
  });

  it('checks a negative claim on every step of every episode it names', () => {
    const claim = {
      kind: 'absent' as const,
      in: 'observation' as const,
      text: 'glassbottle',
      episodeIds: ['e1'],
      phrase: 'never saw a glassbottle',
    };
    const d = report({ description: 'The agent never saw a glassbottle.', claims: [claim] });
    const problems = checkDiagnosis(d, episodes);
    expect(problems).toContainEqual({
      kind: 'claim',
      what: 'never saw a glassbottle',
      reason:
        '"glassbottle" was shown at step 1 of episode e1: "You arrive at countertop 1. On the countertop 1, you see a glassbottle 2."',
    });
    // The same claim with the one it did see excepted holds.
    const except = {
      ...claim,
      except: ['glassbottle 2'],
      phrase: 'never saw a glassbottle other than glassbottle 2',
    };
    const ok = report({
      description: 'It never saw a glassbottle other than glassbottle 2.',
      claims: [except],
    });
    expect(checkDiagnosis(ok, episodes)).toEqual([]);
  });

  it('refuses a sentence that says "never" (or "did not") with no checked claim behind it', () => {
    const d = report({
      description:
        'The agent walked past a cabinet. It did not open the cabinet. It saw "Nothing happens." once.',
    });
    expect(checkDiagnosis(d, episodes)).toEqual([
      {
        kind: 'sentence',
        what: 'It did not open the cabinet.',
        reason: 'it makes a negative claim that no checked claim backs',
      },
    ]);
    // Quoted words are the environment's, not a claim: `never` inside quotes is not scanned.
    expect(
      checkDiagnosis(report({ description: 'It was shown "you never win".' }), episodes),
    ).toEqual([]);
  });

  it('removes what fails before storing, records why, and what remains passes', () => {
    const d = report({
      description:
        'In 1 failing episode the agent saw closed receptacles and never typed `open`. It never saw a glassbottle. It never looked at the fridge.',
      evidence: [
        { episodeId: 'e1', step: 0, quote: 'The cabinet 1 is closed.' },
        { episodeId: 'e1', step: 0, quote: 'a glassbottle 2' },
      ],
      claims: [
        {
          kind: 'absent',
          in: 'action',
          text: 'open',
          episodeIds: ['e1'],
          phrase: 'never typed `open`',
        },
        {
          kind: 'absent',
          in: 'observation',
          text: 'glassbottle',
          episodeIds: ['e1'],
          phrase: 'never saw a glassbottle',
        },
      ],
    });
    const gated = gateDiagnosis(d, episodes);
    expect(gated.description).toBe(
      'In 1 failing episode the agent saw closed receptacles and never typed `open`.',
    );
    expect(gated.evidence).toEqual([
      { episodeId: 'e1', step: 0, quote: 'The cabinet 1 is closed.' },
    ]);
    expect(gated.claims?.map((c) => c.phrase)).toEqual(['never typed `open`']);
    expect(gated.check.removed.map((r) => [r.kind, r.what])).toEqual([
      ['evidence', 'episode e1 step 0: "a glassbottle 2"'],
      ['claim', 'never saw a glassbottle'],
      ['sentence', 'It never saw a glassbottle.'],
      ['sentence', 'It never looked at the fridge.'],
    ]);
    expect(gated.check).toMatchObject({ evidence: 1, claims: 1 });
    expect(checkDiagnosis(gated, episodes)).toEqual([]);
  });

  it('says so when nothing of the text survives', () => {
    const gated = gateDiagnosis(
      report({ description: 'The agent never moved.', evidence: [] }),
      episodes,
    );
    expect(gated.description).toMatch(
      /^Every sentence of the diagnosis was removed by the checker/,
    );
    expect(checkDiagnosis(gated, episodes)).toEqual([]);
  });

  it('matches whole words, case-insensitively, outside excepted strings', () => {
    expect(occurs('open cabinet 1', 'open')).toBe(true);
    expect(occurs('You opened it', 'open')).toBe(false);
    expect(occurs('a butterknife 1', 'knife')).toBe(false);
    expect(occurs('a GlassBottle 2', 'glassbottle', ['glassbottle 2'])).toBe(false);
    expect(occurs('a glassbottle 1', 'glassbottle', ['glassbottle 2'])).toBe(true);
  });

  it('splits sentences but never inside a quote', () => {
    expect(sentences('It saw ("The cabinet 3 is closed.") twice. Then it left.')).toEqual([
      'It saw ("The cabinet 3 is closed.") twice. ',
      'Then it left.',
    ]);
    expect(sentences('Errors: "Hook failed. Never returned" | x.')).toHaveLength(1);
  });
});

describe('a stored diagnosis read back', () => {
  it('reads evidence without a quote (stored before quotes existed) and the checker record', () => {
    const old = diagnosisOfRow({
      round: 0,
      axis: 'action',
      label: 'never-opens-closed-receptacles',
      description: 'old text',
      evidence: [{ episodeId: 'e1', step: 4 }],
      report: { direction: 'scaffold' },
    });
    expect(old.report.evidence).toEqual([{ episodeId: 'e1', step: 4 }]);
    expect(old.report.check).toBeUndefined();
    const fresh = diagnosisOfRow({
      round: 0,
      axis: 'action',
      label: 'x',
      description: 'y',
      evidence: [{ episodeId: 'e1', step: 0, quote: 'q' }],
      report: { direction: 'none', check: { evidence: 1, claims: 0, removed: [] } },
    });
    expect(fresh.report.evidence[0]?.quote).toBe('q');
    expect(fresh.report.check).toEqual({ evidence: 1, claims: 0, removed: [] });
  });
});
