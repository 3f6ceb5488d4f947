// The checker every diagnosis passes before it is stored, whoever wrote it (the heuristic designer,
// the LLM designer, the loop itself): each evidence quote occurs verbatim in the step it cites, each
// negative claim holds on every step of every episode it names, and no sentence says "never" (or
// the like) without such a checked claim behind it. gateDiagnosis() removes what fails, records
// what it removed and why, and is the only way to a CheckedDiagnosis — the type recordDiagnosis takes.
import type { Action } from '../../bridges/core/types.ts';
import type { CheckRemoval, Claim } from '../../contracts/rigs.ts';
import { actionLine } from '../../contracts/steps.ts';
import type { StepRecord } from '../harness/types.ts';
import type {
  DiagnosisCheck,
  DiagnosisReport,
  ObservedEpisode,
  StoredDiagnosis,
  StoredEvidence,
} from './types.ts';

/**
 * The text of an action as the agent emitted it and the trajectory viewer shows it: a text tool's
 * one string, else a compact call.
 */
export function actionText(action: Action): string {
  return actionLine(action);
}

/** What a quote may come from: what the agent typed, and what it was shown. */
export function stepTexts(step: StepRecord): { action: string; observation: string } {
  return { action: actionText(step.action), observation: step.observation.text };
}

export const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `word` as a whole word (case-insensitive) in `text`, outside any of the `except` strings. */
export function occurs(text: string, word: string, except: readonly string[] = []): boolean {
  let rest = text;
  for (const e of except) rest = rest.replace(new RegExp(escapeRegExp(e), 'gi'), ' ');
  return new RegExp(`(?<![\\w])${escapeRegExp(word)}(?![\\w])`, 'i').test(rest);
}

/** A short verbatim excerpt of a text: its first line, at most `max` characters. */
export function excerpt(text: string, max = 160): string {
  const line = (text.split('\n').find((l) => l.trim() !== '') ?? '').trim();
  return line.length > max ? line.slice(0, max).trimEnd() : line;
}

/** The first step of an episode where an absence claim fails, if any. */
export function counterexample(
  episode: ObservedEpisode,
  claim: Pick<Claim, 'in' | 'text' | 'except'>,
): { step: number; text: string } | undefined {
  for (const s of episode.trajectory) {
    const text = stepTexts(s)[claim.in];
    if (occurs(text, claim.text, claim.except)) return { step: s.index, text };
  }
  return undefined;
}

/**
 * Words that make a sentence a negative claim about the trajectories. Quoted text ("…", “…”,
 * `…`) is not scanned: it is the environment's or the agent's words, not the designer's.
 */
const NEGATION =
  /\b(?:never|not once|without ever|at no point|did not|didn't|does not|doesn't|none of)\b/gi;
const QUOTED = /"[^"\n]*"|“[^”]*”|`[^`]*`/g;

function negations(sentence: string): number[] {
  const quoted: [number, number][] = [];
  for (const m of sentence.matchAll(QUOTED)) quoted.push([m.index, m.index + m[0].length]);
  const out: number[] = [];
  for (const m of sentence.matchAll(NEGATION))
    if (!quoted.some(([a, b]) => m.index >= a && m.index < b)) out.push(m.index);
  return out;
}

/** A text's sentences, each with its trailing space (joined back, they are the text); a quote is never split. */
export function sentences(text: string): string[] {
  const masked = text.replace(QUOTED, (q) => q[0] + 'x'.repeat(q.length - 2) + q.at(-1));
  const out: string[] = [];
  let from = 0;
  for (const m of masked.matchAll(/(?<=[.!?]["”')\]]*\s+)(?=[A-Z])/g)) {
    out.push(text.slice(from, m.index));
    from = m.index;
  }
  out.push(text.slice(from));
  return out.filter((s) => s !== '');
}

/** Is every negation of the sentence inside the phrase of a claim that holds? */
function backed(sentence: string, holding: Claim[]): boolean {
  const spans: [number, number][] = [];
  for (const c of holding)
    for (let i = sentence.indexOf(c.phrase); i >= 0; i = sentence.indexOf(c.phrase, i + 1))
      spans.push([i, i + c.phrase.length]);
  return negations(sentence).every((n) => spans.some(([a, b]) => n >= a && n < b));
}

function texts(d: StoredDiagnosis): string[] {
  return [d.description, ...(d.secondary ?? []).map((s) => s.description)];
}

/** Runs of white space as one space: a quote copied from a one-line rendering still matches. */
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
const short = (s: string, n = 120) => (s.length > n ? `${s.slice(0, n)}…` : s);

function evidenceProblem(
  e: StoredEvidence,
  byId: Map<string, ObservedEpisode>,
): string | undefined {
  const episode = byId.get(e.episodeId);
  if (!episode) return 'not an episode of the baseline';
  const step = episode.trajectory.find((s) => s.index === e.step);
  if (!step) return `the episode has no step ${e.step} (it has ${episode.trajectory.length})`;
  if (!e.quote?.trim()) return 'no quote';
  const t = stepTexts(step);
  const quote = squash(e.quote);
  if (squash(t.action).includes(quote) || squash(t.observation).includes(quote)) return undefined;
  return `the quote is not in step ${e.step} (typed "${short(t.action)}", shown "${short(t.observation)}")`;
}

function claimProblem(
  c: Claim,
  d: StoredDiagnosis,
  byId: Map<string, ObservedEpisode>,
): string | undefined {
  if (!texts(d).some((t) => t.includes(c.phrase))) return 'the diagnosis does not state it';
  for (const id of c.episodeIds) {
    const episode = byId.get(id);
    if (!episode) return `episode ${id} is not an episode of the baseline`;
    const hit = counterexample(episode, c);
    if (hit)
      return `"${c.text}" ${c.in === 'action' ? 'was typed' : 'was shown'} at step ${hit.step} of episode ${id}: "${short(hit.text)}"`;
  }
  return undefined;
}

const describeEvidence = (e: StoredEvidence) =>
  `episode ${e.episodeId} step ${e.step}: ${e.quote ? `"${e.quote}"` : '(no quote)'}`;

/** Everything in a diagnosis that does not hold on these episodes; empty when it passes. */
export function checkDiagnosis(d: StoredDiagnosis, episodes: ObservedEpisode[]): CheckRemoval[] {
  const byId = new Map(episodes.map((e) => [e.episodeId, e]));
  const problems: CheckRemoval[] = [];
  for (const e of d.evidence) {
    const reason = evidenceProblem(e, byId);
    if (reason) problems.push({ kind: 'evidence', what: describeEvidence(e), reason });
  }
  const holding: Claim[] = [];
  for (const c of d.claims ?? []) {
    const reason = claimProblem(c, d, byId);
    if (reason) problems.push({ kind: 'claim', what: c.phrase, reason });
    else holding.push(c);
  }
  for (const t of texts(d))
    for (const s of sentences(t))
      if (!backed(s, holding))
        problems.push({
          kind: 'sentence',
          what: s.trim(),
          reason: 'it makes a negative claim that no checked claim backs',
        });
  return problems;
}

declare const checked: unique symbol;
/** A diagnosis that passed the checker: the only kind that is stored. */
export type CheckedDiagnosis = DiagnosisReport & {
  readonly [checked]: true;
  check: DiagnosisCheck;
};

const WITHDRAWN =
  'Every sentence of the diagnosis was removed by the checker: see what it removed and why.';

/** The diagnosis without its sentences that fail the check (claims that do not hold, unbacked negations). */
function withoutFailingSentences(
  d: DiagnosisReport,
  episodes: ObservedEpisode[],
  removed: CheckRemoval[],
): DiagnosisReport {
  const byId = new Map(episodes.map((e) => [e.episodeId, e]));
  const failed = (d.claims ?? []).filter((c) => claimProblem(c, d, byId) !== undefined);
  const holding = (d.claims ?? []).filter((c) => !failed.includes(c));
  const keep = (text: string): string => {
    const kept = sentences(text).filter((s) => {
      const falseClaim = failed.find((c) => s.includes(c.phrase));
      const ok = !falseClaim && backed(s, holding);
      if (!ok)
        removed.push({
          kind: 'sentence',
          what: s.trim(),
          reason: falseClaim
            ? `it rests on a claim that does not hold ("${falseClaim.phrase}")`
            : 'it makes a negative claim that no checked claim backs',
        });
      return ok;
    });
    return kept.join('').trim();
  };
  for (const c of failed)
    removed.push({ kind: 'claim', what: c.phrase, reason: claimProblem(c, d, byId) ?? '' });
  const secondary = d.secondary
    ?.map((s) => ({ ...s, description: keep(s.description) }))
    .filter((s) => s.description !== '');
  return {
    ...d,
    description: keep(d.description) || WITHDRAWN,
    claims: holding,
    ...(d.secondary ? { secondary: secondary ?? [] } : {}),
  };
}

/**
 * Runs the checker and keeps only what holds: evidence whose quote is in its step, claims true on
 * every step of their episodes, sentences whose negative statements such claims back. What it took
 * out is recorded on the result (`check.removed`), each with its reason.
 */
export function gateDiagnosis(d: DiagnosisReport, episodes: ObservedEpisode[]): CheckedDiagnosis {
  const byId = new Map(episodes.map((e) => [e.episodeId, e]));
  const removed: CheckRemoval[] = [];
  const evidence = d.evidence.filter((e) => {
    const reason = evidenceProblem(e, byId);
    if (reason) removed.push({ kind: 'evidence', what: describeEvidence(e), reason });
    return !reason;
  });
  let current: DiagnosisReport = { ...d, evidence, claims: d.claims ?? [] };
  // A removed sentence can take a claim's phrase with it, which unstates that claim: repeat until
  // nothing changes (each round removes at least one sentence or claim, so this ends).
  for (let round = 0; checkDiagnosis(current, episodes).length > 0; round++) {
    if (round > 50) throw new Error('gateDiagnosis: the diagnosis did not settle');
    current = withoutFailingSentences(current, episodes, removed);
  }
  const claims = current.claims ?? [];
  const result: DiagnosisReport = {
    ...current,
    check: { evidence: current.evidence.length, claims: claims.length, removed },
  };
  if (claims.length === 0) delete result.claims;
  return result as CheckedDiagnosis;
}
