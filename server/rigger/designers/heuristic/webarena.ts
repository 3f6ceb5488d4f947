// The webarena bridge's module for the heuristic designer: failure patterns read from WebArena
// actions and URLs (never searches; answers from a list or search page; stops right after typing
// into a form with Enter) and paper-mode candidates: Stage (start on the search results for the
// entity the intent names) and Contract (block `stop` on list pages; no Enter-submit and no `stop`
// before a form was posted), with a truncated accessibility tree as the harder variant.
import type { Action, TaskInfo } from '../../../../bridges/core/types.ts';
import { counterexample } from '../../diagnosis-check.ts';
import type { Claim, DesignContext, Evidence, ObservedEpisode } from '../../types.ts';
import type { BridgeDesign, Finding, Structural } from './design.ts';
import { commandOf, interleave, typedAt } from './diagnose.ts';

const SITE_ORIGIN: Record<string, string> = {
  forum: 'http://localhost:9999',
  gitlab: 'http://localhost:8023',
};
/** URL paths of list and search pages (an entry is not open there). */
const LIST_PATH =
  /^(\/|\/search|\/forums|\/explore|\/f\/[^/]+|\/[^/]+\/[^/]+\/-\/(issues|merge_requests|labels))$/;

function urlShown(text: string): string | undefined {
  return /\nURL: (\S+)\s*$/.exec(text)?.[1];
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname.replace(/(.)\/$/, '$1');
  } catch {
    return '';
  }
}

const isStop = (c: string) => /^stop\b|^stop\(/.test(c);

/** A negative claim over the episodes' actions, made only when it holds on every step. */
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

function neverSearches(failing: ObservedEpisode[]): Finding | undefined {
  const hits = failing.filter(
    (e) =>
      e.trajectory.length >= 8 &&
      !e.trajectory.some((s) => /^(type|goto)\b/.test(commandOf(s))) &&
      e.trajectory.filter((s) => /^scroll|^click/.test(commandOf(s))).length >= 6,
  );
  const typed = absent(hits, 'type', 'typed nothing');
  const went = absent(hits, 'goto', 'no `goto`');
  if (!typed || !went) return undefined;
  const moves = hits.reduce(
    (n, e) => n + e.trajectory.filter((s) => /^scroll|^click/.test(commandOf(s))).length,
    0,
  );
  return {
    axis: 'action',
    label: 'never-uses-search',
    description: `In ${hits.length} of ${failing.length} failing episode(s) the agent ${typed.phrase} into the search box and used ${went.phrase}: it looked for the entity by clicking and scrolling through lists (${moves} clicks and scrolls in all) until the episode ended.`,
    evidence: interleave(
      hits.map((e) =>
        e.trajectory
          .filter((s) => /^scroll|^click/.test(commandOf(s)))
          .slice(-2)
          .map((s) => typedAt(e, s, 'clicking or scrolling through a list')),
      ),
      12,
    ),
    claims: [typed, went],
    episodes: hits.length,
    rank: 0,
  };
}

function answersFromLists(failing: ObservedEpisode[], task: TaskInfo): Finding | undefined {
  if (task.type !== 'information_seeking' && task.type !== 'navigation') return undefined;
  const groups: Evidence[][] = [];
  const where = new Set<string>();
  for (const e of failing) {
    const i = e.trajectory.findIndex((s) => isStop(commandOf(s)));
    if (i < 1) continue;
    const before = e.trajectory[i - 1];
    const url = before ? urlShown(before.observation.text) : undefined;
    if (!before || !url || !LIST_PATH.test(pathOf(url))) continue;
    where.add(pathOf(url));
    groups.push([
      {
        episodeId: e.episodeId,
        step: before.index,
        quote: `URL: ${url}`,
        note: 'a list or search page',
      },
      typedAt(e, e.trajectory[i] as (typeof e.trajectory)[number], 'answered here'),
    ]);
  }
  if (groups.length === 0) return undefined;
  return {
    axis: 'observation',
    label: 'answers-from-list-page',
    description: `In ${groups.length} of ${failing.length} failing episode(s) the agent stopped while on a list or search page (${[...where].slice(0, 3).join(', ')}) instead of opening the entry the intent names: it answered from what the list shows (a truncated label list, the first number near a title, the wrong page).`,
    evidence: interleave(groups, 12),
    episodes: groups.length,
    rank: 0,
  };
}

function stopsAfterEnter(failing: ObservedEpisode[], task: TaskInfo): Finding | undefined {
  if (task.type !== 'content_and_config') return undefined;
  const groups: Evidence[][] = [];
  for (const e of failing) {
    const t = e.trajectory;
    const i = t.findIndex((s) => isStop(commandOf(s)));
    const prev = i > 0 ? t[i - 1] : undefined;
    if (!prev || !/^type \[\d+\] \[.*\](?: \[1\])?$/s.test(commandOf(prev))) continue;
    groups.push([
      typedAt(e, prev, 'typed into the form with Enter'),
      typedAt(e, t[i] as (typeof t)[number], 'stopped at the next step'),
    ]);
  }
  if (groups.length === 0) return undefined;
  return {
    axis: 'action',
    label: 'submits-without-checking',
    description: `In ${groups.length} of ${failing.length} failing episode(s) the agent typed into a form and pressed Enter ("${groups[0]?.[0]?.quote}"), then stopped at the next step without reading the page that came back: Enter in a text area only adds a line, and Enter in a title field posts the form before the other fields are set.`,
    evidence: interleave(groups, 12),
    episodes: groups.length,
    rank: 0,
  };
}

export const NO_STOP_ON_LISTS = `// Contract: no answer from a list or search page — open the entry first.
const LIST = ${LIST_PATH.toString()};
export function filterAction(action, state) {
  const command = action.name === 'act' ? String(action.args.command || '') : action.name;
  if (!/^stop\\b/.test(command)) return action;
  let path = '';
  try { path = new URL(state.url).pathname.replace(/(.)\\/$/, '$1'); } catch (e) { path = ''; }
  if (LIST.test(path))
    return { blocked: 'You are on a list or search page (' + state.url + '): open the entry the task is about and answer from its page.' };
  return action;
}
`;

export const SUBMIT_WITH_THE_BUTTON = `// Contract: typing into a form field never presses Enter (search boxes keep it), and stop waits
// until a form was posted.
let page = '';
export function filterObservation(o) {
  page = o.text;
  return o;
}
export function filterAction(action, state) {
  const command = action.name === 'act' ? String(action.args.command || '') : action.name;
  const typed = action.name === 'type' ? action.args.element_id : (/^type \\[(\\d+)\\]/.exec(command) || [])[1];
  if (typed !== undefined && !page.includes('[' + typed + '] searchbox')) {
    if (action.name === 'type') return { ...action, args: { ...action.args, press_enter_after: false } };
    const fixed = /\\[[01]\\]$/.test(command) ? command.replace(/\\[1\\]$/, '[0]') : command + ' [0]';
    return { ...action, args: { ...action.args, command: fixed } };
  }
  if (/^stop\\b/.test(command) && state.formSubmissions === 0)
    return { blocked: "Nothing has been submitted yet: click the form's button, then check the page that comes back." };
  return action;
}
`;

export function truncateTree(lines: number): string {
  return `// Contract: partial observability — the accessibility tree is cut after ${lines} lines (the URL stays).
export function filterObservation(o) {
  const all = o.text.split('\\n');
  if (all.length <= ${lines + 4}) return o;
  const url = all[all.length - 1];
  return { ...o, text: all.slice(0, ${lines}).join('\\n') + '\\n…\\n\\n' + url };
}
`;
}

/** The quoted entity of an intent ("…"), if any. */
function entityOf(goal: string): string | undefined {
  return /"([^"]{4,})"/.exec(goal)?.[1];
}

async function startOnSearch(ctx: DesignContext): Promise<Structural | undefined> {
  const entity = entityOf(ctx.task.goal);
  const site = ((ctx.task.meta?.sites ?? []) as string[])[0];
  if (!entity || !site || !SITE_ORIGIN[site]) return undefined;
  const query =
    site === 'forum' ? `q=${encodeURIComponent(entity)}` : `search=${encodeURIComponent(entity)}`;
  const action: Action = {
    name: 'act',
    args: { command: `goto [${SITE_ORIGIN[site]}/search?${query}]` },
  };
  const out = await ctx.tryActions([action]);
  if (out[0]?.invalid !== false || !out[0].text.includes(entity)) return undefined;
  return {
    name: 'start-on-search-results',
    plan: { stage: [action], stageIntro: 'state' },
    rationale: `Stage: the episode starts on the ${site} search results for "${entity}", one click from the entry the intent names.`,
  };
}

type Make = (ctx: DesignContext) => Promise<Structural | undefined>;

const noStopOnLists: Make = async () => ({
  name: 'no-stop-on-lists',
  plan: { contracts: [NO_STOP_ON_LISTS] },
  rationale:
    'Contract: `stop` is refused on list and search pages, so the agent opens the entry before answering (the verifier is untouched).',
});
const submitWithTheButton: Make = async () => ({
  name: 'submit-with-the-button',
  plan: { contracts: [SUBMIT_WITH_THE_BUTTON] },
  rationale:
    'Contract: typing never presses Enter and `stop` is refused until a form was posted, so the form is sent with its button and the result page is there to read.',
});
const truncated: Make = async () => ({
  name: 'truncate-tree',
  plan: { contracts: [truncateTree(30)] },
  rationale:
    'Contract: partial observability — only the first 30 lines of the accessibility tree are shown; the agent must scroll for the rest.',
});

const SCAFFOLDS: Record<string, Make[]> = {
  'answers-from-list-page': [noStopOnLists, startOnSearch],
  'submits-without-checking': [submitWithTheButton, startOnSearch],
  'never-uses-search': [startOnSearch, noStopOnLists],
};

/** The webarena bridge's module for the heuristic designer (bridges.ts). */
export const webarenaDesign: BridgeDesign = {
  structurals: (_state, diagnosis) =>
    diagnosis.direction === 'harder'
      ? [truncated]
      : (SCAFFOLDS[diagnosis.label] ?? [startOnSearch, noStopOnLists, submitWithTheButton]),
  findings: (failing, task) => [
    neverSearches(failing),
    answersFromLists(failing, task),
    stopsAfterEnter(failing, task),
  ],
  defectHints: [
    [/search|click/i, 'never-uses-search'],
    [/list|early|first page|detail/i, 'answers-from-list-page'],
    [/verif|check|submit|form|enter/i, 'submits-without-checking'],
  ],
};
