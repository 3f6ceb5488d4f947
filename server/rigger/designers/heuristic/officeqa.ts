// The officeqa bridge's module for the heuristic designer: failure patterns read from the tool calls
// and the pages shown (answered without reading a page; answered a figure a footnote restates;
// copied a figure where the question asks for a computed value) and paper-mode candidates: Stage
// (start with the question's source page open) and Contract (no answer before a page was read;
// footnotes applied to the tables shown; no answer to a computed question before a calculation),
// with fewer search results as the harder variant.
import type { Action, TaskInfo } from '../../../../bridges/core/types.ts';
import { counterexample } from '../../diagnosis-check.ts';
import type { Claim, DesignContext, Evidence, ObservedEpisode } from '../../types.ts';
import type { BridgeDesign, Finding, Structural } from './design.ts';
import { interleave, shownAt, typedAt } from './diagnose.ts';

type Step = ObservedEpisode['trajectory'][number];
const answerOf = (s: Step) =>
  s.action.name === 'answer' ? String(s.action.args.text ?? '') : undefined;
const numbersIn = (text: string) =>
  (text.match(/-?\d[\d,]*(?:\.\d+)?/g) ?? []).map((n) => n.replace(/,/g, ''));

function absent(episodes: ObservedEpisode[], text: string, phrase: string): Claim | undefined {
  if (episodes.length === 0) return undefined;
  if (episodes.some((e) => counterexample(e, { in: 'action', text }))) return undefined;
  return {
    kind: 'absent',
    in: 'action',
    text,
    phrase,
    episodeIds: episodes.map((e) => e.episodeId),
  };
}

function answersUnread(failing: ObservedEpisode[]): Finding | undefined {
  const hits = failing.filter(
    (e) =>
      e.trajectory.some((s) => answerOf(s) !== undefined) &&
      !e.trajectory.some((s) => s.action.name === 'read'),
  );
  const claim = absent(hits, 'read', 'read no page');
  if (!claim) return undefined;
  return {
    axis: 'observation',
    label: 'answers-from-first-hit',
    description: `In ${hits.length} of ${failing.length} failing episode(s) the agent ${claim.phrase}: it answered from a search result line (the first figure it saw), whatever quarter, year or document that line was about.`,
    evidence: interleave(
      hits.map((e) => {
        const search = e.trajectory.find((s) => s.action.name === 'search');
        const answer = e.trajectory.find((s) => answerOf(s) !== undefined) as Step;
        return [
          ...(search ? [shownAt(e, search, 'the first result')] : []),
          typedAt(e, answer, 'answered'),
        ];
      }),
      12,
    ),
    claims: [claim],
    episodes: hits.length,
    rank: 0,
  };
}

function ignoresRestatements(failing: ObservedEpisode[]): Finding | undefined {
  const groups: Evidence[][] = [];
  for (const e of failing) {
    const answer = e.trajectory.find((s) => answerOf(s) !== undefined);
    const restating = e.trajectory.find(
      (s) => s.action.name === 'read' && /Restated after the audit/.test(s.observation.text),
    );
    if (!answer || !restating) continue;
    const said = numbersIn(answerOf(answer) ?? '');
    const reported = [...restating.observation.text.matchAll(/([\d,]+)\[(\w)\]/g)].map((m) =>
      (m[1] as string).replace(/,/g, ''),
    );
    const note = /^\[\w\] Restated after the audit: .*$/m.exec(restating.observation.text)?.[0];
    const direct = said.some((n) => reported.includes(n));
    if (!note) continue;
    groups.push([
      {
        episodeId: e.episodeId,
        step: restating.index,
        quote: note.slice(0, 160),
        note: 'a footnote restates a figure on this page',
      },
      typedAt(e, answer, direct ? 'answered with the figure as first reported' : 'answered'),
    ]);
  }
  if (groups.length === 0) return undefined;
  return {
    axis: 'observation',
    label: 'ignores-footnotes',
    description: `In ${groups.length} of ${failing.length} failing episode(s) the agent read a page whose footnote restates a figure ("${groups[0]?.[0]?.quote}") and answered with the table's figures as first reported: the restatement replaces the value in the table.`,
    evidence: interleave(groups, 12),
    episodes: groups.length,
    rank: 1,
  };
}

const COMPUTED = /percentage|share|how much more|how much larger|per full-time/i;

function copiesFigures(failing: ObservedEpisode[], task: TaskInfo): Finding | undefined {
  if (!COMPUTED.test(task.goal)) return undefined;
  const hits = failing.filter((e) => {
    const answer = e.trajectory.find((s) => answerOf(s) !== undefined);
    if (!answer) return false;
    const said = numbersIn(answerOf(answer) ?? '');
    return e.trajectory.some(
      (s) =>
        s.action.name === 'read' && said.some((n) => numbersIn(s.observation.text).includes(n)),
    );
  });
  const claim = absent(hits, 'calculate', 'called no `calculate`');
  if (!claim) return undefined;
  return {
    axis: 'task_understanding',
    label: 'copies-instead-of-computing',
    description: `The question asks for a computed value, but in ${hits.length} of ${failing.length} failing episode(s) the agent ${claim.phrase} and answered with a figure copied from a page it had read.`,
    evidence: hits
      .slice(0, 12)
      .map((e) =>
        typedAt(e, e.trajectory.find((s) => answerOf(s) !== undefined) as Step, 'a copied figure'),
      ),
    claims: [claim],
    episodes: hits.length,
    rank: 0,
  };
}

export const READ_BEFORE_ANSWER = `// Contract: no answer before a page was read.
export function filterAction(action, state) {
  if (action.name === 'answer' && state.reads.length === 0)
    return { blocked: 'Read the page your figure is on (read) before answering.' };
  return action;
}
`;

export const APPLY_FOOTNOTES = `// Contract: the tables shown carry their restated figures (the footnotes applied; the notes stay).
export function filterObservation(o) {
  const notes = {};
  for (const m of o.text.matchAll(/^\\[(\\w)\\] Restated after the audit: .+ is ([\\d,]+) \\(reported/gm)) notes[m[1]] = m[2];
  if (Object.keys(notes).length === 0) return o;
  const text = o.text.replace(/([\\d,]+)\\[(\\w)\\]/g, (all, n, k) => (notes[k] ? notes[k] + '[' + k + ']' : all));
  return { ...o, text };
}
`;

export const CALCULATE_BEFORE_ANSWER = `// Contract: a computed question is answered only after a calculation.
export function filterAction(action, state) {
  if (action.name === 'answer' && state.calculations === 0)
    return { blocked: 'This question asks for a computed value: compute it from the figures (calculate) before answering.' };
  return action;
}
`;

export const FEWER_RESULTS = `// Contract: search shows its 2 best passages instead of 5.
export function filterObservation(o) {
  if (!/^Results for /.test(o.text)) return o;
  const lines = o.text.split('\\n');
  return { ...o, text: lines.slice(0, 3).join('\\n') };
}
`;

type Make = (ctx: DesignContext) => Promise<Structural | undefined>;

const contract =
  (name: string, code: string, rationale: string): Make =>
  async () => ({ name, plan: { contracts: [code] }, rationale });

const readFirst = contract(
  'read-before-answer',
  READ_BEFORE_ANSWER,
  'Contract: `answer` is refused until a page was read, so the figure comes from its page, not a search line.',
);
const footnotes = contract(
  'apply-footnotes',
  APPLY_FOOTNOTES,
  'Contract (scaffold): the tables the agent reads show the restated figures in place of the reported ones, the footnotes kept.',
);
const calculateFirst = contract(
  'calculate-before-answer',
  CALCULATE_BEFORE_ANSWER,
  'Contract: `answer` is refused until a calculation was made, so a computed question gets computed.',
);
const fewer = contract(
  'fewer-search-results',
  FEWER_RESULTS,
  'Contract (harder): search shows 2 passages instead of 5.',
);

/** Stage: the question's source page read before the agent starts (found with the bridge's own search). */
const openSource: Make = async (ctx) => {
  const m = /of ([A-Z][\w ]+?) (?:in|change|\(|than|per|employ)/.exec(ctx.task.goal);
  const year = /FY(20\d\d)/.exec(ctx.task.goal)?.[1];
  if (!m) return undefined;
  const search: Action = {
    name: 'search',
    args: { query: `${m[1]} ${year ? `FY${year}` : ''} spending`.trim() },
  };
  const [found] = await ctx.tryActions([search]);
  const hit = found ? /^1\. (\S+), page (\d+):/m.exec(found.text) : null;
  if (!hit) return undefined;
  const read: Action = { name: 'read', args: { document: hit[1] as string, page: Number(hit[2]) } };
  const out = await ctx.tryActions([search, read]);
  if (out.some((r) => r.invalid)) return undefined;
  return {
    name: 'open-source-page',
    plan: { stage: [search, read], stageIntro: 'state' },
    rationale: `Stage: the episode starts with ${hit[1]} page ${hit[2]} already searched for and read.`,
  };
};

const SCAFFOLDS: Record<string, Make[]> = {
  'answers-from-first-hit': [readFirst, openSource],
  'ignores-footnotes': [footnotes, openSource],
  'copies-instead-of-computing': [calculateFirst, openSource],
};

/** The officeqa bridge's module for the heuristic designer (bridges.ts). */
export const officeqaDesign: BridgeDesign = {
  structurals: (_state, diagnosis) =>
    diagnosis.direction === 'harder'
      ? [fewer]
      : (SCAFFOLDS[diagnosis.label] ?? [readFirst, footnotes, calculateFirst, openSource]),
  findings: (failing, task) => [
    answersUnread(failing),
    ignoresRestatements(failing),
    copiesFigures(failing, task),
  ],
  defectHints: [
    [/first|search result|without reading/i, 'answers-from-first-hit'],
    [/footnote|restat|correct/i, 'ignores-footnotes'],
    [/arithmetic|comput|calculat|copies/i, 'copies-instead-of-computing'],
  ],
};
