// One episode's copy of both sites' data (a deep copy of the seeded dataset, rebuilt on every reset),
// with the changes the sites' forms make and a log of them. Only the site servers mutate it.
import { type Dataset, dataset, type Issue, type Post, type Project, type Role } from './data.ts';

export interface SiteStore {
  data: Dataset;
  /** My votes: `post:<id>` / `comment:<id>` -> 1 | -1. */
  votes: Record<string, 1 | -1>;
  subscriptions: string[];
  starred: string[];
  /** What the forms changed, in order ("comment on post 12"). */
  log: string[];
  /** Form submissions (POSTs) received, accepted or not. */
  posts: number;
  /** One message shown on the next page of a site (after a redirect), then dropped. */
  flash: { forum: string | null; gitlab: string | null };
  clock: number;
}

const INITIAL_SUBSCRIPTIONS = ['books', 'cycling', 'homelab'];
const INITIAL_STARS = ['toolshed/cli-kit'];

export function newStore(): SiteStore {
  const data = structuredClone(dataset());
  return {
    data,
    votes: {},
    subscriptions: [...INITIAL_SUBSCRIPTIONS],
    starred: [...INITIAL_STARS],
    log: [],
    posts: 0,
    flash: { forum: null, gitlab: null },
    clock: 100_000,
  };
}

export function findPost(store: SiteStore, forum: string, id: number): Post | undefined {
  return store.data.forum.posts.find((p) => p.id === id && p.forum === forum);
}

export function findProject(store: SiteStore, ns: string, name: string): Project | undefined {
  return store.data.git.projects.find((p) => p.namespace === ns && p.name === name);
}

export function findIssue(project: Project, iid: number): Issue | undefined {
  return project.issues.find((i) => i.iid === iid);
}

export function projectPath(p: Pick<Project, 'namespace' | 'name'>): string {
  return `${p.namespace}/${p.name}`;
}

export function score(x: { up: number; down: number }): number {
  return x.up - x.down;
}

// ---- forum changes --------------------------------------------------------------------------

export function addComment(store: SiteStore, post: Post, body: string): void {
  const comments = store.data.forum.comments;
  const id = Math.max(0, ...comments.map((c) => c.id)) + 1;
  store.clock += 1;
  comments.push({
    id,
    postId: post.id,
    parentId: null,
    author: store.data.forum.me,
    body,
    up: 1,
    down: 0,
    at: store.clock,
  });
  store.log.push(`comment on post ${post.id}`);
}

export function vote(store: SiteStore, post: Post, dir: 1 | -1): void {
  const key = `post:${post.id}`;
  const before = store.votes[key];
  if (before === dir) return;
  if (before === 1) post.up -= 1;
  if (before === -1) post.down -= 1;
  if (dir === 1) post.up += 1;
  else post.down += 1;
  store.votes[key] = dir;
  store.log.push(`${dir === 1 ? 'upvote' : 'downvote'} post ${post.id}`);
}

export function createPost(store: SiteStore, forum: string, title: string, body: string): Post {
  const posts = store.data.forum.posts;
  store.clock += 1;
  const post: Post = {
    id: Math.max(0, ...posts.map((p) => p.id)) + 1,
    forum,
    title,
    body,
    author: store.data.forum.me,
    up: 1,
    down: 0,
    at: store.clock,
  };
  posts.push(post);
  store.votes[`post:${post.id}`] = 1;
  store.log.push(`create post ${post.id} in ${forum}`);
  return post;
}

export function setSubscription(store: SiteStore, forum: string, on: boolean): void {
  const has = store.subscriptions.includes(forum);
  if (has === on) return;
  const f = store.data.forum.forums.find((x) => x.name === forum);
  if (f) f.subscribers += on ? 1 : -1;
  store.subscriptions = on
    ? [...store.subscriptions, forum]
    : store.subscriptions.filter((x) => x !== forum);
  store.log.push(`${on ? 'subscribe to' : 'unsubscribe from'} ${forum}`);
}

// ---- code host changes -----------------------------------------------------------------------

export function createIssue(
  store: SiteStore,
  project: Project,
  input: { title: string; description: string; labels: string[]; assignee: string | null },
): Issue {
  store.clock += 1;
  const issue: Issue = {
    iid: Math.max(0, ...project.issues.map((i) => i.iid)) + 1,
    title: input.title,
    description: input.description,
    author: store.data.git.me,
    assignee: input.assignee,
    labels: project.labels.map((l) => l.name).filter((l) => input.labels.includes(l)),
    state: 'opened',
    at: store.clock,
    notes: [],
  };
  project.issues.push(issue);
  store.log.push(`create issue ${projectPath(project)}#${issue.iid}`);
  return issue;
}

export function addNote(store: SiteStore, project: Project, issue: Issue, body: string): void {
  store.clock += 1;
  issue.notes.push({ author: store.data.git.me, body, at: store.clock });
  store.log.push(`comment on ${projectPath(project)}#${issue.iid}`);
}

export function setIssueState(
  store: SiteStore,
  project: Project,
  issue: Issue,
  state: 'opened' | 'closed',
): void {
  if (issue.state === state) return;
  issue.state = state;
  store.log.push(`${state === 'closed' ? 'close' : 'reopen'} ${projectPath(project)}#${issue.iid}`);
}

export function setRole(store: SiteStore, project: Project, username: string, role: Role): void {
  const m = project.members.find((x) => x.username === username);
  if (!m || m.role === role) return;
  m.role = role;
  store.log.push(`set role of ${username} in ${projectPath(project)} to ${role}`);
}

export function setStar(store: SiteStore, project: Project, on: boolean): void {
  const path = projectPath(project);
  const has = store.starred.includes(path);
  if (has === on) return;
  project.stars += on ? 1 : -1;
  store.starred = on ? [...store.starred, path] : store.starred.filter((x) => x !== path);
  store.log.push(`${on ? 'star' : 'unstar'} ${path}`);
}
