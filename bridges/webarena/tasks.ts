// WebArena-style tasks, generated from intent templates over the seeded dataset: information seeking
// (answered with `stop [answer]`, scored by string_match), navigation (ending at a URL, url_match)
// and content / configuration changes (program_html: the site's pages are read after the episode).
// Every reference answer, URL and required content is computed from the data, never typed; the
// wording of the intents is ours. Configs follow WebArena's JSON (intent, start_url, eval).
import { filterTasks } from '../core/helpers.ts';
import { fnv1a, mulberry32 } from '../core/rng.ts';
import type { JsonObject, TaskFilter, TaskInfo } from '../core/types.ts';
import { type Dataset, dataset, type Issue, type Post, type Project, ROLES } from './data.ts';
import { DISPLAY_ORIGIN } from './server.ts';
import { postUrl, sortPosts } from './sites/forum.ts';
import { issueUrl } from './sites/gitlab.ts';
import { projectPath, score } from './store.ts';

export const KINDS = ['information_seeking', 'navigation', 'content_and_config'] as const;
export type Kind = (typeof KINDS)[number];
export const SPLITS = ['train', 'test'] as const;

export interface ProgramHtml {
  url: string;
  locator: string;
  required_contents: { exact_match: string } | { must_include: string[] };
}

export interface EvalConfig {
  eval_types: ('string_match' | 'url_match' | 'program_html')[];
  reference_answers?: { exact_match?: string; must_include?: string[]; fuzzy_match?: string[] };
  reference_url?: string;
  url_note?: 'GOLD in PRED';
  program_html?: ProgramHtml[];
}

/** One step of a gold plan; elements are named by role and accessible name, resolved at solve time. */
export type GoldStep =
  | { goto: string }
  | { type: { role: string; name: string }; text: string }
  | { click: { role: string; name: string } }
  | { stop: string };

export interface WebarenaTask {
  info: TaskInfo;
  config: {
    task_id: string;
    sites: string[];
    start_url: string;
    intent: string;
    intent_template: string;
    intent_template_id: string;
    eval: EvalConfig;
  };
  gold: GoldStep[];
}

const F = DISPLAY_ORIGIN.forum;
const G = DISPLAY_ORIGIN.gitlab;

interface Draft {
  intent: string;
  start: string;
  eval: EvalConfig;
  gold: GoldStep[];
}

interface Template {
  id: string;
  site: 'forum' | 'gitlab';
  kind: Kind;
  template: string;
  count: number;
  make(d: Dataset, rng: () => number): Draft[];
}

function shuffled<T>(rng: () => number, xs: readonly T[]): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

const commentsOf = (d: Dataset, p: Post) => d.forum.comments.filter((c) => c.postId === p.id);
const uniqueTitle = (d: Dataset, p: Post) =>
  d.forum.posts.filter((x) => x.title === p.title).length === 1;
const stop = (answer = ''): GoldStep => ({ stop: answer });
const exact = (s: string) => ({ exact_match: s });
const info = (answer: string, intent: string, start: string): Draft => ({
  intent,
  start,
  eval: { eval_types: ['string_match'], reference_answers: exact(answer) },
  gold: [stop(answer)],
});
const nav = (url: string, intent: string, start: string): Draft => ({
  intent,
  start,
  eval: { eval_types: ['url_match'], reference_url: url, url_note: 'GOLD in PRED' },
  gold: [{ goto: url }, stop()],
});
const textOf = (sel: string) => `document.querySelector('${sel}').outerText`;
const allText = (sel: string) =>
  `[...document.querySelectorAll('${sel}')].map((e) => e.outerText).join('\\n')`;

const THANKS = [
  'Thanks for sharing this, very helpful!',
  'I tried the same and it worked for me.',
  'Could you post an update next month?',
  'Great write-up, bookmarked.',
  'This saved me an afternoon.',
  'Following this thread.',
  'Which tools did you use?',
  'Nice work, keep it up!',
];
const NOTES = [
  'I can take a look at this next week.',
  'Confirmed on the latest release.',
  'Please add steps to reproduce.',
  'Fixed in my local branch, PR soon.',
  'Closing as duplicate would be fine by me.',
  'Adding this to the next milestone.',
];
const NEW_POSTS = [
  ['Looking for recommendations', 'What should I try next? Any suggestions are welcome.'],
  ['Weekly progress thread', 'Share what you worked on this week.'],
  ['Beginner question', 'Where is a good place to start for someone new?'],
  ['Show and tell', 'Here is what I finished this month, feedback welcome.'],
  ['Meetup this weekend?', 'Anyone nearby who wants to meet on Saturday?'],
  ['Lessons learned', 'Three things I wish I had known a year ago.'],
];

const TEMPLATES: Template[] = [
  // ---- forum: information seeking ----
  {
    id: 'forum-comment-count',
    site: 'forum',
    kind: 'information_seeking',
    template: 'How many comments are there on the post "{{title}}" in f/{{forum}}?',
    count: 8,
    make: (d, rng) =>
      shuffled(
        rng,
        d.forum.posts.filter((p) => uniqueTitle(d, p)),
      ).map((p) =>
        info(
          String(commentsOf(d, p).length),
          `How many comments are there on the post "${p.title}" in f/${p.forum}?`,
          `${F}/`,
        ),
      ),
  },
  {
    id: 'forum-post-author',
    site: 'forum',
    kind: 'information_seeking',
    template: 'Who submitted the post "{{title}}"? Answer with the username.',
    count: 8,
    make: (d, rng) =>
      shuffled(
        rng,
        d.forum.posts.filter((p) => uniqueTitle(d, p)),
      ).map((p) =>
        info(
          p.author,
          `Who submitted the post "${p.title}"? Answer with the username.`,
          `${F}/forums`,
        ),
      ),
  },
  {
    id: 'forum-top-post',
    site: 'forum',
    kind: 'information_seeking',
    template: 'What is the title of the highest-scoring post in f/{{forum}}?',
    count: 6,
    make: (d, rng) =>
      shuffled(rng, d.forum.forums).flatMap((f) => {
        const ranked = sortPosts(
          d.forum.posts.filter((p) => p.forum === f.name),
          'top',
        );
        const [a, b] = ranked;
        if (!a || (b && score(a) === score(b))) return [];
        return [
          {
            intent: `What is the title of the highest-scoring post in f/${f.name}?`,
            start: `${F}/forums`,
            eval: { eval_types: ['string_match'], reference_answers: { must_include: [a.title] } },
            gold: [stop(a.title)],
          },
        ];
      }),
  },
  {
    id: 'forum-user-posts',
    site: 'forum',
    kind: 'information_seeking',
    template: 'How many posts has {{user}} submitted on the forum?',
    count: 6,
    make: (d, rng) =>
      shuffled(rng, d.forum.users.slice(1)).map((u) =>
        info(
          String(d.forum.posts.filter((p) => p.author === u.name).length),
          `How many posts has ${u.name} submitted on the forum?`,
          `${F}/`,
        ),
      ),
  },
  {
    id: 'forum-newest-score',
    site: 'forum',
    kind: 'information_seeking',
    template: 'What is the score (upvotes minus downvotes) of the newest post in f/{{forum}}?',
    count: 6,
    make: (d, rng) =>
      shuffled(rng, d.forum.forums).flatMap((f) => {
        const newest = sortPosts(
          d.forum.posts.filter((p) => p.forum === f.name),
          'new',
        )[0];
        return newest
          ? [
              info(
                String(score(newest)),
                `What is the score (upvotes minus downvotes) of the newest post in f/${f.name}?`,
                `${F}/forums`,
              ),
            ]
          : [];
      }),
  },
  {
    id: 'forum-find-forum',
    site: 'forum',
    kind: 'information_seeking',
    template: 'In which forum was the post "{{title}}" submitted? Answer with the forum name.',
    count: 8,
    make: (d, rng) =>
      shuffled(
        rng,
        d.forum.posts.filter(
          (p) => uniqueTitle(d, p) && !['books', 'cycling', 'homelab'].includes(p.forum),
        ),
      ).map((p) =>
        info(
          p.forum,
          `In which forum was the post "${p.title}" submitted? Answer with the forum name.`,
          `${F}/`,
        ),
      ),
  },
  {
    id: 'forum-top-comment',
    site: 'forum',
    kind: 'information_seeking',
    template: 'What does the highest-scoring comment on "{{title}}" say?',
    count: 4,
    make: (d, rng) =>
      shuffled(
        rng,
        d.forum.posts.filter((p) => uniqueTitle(d, p)),
      ).flatMap((p) => {
        const [top, next] = [...commentsOf(d, p)].sort((a, b) => score(b) - score(a));
        if (!top || (next && score(next) === score(top))) return [];
        return [
          {
            intent: `What does the highest-scoring comment on "${p.title}" say?`,
            start: `${F}/`,
            eval: { eval_types: ['string_match'], reference_answers: { fuzzy_match: [top.body] } },
            gold: [stop(top.body)],
          },
        ];
      }),
  },
  // ---- forum: navigation ----
  {
    id: 'forum-sort-new',
    site: 'forum',
    kind: 'navigation',
    template: 'Show me the posts of f/{{forum}}, newest first.',
    count: 5,
    make: (d, rng) =>
      shuffled(rng, d.forum.forums).map((f) =>
        nav(
          `${F}/f/${f.name}?sort=new`,
          `Show me the posts of f/${f.name}, newest first.`,
          `${F}/`,
        ),
      ),
  },
  {
    id: 'forum-author-profile',
    site: 'forum',
    kind: 'navigation',
    template: 'Open the profile page of the person who submitted "{{title}}".',
    count: 6,
    make: (d, rng) =>
      shuffled(
        rng,
        d.forum.posts.filter((p) => uniqueTitle(d, p)),
      ).map((p) =>
        nav(
          `${F}/user/${p.author}`,
          `Open the profile page of the person who submitted "${p.title}".`,
          `${F}/`,
        ),
      ),
  },
  {
    id: 'forum-search',
    site: 'forum',
    kind: 'navigation',
    template: 'Search the forum for posts about "{{query}}".',
    count: 4,
    make: (_d, rng) =>
      shuffled(rng, ['telescope', 'sourdough', 'marathon', 'workbench', 'compost', 'tyres']).map(
        (q) => nav(`${F}/search?q=${q}`, `Search the forum for posts about "${q}".`, `${F}/`),
      ),
  },
  // ---- forum: content and configuration ----
  {
    id: 'forum-comment',
    site: 'forum',
    kind: 'content_and_config',
    template: 'Reply to the post "{{title}}" in f/{{forum}} with the comment "{{text}}".',
    count: 8,
    make: (d, rng) =>
      shuffled(
        rng,
        d.forum.posts.filter((p) => uniqueTitle(d, p)),
      ).map((p, i) => {
        const text = THANKS[i % THANKS.length] as string;
        return {
          intent: `Reply to the post "${p.title}" in f/${p.forum} with the comment "${text}".`,
          start: `${F}/`,
          eval: {
            eval_types: ['program_html'],
            program_html: [
              {
                url: `${F}${postUrl(p)}`,
                locator: allText('.comment__body'),
                required_contents: { must_include: [text] },
              },
            ],
          },
          gold: [
            { goto: `${F}${postUrl(p)}` },
            { type: { role: 'textbox', name: 'Write a comment' }, text },
            { click: { role: 'button', name: 'Post comment' } },
            stop(),
          ],
        };
      }),
  },
  {
    id: 'forum-upvote',
    site: 'forum',
    kind: 'content_and_config',
    template: 'Upvote the post "{{title}}".',
    count: 6,
    make: (d, rng) =>
      shuffled(
        rng,
        d.forum.posts.filter((p) => uniqueTitle(d, p)),
      ).map((p) => ({
        intent: `Upvote the post "${p.title}".`,
        start: `${F}/`,
        eval: {
          eval_types: ['program_html'],
          program_html: [
            {
              url: `${F}${postUrl(p)}`,
              locator: textOf('.vote-state'),
              required_contents: exact('upvoted'),
            },
          ],
        },
        gold: [
          { goto: `${F}${postUrl(p)}` },
          { click: { role: 'button', name: 'Upvote' } },
          stop(),
        ],
      })),
  },
  {
    id: 'forum-create-post',
    site: 'forum',
    kind: 'content_and_config',
    template: 'Create a post in f/{{forum}} titled "{{title}}" with the body "{{body}}".',
    count: 6,
    make: (d, rng) => {
      const next = Math.max(...d.forum.posts.map((p) => p.id)) + 1;
      return shuffled(rng, d.forum.forums).map((f, i) => {
        const [title, body] = NEW_POSTS[i % NEW_POSTS.length] as [string, string];
        const url = `${F}/f/${f.name}/${next}`;
        return {
          intent: `Create a post in f/${f.name} titled "${title}" with the body "${body}".`,
          start: `${F}/`,
          eval: {
            eval_types: ['program_html'],
            program_html: [
              { url, locator: textOf('.submission__title'), required_contents: exact(title) },
              {
                url,
                locator: textOf('.submission__body'),
                required_contents: { must_include: [body] },
              },
            ],
          },
          gold: [
            { goto: `${F}/f/${f.name}/submit` },
            { type: { role: 'textbox', name: 'Title' }, text: title },
            { type: { role: 'textbox', name: 'Body' }, text: body },
            { click: { role: 'button', name: 'Create submission' } },
            stop(),
          ],
        };
      });
    },
  },
  {
    id: 'forum-subscribe',
    site: 'forum',
    kind: 'content_and_config',
    template: 'Subscribe to f/{{forum}}.',
    count: 5,
    make: (d, rng) =>
      shuffled(
        rng,
        d.forum.forums.filter((f) => !['books', 'cycling', 'homelab'].includes(f.name)),
      ).map((f) => ({
        intent: `Subscribe to f/${f.name}.`,
        start: `${F}/`,
        eval: {
          eval_types: ['program_html'],
          program_html: [
            {
              url: `${F}/forums`,
              locator: textOf(`[data-forum="${f.name}"] .forum__subscribed`),
              required_contents: exact('Subscribed'),
            },
          ],
        },
        gold: [
          { goto: `${F}/f/${f.name}` },
          { click: { role: 'button', name: 'Subscribe' } },
          stop(),
        ],
      })),
  },
  // ---- code host: information seeking ----
  {
    id: 'gitlab-open-issues',
    site: 'gitlab',
    kind: 'information_seeking',
    template: 'How many open issues does {{project}} have?',
    count: 6,
    make: (d, rng) =>
      shuffled(rng, d.git.projects).map((p) =>
        info(
          String(p.issues.filter((i) => i.state === 'opened').length),
          `How many open issues does ${projectPath(p)} have?`,
          `${G}/`,
        ),
      ),
  },
  {
    id: 'gitlab-issue-assignee',
    site: 'gitlab',
    kind: 'information_seeking',
    template: 'Who is assigned to issue #{{iid}} of {{project}}? Answer with the username.',
    count: 8,
    make: (d, rng) =>
      shuffled(
        rng,
        issuesOf(d).filter(({ i }) => i.assignee),
      ).map(({ p, i }) =>
        info(
          i.assignee as string,
          `Who is assigned to issue #${i.iid} of ${projectPath(p)}? Answer with the username.`,
          `${G}/`,
        ),
      ),
  },
  {
    id: 'gitlab-issue-labels',
    site: 'gitlab',
    kind: 'information_seeking',
    template: 'Which labels does the issue "{{title}}" in {{project}} carry?',
    count: 6,
    make: (d, rng) =>
      shuffled(
        rng,
        issuesOf(d).filter(({ i }) => i.labels.length >= 3),
      ).map(({ p, i }) => ({
        intent: `Which labels does the issue "${i.title}" in ${projectPath(p)} carry?`,
        start: `${G}/${projectPath(p)}/-/issues?state=all`,
        eval: { eval_types: ['string_match'], reference_answers: { must_include: [...i.labels] } },
        gold: [stop(i.labels.join(', '))],
      })),
  },
  {
    id: 'gitlab-member-role',
    site: 'gitlab',
    kind: 'information_seeking',
    template: 'What role does {{user}} have in {{project}}?',
    count: 8,
    make: (d, rng) =>
      shuffled(
        rng,
        d.git.projects.flatMap((p) =>
          p.members.filter((m) => m.username !== d.git.me).map((m) => ({ p, m })),
        ),
      ).map(({ p, m }) =>
        info(m.role, `What role does ${m.username} have in ${projectPath(p)}?`, `${G}/`),
      ),
  },
  {
    id: 'gitlab-open-mrs',
    site: 'gitlab',
    kind: 'information_seeking',
    template: 'How many merge requests of {{project}} are open?',
    count: 5,
    make: (d, rng) =>
      shuffled(rng, d.git.projects).map((p) =>
        info(
          String(p.mergeRequests.filter((m) => m.state === 'opened').length),
          `How many merge requests of ${projectPath(p)} are open?`,
          `${G}/`,
        ),
      ),
  },
  {
    id: 'gitlab-find-project',
    site: 'gitlab',
    kind: 'information_seeking',
    template:
      'Which project has an issue titled "{{title}}"? Answer with its path (namespace/name).',
    count: 6,
    make: (d, rng) => {
      const all = issuesOf(d);
      return shuffled(
        rng,
        all.filter(({ i }) => all.filter((x) => x.i.title === i.title).length === 1),
      ).map(({ p, i }) => ({
        intent: `Which project has an issue titled "${i.title}"? Answer with its path (namespace/name).`,
        start: `${G}/explore`,
        eval: {
          eval_types: ['string_match'],
          reference_answers: { must_include: [projectPath(p)] },
        },
        gold: [stop(projectPath(p))],
      }));
    },
  },
  {
    id: 'gitlab-issue-summary',
    site: 'gitlab',
    kind: 'information_seeking',
    template: 'In one sentence, what does issue #{{iid}} of {{project}} report?',
    count: 4,
    make: (d, rng) =>
      shuffled(rng, issuesOf(d)).map(({ p, i }) => ({
        intent: `In one sentence, what does issue #${i.iid} of ${projectPath(p)} report?`,
        start: `${G}/`,
        eval: { eval_types: ['string_match'], reference_answers: { fuzzy_match: [i.title] } },
        gold: [stop(i.title)],
      })),
  },
  // ---- code host: navigation ----
  {
    id: 'gitlab-label-filter',
    site: 'gitlab',
    kind: 'navigation',
    template: 'Show me the open issues of {{project}} that carry the label {{label}}.',
    count: 6,
    make: (d, rng) =>
      shuffled(rng, d.git.projects).map((p) => {
        const label = (p.labels[Math.floor(rng() * p.labels.length)] ?? p.labels[0])?.name ?? 'bug';
        return nav(
          `${G}/${projectPath(p)}/-/issues?label_name=${encodeURIComponent(label)}`,
          `Show me the open issues of ${projectPath(p)} that carry the label ${label}.`,
          `${G}/`,
        );
      }),
  },
  {
    id: 'gitlab-open-mr',
    site: 'gitlab',
    kind: 'navigation',
    template: 'Open the merge request "{{title}}" of {{project}}.',
    count: 5,
    make: (d, rng) =>
      shuffled(
        rng,
        d.git.projects.flatMap((p) => p.mergeRequests.map((m) => ({ p, m }))),
      ).map(({ p, m }) =>
        nav(
          `${G}/${projectPath(p)}/-/merge_requests/${m.iid}`,
          `Open the merge request "${m.title}" of ${projectPath(p)}.`,
          `${G}/`,
        ),
      ),
  },
  {
    id: 'gitlab-members',
    site: 'gitlab',
    kind: 'navigation',
    template: 'Go to the page that lists the members of {{project}}.',
    count: 4,
    make: (d, rng) =>
      shuffled(rng, d.git.projects).map((p) =>
        nav(
          `${G}/${projectPath(p)}/-/project_members`,
          `Go to the page that lists the members of ${projectPath(p)}.`,
          `${G}/`,
        ),
      ),
  },
  // ---- code host: content and configuration ----
  {
    id: 'gitlab-create-issue',
    site: 'gitlab',
    kind: 'content_and_config',
    template: 'Create an issue in {{project}} titled "{{title}}" with the label {{label}}.',
    count: 8,
    make: (d, rng) =>
      shuffled(rng, [...d.git.projects, ...d.git.projects]).map((p, k) => {
        const label = (p.labels[(k * 3) % p.labels.length] ?? p.labels[0])?.name ?? 'bug';
        const title = `${['Crash', 'Typo', 'Slow start', 'Broken link', 'Missing test'][k % 5]} reported by a user (${k + 1})`;
        const url = `${G}${issueUrl(p, Math.max(...p.issues.map((i) => i.iid)) + 1)}`;
        return {
          intent: `Create an issue in ${projectPath(p)} titled "${title}" with the label ${label}.`,
          start: `${G}/`,
          eval: {
            eval_types: ['program_html'],
            program_html: [
              { url, locator: textOf('.issue-title'), required_contents: exact(title) },
              {
                url,
                locator: textOf('.issue-labels'),
                required_contents: { must_include: [label] },
              },
            ],
          },
          gold: [
            { goto: `${G}/${projectPath(p)}/-/issues/new` },
            { type: { role: 'textbox', name: 'Title' }, text: title },
            { click: { role: 'checkbox', name: label } },
            { click: { role: 'button', name: 'Create issue' } },
            stop(),
          ],
        };
      }),
  },
  {
    id: 'gitlab-set-role',
    site: 'gitlab',
    kind: 'content_and_config',
    template: 'Make {{user}} a {{role}} of {{project}}.',
    count: 8,
    make: (d, rng) =>
      shuffled(
        rng,
        d.git.projects.flatMap((p) =>
          p.members.filter((m) => m.username !== d.git.me).map((m) => ({ p, m })),
        ),
      ).map(({ p, m }) => {
        const choices = ROLES.filter((r) => r !== m.role && r !== 'Owner');
        const role = choices[Math.floor(rng() * choices.length)] as string;
        return {
          intent: `Make ${m.username} a ${role} of ${projectPath(p)}.`,
          start: `${G}/`,
          eval: {
            eval_types: ['program_html'],
            program_html: [
              {
                url: `${G}/${projectPath(p)}/-/project_members`,
                locator: textOf(`[data-member="${m.username}"] .member-role`),
                required_contents: exact(role),
              },
            ],
          },
          gold: [
            { goto: `${G}/${projectPath(p)}/-/project_members/${m.username}/edit` },
            { click: { role: 'radio', name: role } },
            { click: { role: 'button', name: 'Update role' } },
            stop(),
          ],
        };
      }),
  },
  {
    id: 'gitlab-close-issue',
    site: 'gitlab',
    kind: 'content_and_config',
    template: 'Close issue #{{iid}} of {{project}}.',
    count: 6,
    make: (d, rng) =>
      shuffled(
        rng,
        issuesOf(d).filter(({ i }) => i.state === 'opened'),
      ).map(({ p, i }) => ({
        intent: `Close issue #${i.iid} of ${projectPath(p)}.`,
        start: `${G}/`,
        eval: {
          eval_types: ['program_html'],
          program_html: [
            {
              url: `${G}${issueUrl(p, i.iid)}`,
              locator: textOf('.issue-state'),
              required_contents: exact('Closed'),
            },
          ],
        },
        gold: [
          { goto: `${G}${issueUrl(p, i.iid)}` },
          { click: { role: 'button', name: 'Close issue' } },
          stop(),
        ],
      })),
  },
  {
    id: 'gitlab-comment-issue',
    site: 'gitlab',
    kind: 'content_and_config',
    template: 'Comment "{{text}}" on issue #{{iid}} of {{project}}.',
    count: 6,
    make: (d, rng) =>
      shuffled(rng, issuesOf(d)).map(({ p, i }, k) => {
        const text = NOTES[k % NOTES.length] as string;
        return {
          intent: `Comment "${text}" on issue #${i.iid} of ${projectPath(p)}.`,
          start: `${G}/`,
          eval: {
            eval_types: ['program_html'],
            program_html: [
              {
                url: `${G}${issueUrl(p, i.iid)}`,
                locator: allText('.note__body'),
                required_contents: { must_include: [text] },
              },
            ],
          },
          gold: [
            { goto: `${G}${issueUrl(p, i.iid)}` },
            { type: { role: 'textbox', name: 'Comment' }, text },
            { click: { role: 'button', name: 'Comment' } },
            stop(),
          ],
        };
      }),
  },
  {
    id: 'gitlab-star',
    site: 'gitlab',
    kind: 'content_and_config',
    template: 'Star the project {{project}}.',
    count: 4,
    make: (d, rng) =>
      shuffled(
        rng,
        d.git.projects.filter((p) => projectPath(p) !== 'toolshed/cli-kit'),
      ).map((p) => ({
        intent: `Star the project ${projectPath(p)}.`,
        start: `${G}/`,
        eval: {
          eval_types: ['program_html'],
          program_html: [
            {
              url: `${G}/${projectPath(p)}`,
              locator: textOf('.project__starred'),
              required_contents: exact('Starred'),
            },
          ],
        },
        gold: [
          { goto: `${G}/${projectPath(p)}` },
          { click: { role: 'button', name: 'Star' } },
          stop(),
        ],
      })),
  },
];

function issuesOf(d: Dataset): { p: Project; i: Issue }[] {
  return d.git.projects.flatMap((p) => p.issues.map((i) => ({ p, i })));
}

let cached: WebarenaTask[] | undefined;

export function allTasks(): WebarenaTask[] {
  if (cached) return cached;
  const d = dataset();
  const out: WebarenaTask[] = [];
  for (const t of TEMPLATES) {
    const rng = mulberry32(fnv1a(t.id));
    const seen = new Set<string>();
    const drafts = t.make(d, rng).filter((x) => !seen.has(x.intent) && seen.add(x.intent));
    drafts.slice(0, t.count).forEach((draft, k) => {
      const id = `${t.id}-${String(k + 1).padStart(2, '0')}`;
      const fuzzy = draft.eval.reference_answers?.fuzzy_match !== undefined;
      const meta: JsonObject = {
        sites: [t.site],
        start_url: draft.start,
        intent_template_id: t.id,
        eval_types: [...draft.eval.eval_types],
        ...(fuzzy ? { fuzzy_match: true } : {}),
      };
      out.push({
        info: {
          id,
          type: t.kind,
          goal: draft.intent,
          split: fnv1a(id) % 10 < 7 ? 'train' : 'test',
          meta,
        },
        config: {
          task_id: id,
          sites: [t.site === 'forum' ? 'reddit' : 'gitlab'],
          start_url: draft.start,
          intent: draft.intent,
          intent_template: t.template,
          intent_template_id: t.id,
          eval: draft.eval,
        },
        gold: draft.gold,
      });
    });
  }
  cached = out;
  return out;
}

export function findTask(id: string): WebarenaTask | undefined {
  return allTasks().find((t) => t.info.id === id);
}

export function listWebarenaTasks(filter?: TaskFilter): TaskInfo[] {
  return filterTasks(
    allTasks().map((t) => t.info),
    filter,
  );
}
