// The seeded dataset both sites serve: a Postmill-like forum (forums, posts, comments, votes, users)
// and a GitLab-like code host (projects, issues, merge requests, labels, members). Built once per
// process from a fixed seed; every episode gets its own deep copy (store.ts), so a reset rebuilds it.
import { mulberry32 } from '../core/rng.ts';

export const DATASET_SEED = 20_240_613;

export interface ForumUser {
  name: string;
  joined: string;
}
export interface Forum {
  name: string;
  title: string;
  description: string;
  subscribers: number;
}
export interface Comment {
  id: number;
  postId: number;
  parentId: number | null;
  author: string;
  body: string;
  up: number;
  down: number;
  /** Minutes after the dataset's epoch; larger is newer. */
  at: number;
}
export interface Post {
  id: number;
  forum: string;
  title: string;
  body: string;
  author: string;
  up: number;
  down: number;
  at: number;
}
export interface ForumData {
  me: string;
  users: ForumUser[];
  forums: Forum[];
  posts: Post[];
  comments: Comment[];
}

export const ROLES = ['Guest', 'Reporter', 'Developer', 'Maintainer', 'Owner'] as const;
export type Role = (typeof ROLES)[number];

export interface GitUser {
  username: string;
  name: string;
}
export interface Label {
  name: string;
  color: string;
}
export interface Member {
  username: string;
  role: Role;
}
export interface IssueNote {
  author: string;
  body: string;
  at: number;
}
export interface Issue {
  iid: number;
  title: string;
  description: string;
  author: string;
  assignee: string | null;
  labels: string[];
  state: 'opened' | 'closed';
  at: number;
  notes: IssueNote[];
}
export interface MergeRequest {
  iid: number;
  title: string;
  author: string;
  source: string;
  target: string;
  state: 'opened' | 'merged' | 'closed';
  at: number;
}
export interface Project {
  namespace: string;
  name: string;
  description: string;
  stars: number;
  labels: Label[];
  members: Member[];
  issues: Issue[];
  mergeRequests: MergeRequest[];
}
export interface GitData {
  me: string;
  users: GitUser[];
  projects: Project[];
}

export interface Dataset {
  forum: ForumData;
  git: GitData;
}

const FORUM_USERS = [
  'quietmoth',
  'tidewalker',
  'amberlynx',
  'copperkettle',
  'northfern',
  'velvetstorm',
  'pixelheron',
  'sableriver',
  'oakandash',
  'lunarbadger',
  'fennelfox',
  'glasswing',
  'ironpetal',
  'mossyrock',
  'saltmarsh',
  'brambleowl',
  'cinderjay',
  'driftwoodkid',
  'emberwren',
  'frostmallow',
  'gingerhawk',
  'hollowpine',
  'inkblotter',
  'juniperdusk',
  'kelpforest',
  'lanternfish',
  'marigoldvan',
  'nimbuscat',
  'opaltide',
  'pebblequill',
  'quartzmoose',
  'rustyanchor',
  'sundewfly',
  'thistlebee',
  'umberstag',
  'violetcrane',
];

interface Topic {
  name: string;
  title: string;
  description: string;
  things: string[];
  verbs: string[];
}

const TOPICS: Topic[] = [
  {
    name: 'books',
    title: 'Books',
    description: 'Reading lists, reviews and arguments about endings.',
    things: [
      'a translated mystery novel',
      'an old atlas of sea routes',
      'a graphic memoir',
      'a poetry collection about rivers',
      'a history of lighthouses',
      'a cookbook from the 1950s',
      'a fantasy trilogy',
      'a biography of a chess player',
    ],
    verbs: ['finished', 'reread', 'found', 'borrowed', 'gave up on', 'annotated'],
  },
  {
    name: 'gardening',
    title: 'Gardening',
    description: 'Soil, seeds, pests and patience.',
    things: [
      'tomato seedlings',
      'a compost heap',
      'climbing roses',
      'raised beds',
      'a fig tree',
      'garlic cloves',
      'a rain barrel',
      'potted basil',
    ],
    verbs: ['planted', 'rescued', 'pruned', 'moved', 'watered', 'overwintered'],
  },
  {
    name: 'cycling',
    title: 'Cycling',
    description: 'Commutes, tours, repairs and gear.',
    things: [
      'a steel touring frame',
      'tubeless tyres',
      'a dynamo light',
      'a cargo bike',
      'a chain that skips',
      'a winter commute',
      'a mountain pass',
      'a folding bike',
    ],
    verbs: ['rebuilt', 'tested', 'rode', 'fixed', 'adjusted', 'replaced'],
  },
  {
    name: 'homelab',
    title: 'Homelab',
    description: 'Servers in closets and the networks that bind them.',
    things: [
      'a second-hand rack server',
      'a mesh network',
      'a backup script',
      'a quiet NAS',
      'a DNS filter',
      'a home VPN',
      'a UPS battery',
      'a Raspberry Pi cluster',
    ],
    verbs: ['set up', 'migrated', 'monitored', 'replaced', 'benchmarked', 'documented'],
  },
  {
    name: 'cooking',
    title: 'Cooking',
    description: 'Recipes, techniques and kitchen disasters.',
    things: [
      'sourdough starter',
      'a cast iron pan',
      'homemade ramen',
      'a slow cooker stew',
      'fresh pasta',
      'pickled onions',
      'a lemon tart',
      'dumplings',
    ],
    verbs: ['made', 'burned', 'perfected', 'tried', 'seasoned', 'froze'],
  },
  {
    name: 'astronomy',
    title: 'Astronomy',
    description: 'Telescopes, dark skies and what is up tonight.',
    things: [
      'a meteor shower',
      'a used refractor telescope',
      'the rings of Saturn',
      'a lunar eclipse',
      'a star chart app',
      'a dark sky site',
      'a comet',
      'a planisphere',
    ],
    verbs: ['watched', 'photographed', 'tracked', 'missed', 'sketched', 'found'],
  },
  {
    name: 'woodworking',
    title: 'Woodworking',
    description: 'Joinery, finishes and sawdust.',
    things: [
      'a walnut side table',
      'dovetail joints',
      'a hand plane',
      'a workbench',
      'an oak bookshelf',
      'a spoon from birch',
      'a shaker box',
      'a router jig',
    ],
    verbs: ['built', 'sanded', 'restored', 'glued', 'finished', 'carved'],
  },
  {
    name: 'photography',
    title: 'Photography',
    description: 'Cameras, light and critique.',
    things: [
      'a film camera',
      'a prime lens',
      'night street photos',
      'a studio light',
      'a tripod',
      'a portrait session',
      'bird photos',
      'a darkroom',
    ],
    verbs: ['shot', 'edited', 'developed', 'printed', 'sold', 'calibrated'],
  },
  {
    name: 'running',
    title: 'Running',
    description: 'Training plans, races and sore knees.',
    things: [
      'a first marathon',
      'trail shoes',
      'interval training',
      'a 10k race',
      'a running club',
      'a heart rate strap',
      'an ultra',
      'a hill repeat',
    ],
    verbs: ['ran', 'trained for', 'finished', 'skipped', 'paced', 'logged'],
  },
  {
    name: 'boardgames',
    title: 'Board games',
    description: 'Rules questions, game nights and collections.',
    things: [
      'a cooperative game',
      'a trading game',
      'a deck builder',
      'a wargame campaign',
      'a party game',
      'a tile laying game',
      'a legacy campaign',
      'a solo variant',
    ],
    verbs: ['played', 'taught', 'won', 'lost', 'house-ruled', 'painted'],
  },
];

const OPENERS = [
  'Finally',
  'This weekend I',
  'After months I',
  'Yesterday I',
  'Tips needed: I',
  'Update: I',
  'Question: I',
];
const COMMENT_LINES = [
  'Great write-up, thanks for sharing.',
  'I had the same problem last year and gave up.',
  'Did you try doing it in smaller steps?',
  'This is exactly what I needed to read today.',
  'Respectfully, I think this is a bad idea.',
  'Photos or it did not happen.',
  'How long did the whole thing take you?',
  'Bookmarking this for later.',
  'The second part is wrong, check the manual again.',
  'Congrats, that looks fantastic.',
  'What did it cost in the end?',
  'I would do the opposite, honestly.',
];

const GIT_USERS: GitUser[] = [
  { username: 'byteweaver', name: 'Bea Weaver' },
  { username: 'kdominguez', name: 'Kai Dominguez' },
  { username: 'mpatel', name: 'Mira Patel' },
  { username: 'oadeyemi', name: 'Ola Adeyemi' },
  { username: 'tnguyen', name: 'Tam Nguyen' },
  { username: 'lfischer', name: 'Lena Fischer' },
  { username: 'rkowalski', name: 'Rafal Kowalski' },
  { username: 'swright', name: 'Sam Wright' },
  { username: 'ybenali', name: 'Yasmin Benali' },
  { username: 'jholm', name: 'Jonas Holm' },
  { username: 'cmorales', name: 'Carmen Morales' },
  { username: 'hsato', name: 'Hiro Sato' },
  { username: 'aokafor', name: 'Ada Okafor' },
  { username: 'dmiller', name: 'Dana Miller' },
  { username: 'evolkov', name: 'Eva Volkov' },
  { username: 'pricci', name: 'Paolo Ricci' },
];

interface ProjectSeed {
  namespace: string;
  name: string;
  description: string;
  nouns: string[];
}

const PROJECTS: ProjectSeed[] = [
  {
    namespace: 'byteweaver',
    name: 'dotfiles',
    description: 'Shell, editor and terminal configuration.',
    nouns: ['zsh prompt', 'tmux config', 'vim plugin list', 'git aliases', 'install script'],
  },
  {
    namespace: 'byteweaver',
    name: 'tide-tables',
    description: 'Tide predictions for harbours, as a small web app.',
    nouns: ['harbour list', 'chart view', 'CSV export', 'timezone handling', 'offline cache'],
  },
  {
    namespace: 'openfolk',
    name: 'recipe-box',
    description: 'A self-hosted recipe manager with shopping lists.',
    nouns: ['ingredient parser', 'shopping list', 'unit converter', 'search page', 'image upload'],
  },
  {
    namespace: 'openfolk',
    name: 'trail-log',
    description: 'Log runs and rides from GPX files.',
    nouns: ['GPX importer', 'elevation chart', 'weekly summary', 'map tiles', 'pace calculator'],
  },
  {
    namespace: 'openfolk',
    name: 'seedbank',
    description: 'Inventory for community seed libraries.',
    nouns: ['seed catalogue', 'loan form', 'label printer', 'germination log', 'member list'],
  },
  {
    namespace: 'nightsky',
    name: 'starmap',
    description: 'Render star charts for any place and time.',
    nouns: ['constellation lines', 'planet positions', 'PNG export', 'horizon mask', 'legend'],
  },
  {
    namespace: 'nightsky',
    name: 'meteor-watch',
    description: 'Collects meteor counts from observers.',
    nouns: ['count form', 'radiant map', 'observer profile', 'API client', 'nightly report'],
  },
  {
    namespace: 'toolshed',
    name: 'cli-kit',
    description: 'Helpers for building command-line tools.',
    nouns: ['argument parser', 'progress bar', 'colour output', 'config loader', 'help text'],
  },
  {
    namespace: 'toolshed',
    name: 'log-lens',
    description: 'A fast viewer for large log files.',
    nouns: ['regex filter', 'follow mode', 'line numbers', 'JSON pretty printer', 'bookmarks'],
  },
  {
    namespace: 'toolshed',
    name: 'tiny-queue',
    description: 'An embeddable job queue with retries.',
    nouns: ['retry policy', 'dead letter queue', 'worker pool', 'metrics endpoint', 'scheduler'],
  },
];

const LABELS: Label[] = [
  { name: 'bug', color: '#d9534f' },
  { name: 'feature', color: '#5cb85c' },
  { name: 'documentation', color: '#5bc0de' },
  { name: 'performance', color: '#f0ad4e' },
  { name: 'good first issue', color: '#7f8c8d' },
  { name: 'help wanted', color: '#8e44ad' },
  { name: 'security', color: '#c0392b' },
  { name: 'ux', color: '#16a085' },
];

const ISSUE_TEMPLATES = [
  (n: string) => `${cap(n)} crashes on empty input`,
  (n: string) => `Add dark mode to the ${n}`,
  (n: string) => `${cap(n)} is slow with large files`,
  (n: string) => `Document how the ${n} works`,
  (n: string) => `${cap(n)} ignores the locale setting`,
  (n: string) => `Support keyboard shortcuts in the ${n}`,
  (n: string) => `${cap(n)} leaks memory after an hour`,
  (n: string) => `Rename options of the ${n}`,
  (n: string) => `Write tests for the ${n}`,
  (n: string) => `${cap(n)} shows the wrong date`,
];
const MR_TEMPLATES = [
  (n: string) => `Refactor the ${n}`,
  (n: string) => `Fix off-by-one in the ${n}`,
  (n: string) => `Speed up the ${n}`,
  (n: string) => `Add tests for the ${n}`,
];

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function pick<T>(rng: () => number, xs: readonly T[]): T {
  return xs[Math.floor(rng() * xs.length)] as T;
}

function shuffled<T>(rng: () => number, xs: readonly T[]): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

function buildForum(rng: () => number): ForumData {
  const users = FORUM_USERS.map((name, i) => ({
    name,
    joined: `20${18 + (i % 6)}-0${1 + (i % 9)}-1${i % 10}`,
  }));
  const forums = TOPICS.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    subscribers: 40 + Math.floor(rng() * 900),
  }));
  const posts: Post[] = [];
  const comments: Comment[] = [];
  const titles = new Set<string>();
  let at = 1000;
  let commentId = 1;
  for (const topic of TOPICS) {
    const count = 14 + Math.floor(rng() * 6);
    for (let i = 0; i < count; i++) {
      let title = '';
      for (let tries = 0; tries < 20; tries++) {
        const t = `${pick(rng, OPENERS)} ${pick(rng, topic.verbs)} ${pick(rng, topic.things)}`;
        if (!titles.has(t)) {
          title = t;
          break;
        }
      }
      if (!title) continue;
      titles.add(title);
      at += 7 + Math.floor(rng() * 90);
      const author = pick(rng, FORUM_USERS.slice(1));
      const id = posts.length + 1;
      const thing = topic.things.find((x) => title.endsWith(x)) ?? '';
      posts.push({
        id,
        forum: topic.name,
        title,
        body: `Some notes about ${thing}. ${pick(rng, COMMENT_LINES)} Post ${id} in ${topic.title}, by ${author}.`,
        author,
        up: Math.floor(rng() * 120),
        down: Math.floor(rng() * 30),
        at,
      });
      const n = Math.floor(rng() * 9);
      const thread: number[] = [];
      for (let c = 0; c < n; c++) {
        const parent = thread.length > 0 && rng() < 0.35 ? pick(rng, thread) : null;
        const cid = commentId++;
        comments.push({
          id: cid,
          postId: id,
          parentId: parent,
          author: pick(rng, FORUM_USERS.slice(1)),
          body: `${pick(rng, COMMENT_LINES)} (#${cid})`,
          up: Math.floor(rng() * 40),
          down: Math.floor(rng() * 25),
          at: at + 5 + c * 11,
        });
        thread.push(cid);
      }
    }
  }
  return { me: FORUM_USERS[0] as string, users, forums, posts, comments };
}

function buildGit(rng: () => number): GitData {
  const projects: Project[] = [];
  let at = 5000;
  for (const seed of PROJECTS) {
    const labels = shuffled(rng, LABELS).slice(0, 5 + Math.floor(rng() * 4));
    const others = shuffled(
      rng,
      GIT_USERS.filter((u) => u.username !== seed.namespace && u.username !== 'byteweaver'),
    ).slice(0, 4 + Math.floor(rng() * 4));
    const members: Member[] = [
      { username: 'byteweaver', role: seed.namespace === 'byteweaver' ? 'Owner' : 'Maintainer' },
      ...others.map((u) => ({ username: u.username, role: pick(rng, ROLES.slice(0, 4)) })),
    ];
    const issues: Issue[] = [];
    const used = new Set<string>();
    const nIssues = 18 + Math.floor(rng() * 10);
    for (let i = 0; i < nIssues; i++) {
      let title = '';
      for (let tries = 0; tries < 30; tries++) {
        const t = pick(rng, ISSUE_TEMPLATES)(pick(rng, seed.nouns));
        if (!used.has(t)) {
          title = t;
          break;
        }
      }
      if (!title) continue;
      used.add(title);
      at += 13 + Math.floor(rng() * 200);
      const nLabels = Math.floor(rng() * 4);
      const notes: IssueNote[] = [];
      const nNotes = Math.floor(rng() * 4);
      for (let k = 0; k < nNotes; k++)
        notes.push({
          author: pick(rng, members).username,
          body: pick(rng, [
            'I can reproduce this on the main branch.',
            'Could you attach a log?',
            'Working on a fix.',
            'This duplicates an older report.',
            'Thanks, confirmed.',
          ]),
          at: at + 3 + k * 17,
        });
      issues.push({
        iid: issues.length + 1,
        title,
        description: `${title}. Steps: open the ${pick(rng, seed.nouns)}, then use the ${pick(rng, seed.nouns)}. Expected it to work; it does not. Reported for ${seed.namespace}/${seed.name}.`,
        author: pick(rng, members).username,
        assignee: rng() < 0.7 ? pick(rng, members).username : null,
        labels: shuffled(rng, labels)
          .slice(0, nLabels)
          .map((l) => l.name),
        state: rng() < 0.65 ? 'opened' : 'closed',
        at,
        notes,
      });
    }
    const mergeRequests: MergeRequest[] = [];
    const nMr = 5 + Math.floor(rng() * 6);
    const mrTitles = new Set<string>();
    for (let i = 0; i < nMr; i++) {
      const noun = pick(rng, seed.nouns);
      const t = pick(rng, MR_TEMPLATES)(noun);
      if (mrTitles.has(t)) continue;
      mrTitles.add(t);
      at += 11 + Math.floor(rng() * 150);
      mergeRequests.push({
        iid: mergeRequests.length + 1,
        title: t,
        author: pick(rng, members).username,
        source: noun.replaceAll(' ', '-').toLowerCase(),
        target: 'main',
        state: pick(rng, ['opened', 'opened', 'merged', 'closed'] as const),
        at,
      });
    }
    projects.push({
      namespace: seed.namespace,
      name: seed.name,
      description: seed.description,
      stars: Math.floor(rng() * 60),
      labels,
      members,
      issues,
      mergeRequests,
    });
  }
  return { me: 'byteweaver', users: GIT_USERS, projects };
}

let cached: Dataset | undefined;

/** The dataset, built once per process from DATASET_SEED (deterministic on every machine). */
export function dataset(): Dataset {
  if (!cached) {
    const rng = mulberry32(DATASET_SEED);
    cached = { forum: buildForum(rng), git: buildGit(rng) };
  }
  return cached;
}
