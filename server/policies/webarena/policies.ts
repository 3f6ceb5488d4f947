// Scripted webarena policies: one web agent that reads the intent (our task templates' wording) and
// the accessibility tree, and acts with WebArena's text actions, with one flaw switched on per
// policy. `careful` searches for named entities, opens the detail page, answers from it and checks
// the page after every form; `no-search` navigates only by clicking (never the search box, never
// goto); `stops-early` answers from the first page that mentions the entity; `no-verify` submits
// forms the quick way (WebArena's default Enter after typing) and never reads the result page.
import { DISPLAY_ORIGIN } from '../../../bridges/webarena/server.ts';
import { type AgentIo, coroutineSession } from '../code-repair/coroutine.ts';
import type { Policy, PolicyDescriptor } from '../types.ts';
import { Browser, type El, firstNumber } from './page.ts';

export interface WebFlaws {
  noSearch?: boolean;
  stopsEarly?: boolean;
  noVerify?: boolean;
}

const F = DISPLAY_ORIGIN.forum;
const G = DISPLAY_ORIGIN.gitlab;
const ROLES = ['Guest', 'Reporter', 'Developer', 'Maintainer', 'Owner'];
const lc = (s: string) => s.toLowerCase();
const exactly = (s: string) => new RegExp(`^${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'i');

class Agent {
  constructor(
    readonly b: Browser,
    readonly flaws: WebFlaws,
  ) {}

  /** The lines after an element, up to `n` (the rest of its block, roughly). */
  after(el: El | undefined, n = 8): El[] {
    if (!el) return [];
    const all = this.b.els();
    const i = all.findIndex((e) => e.id === el.id);
    return i < 0 ? [] : all.slice(i + 1, i + 1 + n);
  }

  /** Up to the top of the page (the header with the search box) when it is out of view. */
  async toTop(): Promise<void> {
    for (let k = 0; k < 6 && !this.b.find(/searchbox/, /Search/) && this.b.stepsLeft > 2; k++)
      await this.b.act('scroll [up]');
  }

  async search(site: 'forum' | 'gitlab', query: string): Promise<void> {
    await this.toTop();
    const box = this.b.find('searchbox', site === 'forum' ? 'Search the forum' : 'Search GitLab');
    if (box) await this.b.type(box, query, true, 'search');
  }

  // ---- forum ----

  async forumPage(forum: string): Promise<void> {
    if (this.flaws.noSearch) {
      await this.toTop();
      const forums = this.b.find('link', 'Forums');
      if (forums) await this.b.click(forums);
      const link = await this.b.hunt('link', new RegExp(`^${forum}$`, 'i'), 2);
      if (link) await this.b.click(link);
      return;
    }
    await this.b.goto(`${F}/f/${forum}`);
  }

  /** Opens a post by its title; `early` returns on the first page that mentions it. */
  async openPost(title: string, forum?: string): Promise<'post' | 'mentioned' | 'lost'> {
    const want = exactly(title);
    const here = this.b.find('link', want);
    if (here && !this.flaws.stopsEarly) {
      await this.b.click(here);
      return 'post';
    }
    if (this.flaws.noSearch) {
      const forums = forum ? [forum] : await this.forumNames();
      for (const f of forums) {
        if (this.b.stepsLeft < 4) break;
        await this.forumPage(f);
        const link = await this.b.hunt('link', want, 3);
        if (link) {
          await this.b.click(link);
          return 'post';
        }
      }
      return 'lost';
    }
    await this.search('forum', title);
    const link = await this.b.reveal('link', want);
    if (!link) return 'lost';
    if (this.flaws.stopsEarly) return 'mentioned';
    await this.b.click(link);
    return 'post';
  }

  async forumNames(): Promise<string[]> {
    await this.toTop();
    const forums = this.b.find('link', 'Forums');
    if (forums) await this.b.click(forums);
    const names: string[] = [];
    for (let k = 0; k < 3; k++) {
      for (const e of this.b.els())
        if (
          e.role === 'link' &&
          /^[A-Z]/.test(e.name) &&
          !['Postmill', 'Forums', 'Next page', 'Previous page'].includes(e.name)
        )
          if (!names.includes(lc(e.name).replace(/ /g, '')))
            names.push(lc(e.name).replace(/ /g, ''));
      await this.b.act('scroll [down]');
    }
    return names;
  }

  /** The link right after the StaticText that starts with `label` (e.g. "Submitted by"). */
  linkAfterText(label: RegExp): El | undefined {
    const all = this.b.els();
    const i = all.findIndex((e) => e.role === 'StaticText' && label.test(e.name));
    return i < 0 ? undefined : all.slice(i + 1, i + 4).find((e) => e.role === 'link');
  }

  /** Answers from a block that mentions the entity: the first number after it, or the first link. */
  earlyNumber(title: string): string {
    const el = this.b.find('link', exactly(title));
    return (
      this.after(el)
        .map((e) => firstNumber(e.name))
        .find((n) => n !== undefined) ?? ''
    );
  }

  /** After a form: does the page now show what the task wanted? */
  async shows(text: string): Promise<boolean> {
    if (this.b.text.includes(text)) return true;
    const el = await this.b.reveal(
      /./,
      new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i'),
      4,
    );
    return el !== undefined;
  }

  /** Types into a field and submits: careful uses the button and checks; no-verify presses Enter. */
  async fill(fields: [El | undefined, string][], submit: string, expect: string): Promise<string> {
    if (this.flaws.noVerify) {
      const [first] = fields;
      if (first?.[0]) await this.b.type(first[0], first[1], true, 'type and press Enter');
      for (const [el, text] of fields.slice(1)) {
        const again = el && this.b.find(el.role, el.name);
        if (again) await this.b.type(again, text, false);
      }
      return this.b.stop('', 'submitted');
    }
    for (const [el, text] of fields) if (el) await this.b.type(el, text, false);
    const button = await this.b.reveal('button', submit);
    if (button) await this.b.click(button, `submit: ${submit}`);
    if (!(await this.shows(expect)) && this.b.stepsLeft > 3) {
      // Not there: one more try from the form (the page kept it, with the error).
      const again = await this.b.reveal('button', submit);
      if (again) await this.b.click(again);
    }
    return this.b.stop('', 'checked the result page');
  }

  async clickAndCheck(button: string, expect: string): Promise<string> {
    const el = await this.b.reveal('button', button);
    if (!el) return this.b.stop('', `no ${button} button`);
    await this.b.click(el, button);
    if (!this.flaws.noVerify) await this.shows(expect);
    return this.b.stop('');
  }

  // ---- code host ----

  async project(path: string): Promise<void> {
    if (this.flaws.noSearch) {
      await this.toTop();
      const projects = this.b.find('link', 'Projects');
      if (projects) await this.b.click(projects);
      const [ns, name] = path.split('/');
      const link = await this.b.hunt('link', exactly(`${ns} / ${name}`), 2);
      if (link) await this.b.click(link);
      return;
    }
    await this.b.goto(`${G}/${path}`);
  }

  async projectSection(path: string, section: RegExp): Promise<void> {
    await this.project(path);
    const link = await this.b.reveal('link', section);
    if (link) await this.b.click(link);
  }

  /** Opens an issue by number (from the list of all issues); early: answers on the list. */
  async openIssue(path: string, iid: number): Promise<El | undefined> {
    if (this.flaws.noSearch) {
      await this.projectSection(path, /^Issues \d+$/);
      const all = this.b.find('link', /^All \d+$/);
      if (all) await this.b.click(all);
    } else await this.b.goto(`${G}/${path}/-/issues?state=all`);
    const meta = await this.b.hunt('StaticText', new RegExp(`^#${iid} · `), 4);
    if (!meta) return undefined;
    if (this.flaws.stopsEarly) return meta;
    const all = this.b.els();
    const i = all.findIndex((e) => e.id === meta.id);
    const link = all
      .slice(Math.max(0, i - 3), i)
      .reverse()
      .find((e) => e.role === 'link');
    if (link) await this.b.click(link);
    return undefined;
  }

  async openIssueByTitle(path: string, title: string): Promise<'issue' | 'mentioned' | 'lost'> {
    if (this.flaws.noSearch) {
      await this.projectSection(path, /^Issues \d+$/);
      const all = this.b.find('link', /^All \d+$/);
      if (all) await this.b.click(all);
    } else {
      await this.b.goto(`${G}/${path}/-/issues?state=all`);
      const box = this.b.find('searchbox', 'Search or filter results');
      if (box) await this.b.type(box, title, true, 'filter');
    }
    const link = await this.b.hunt('link', exactly(title), 4);
    if (!link) return 'lost';
    if (this.flaws.stopsEarly) return 'mentioned';
    await this.b.click(link);
    return 'issue';
  }

  /** The StaticTexts after a label ("Labels: ") up to the next non-text element. */
  textsAfter(label: string): string[] {
    const all = this.b.els();
    const i = all.findIndex((e) => e.role === 'StaticText' && e.name.startsWith(label));
    const out: string[] = [];
    for (const e of all.slice(i + 1)) {
      if (i < 0 || e.role !== 'StaticText') break;
      out.push(e.name);
    }
    return out;
  }
}

type Handler = (a: Agent, m: RegExpExecArray) => Promise<string>;

const HANDLERS: [RegExp, Handler][] = [
  [
    /^How many comments are there on the post "(.+)" in f\/(\w+)\?$/,
    async (a, [, title, forum]) => {
      const at = await a.openPost(title as string, forum);
      if (at === 'mentioned') return a.b.stop(a.earlyNumber(title as string));
      const h =
        a.b.find('heading', /^\d+ comments?$/) ?? (await a.b.reveal('heading', /^\d+ comments?$/));
      return a.b.stop(firstNumber(h?.name ?? '') ?? '');
    },
  ],
  [
    /^Who submitted the post "(.+)"\? Answer with the username\.$/,
    async (a, [, title]) => {
      await a.openPost(title as string);
      const by =
        a.linkAfterText(/^Submitted by|^by$| by /) ??
        a
          .after(a.b.find('link', exactly(title as string)))
          .find((e) => e.role === 'link' && !e.name.startsWith('f/'));
      return a.b.stop(by?.name ?? '');
    },
  ],
  [
    /^What is the title of the highest-scoring post in f\/(\w+)\?$/,
    async (a, [, forum]) => {
      await a.forumPage(forum as string);
      if (!a.flaws.stopsEarly) {
        const top = a.b.find('link', 'top');
        if (top) await a.b.click(top);
      }
      const first = a.b
        .els()
        .find((e) => e.role === 'heading' && e.name !== 'Front page' && !e.name.startsWith('f/'));
      return a.b.stop(first?.name ?? '');
    },
  ],
  [
    /^How many posts has (\w+) submitted on the forum\?$/,
    async (a, [, user]) => {
      if (a.flaws.noSearch) {
        // Only by clicking: find the user's name somewhere on the forum pages.
        for (const f of await a.forumNames()) {
          if (a.b.stepsLeft < 4) break;
          await a.forumPage(f);
          const link = await a.b.hunt('link', user as string, 2);
          if (link) {
            await a.b.click(link);
            break;
          }
        }
      } else await a.b.goto(`${F}/user/${user}`);
      // The first number on the page that mentions the user: the year it joined.
      if (a.flaws.stopsEarly)
        return a.b.stop(firstNumber(a.b.find('StaticText', /^Joined/)?.name ?? '') ?? '');
      const n = a.b.find('StaticText', /^\d+ submissions?$/);
      return a.b.stop(firstNumber(n?.name ?? '') ?? '');
    },
  ],
  [
    /^What is the score \(upvotes minus downvotes\) of the newest post in f\/(\w+)\?$/,
    async (a, [, forum]) => {
      await a.forumPage(forum as string);
      if (!a.flaws.stopsEarly) {
        const sort = a.b.find('link', 'new');
        if (sort) await a.b.click(sort);
      }
      const pts = a.b.find('StaticText', /^-?\d+ points$/);
      return a.b.stop(firstNumber(pts?.name ?? '') ?? '');
    },
  ],
  [
    /^In which forum was the post "(.+)" submitted\? Answer with the forum name\.$/,
    async (a, [, title]) => {
      await a.openPost(title as string);
      const link = a.b.els().find((e) => e.role === 'link' && e.name.startsWith('f/'));
      return a.b.stop(link?.name.slice(2) ?? '');
    },
  ],
  [
    /^What does the highest-scoring comment on "(.+)" say\?$/,
    async (a, [, title]) => {
      const at = await a.openPost(title as string);
      if (at !== 'post') return a.b.stop('');
      const form = await a.b.reveal('button', 'Post comment');
      const text = a
        .after(form, 12)
        .find((e) => e.role === 'StaticText' && e.name.length > 12 && !e.name.startsWith(' ·'));
      return a.b.stop(text?.name ?? '');
    },
  ],
  [
    /^Show me the posts of f\/(\w+), newest first\.$/,
    async (a, [, forum]) => {
      await a.forumPage(forum as string);
      if (a.flaws.stopsEarly) return a.b.stop('');
      const sort = a.b.find('link', 'new');
      if (sort) await a.b.click(sort);
      return a.b.stop('');
    },
  ],
  [
    /^Open the profile page of the person who submitted "(.+)"\.$/,
    async (a, [, title]) => {
      const at = await a.openPost(title as string);
      if (at !== 'post') return a.b.stop('');
      const by = a.linkAfterText(/^Submitted by/);
      if (by) await a.b.click(by);
      return a.b.stop('');
    },
  ],
  [
    /^Search the forum for posts about "(.+)"\.$/,
    async (a, [, query]) => {
      if (a.flaws.noSearch) {
        await a.openPost(query as string);
        return a.b.stop('');
      }
      await a.search('forum', query as string);
      return a.b.stop('');
    },
  ],
  [
    /^Reply to the post "(.+)" in f\/(\w+) with the comment "(.+)"\.$/,
    async (a, [, title, forum, text]) => {
      const flawsEarly = a.flaws.stopsEarly;
      a.flaws.stopsEarly = false;
      const at = await a.openPost(title as string, forum);
      a.flaws.stopsEarly = flawsEarly;
      if (at !== 'post') return a.b.stop('');
      const box = await a.b.reveal('textbox', 'Write a comment');
      return a.fill([[box, text as string]], 'Post comment', text as string);
    },
  ],
  [
    /^Upvote the post "(.+)"\.$/,
    async (a, [, title]) => {
      const early = a.flaws.stopsEarly;
      a.flaws.stopsEarly = false;
      const at = await a.openPost(title as string);
      a.flaws.stopsEarly = early;
      if (at !== 'post') return a.b.stop('');
      return a.clickAndCheck('Upvote', 'upvoted');
    },
  ],
  [
    /^Create a post in f\/(\w+) titled "(.+)" with the body "(.+)"\.$/,
    async (a, [, forum, title, body]) => {
      await a.forumPage(forum as string);
      const link = await a.b.reveal('link', 'Submit a new post');
      if (link) await a.b.click(link);
      const t = a.b.find('textbox', 'Title');
      const d = a.b.find('textbox', 'Body');
      return a.fill(
        [
          [t, title as string],
          [d, body as string],
        ],
        'Create submission',
        body as string,
      );
    },
  ],
  [
    /^Subscribe to f\/(\w+)\.$/,
    async (a, [, forum]) => {
      await a.forumPage(forum as string);
      return a.clickAndCheck('Subscribe', 'Subscribed');
    },
  ],
  [
    /^How many open issues does (\S+) have\?$/,
    async (a, [, path]) => {
      await a.project(path as string);
      const link = await a.b.reveal('link', /^Issues \d+$/);
      return a.b.stop(firstNumber(link?.name ?? '') ?? '');
    },
  ],
  [
    /^Who is assigned to issue #(\d+) of (\S+)\? Answer with the username\.$/,
    async (a, [, iid, path]) => {
      const early = await a.openIssue(path as string, Number(iid));
      if (early) return a.b.stop(/assigned to (\S+)/.exec(early.name)?.[1] ?? '');
      return a.b.stop(a.textsAfter('Assignee:')[0] ?? '');
    },
  ],
  [
    /^Which labels does the issue "(.+)" in (\S+) carry\?$/,
    async (a, [, title, path]) => {
      const at = await a.openIssueByTitle(path as string, title as string);
      if (at === 'mentioned') {
        const labels = a
          .after(a.b.find('link', exactly(title as string)), 6)
          .filter(
            (e) => e.role === 'StaticText' && !e.name.startsWith('#') && !/more$/.test(e.name),
          )
          .map((e) => e.name);
        return a.b.stop(labels.join(', '));
      }
      return a.b.stop(a.textsAfter('Labels:').join(', '));
    },
  ],
  [
    /^What role does (\S+) have in (\S+)\?$/,
    async (a, [, user, path]) => {
      await a.projectSection(path as string, /^Members$/);
      const cell = await a.b.reveal('cell', new RegExp(`@${user}$`));
      const role = a.after(cell, 3).find((e) => ROLES.includes(e.name));
      return a.b.stop(role?.name ?? '');
    },
  ],
  [
    /^How many merge requests of (\S+) are open\?$/,
    async (a, [, path]) => {
      await a.project(path as string);
      const link = await a.b.reveal('link', /^Merge requests \d+$/);
      return a.b.stop(firstNumber(link?.name ?? '') ?? '');
    },
  ],
  [
    /^Which project has an issue titled "(.+)"\? Answer with its path \(namespace\/name\)\.$/,
    async (a, [, title]) => {
      if (a.flaws.noSearch) {
        await a.toTop();
        const explore = a.b.find('link', 'Explore');
        if (explore) await a.b.click(explore);
        const names = a.b
          .els()
          .filter((e) => e.role === 'link' && / \/ /.test(e.name))
          .map((e) => e.name.replace(' / ', '/'));
        for (const path of names) {
          if (a.b.stepsLeft < 6) break;
          if ((await a.openIssueByTitle(path, title as string)) !== 'lost') return a.b.stop(path);
        }
        return a.b.stop('');
      }
      await a.search('gitlab', title as string);
      const link = await a.b.reveal('link', exactly(title as string));
      const meta = a.after(link, 2).find((e) => /#\d+ · /.test(e.name));
      return a.b.stop(meta?.name.split('#')[0] ?? '');
    },
  ],
  [
    /^In one sentence, what does issue #(\d+) of (\S+) report\?$/,
    async (a, [, iid, path]) => {
      const early = await a.openIssue(path as string, Number(iid));
      if (early) return a.b.stop('');
      const h = a.b.find('heading', /./);
      const desc = a
        .after(a.b.find('StaticText', /opened by/), 2)
        .find((e) => e.role === 'StaticText');
      return a.b.stop((desc?.name ?? h?.name ?? '').split('. ')[0] ?? '');
    },
  ],
  [
    /^Show me the open issues of (\S+) that carry the label (.+)\.$/,
    async (a, [, path, label]) => {
      await a.projectSection(path as string, /^Labels$/);
      if (a.flaws.stopsEarly) return a.b.stop('');
      const link = await a.b.reveal('link', `Issues with ${label}`);
      if (link) await a.b.click(link);
      return a.b.stop('');
    },
  ],
  [
    /^Open the merge request "(.+)" of (\S+)\.$/,
    async (a, [, title, path]) => {
      await a.projectSection(path as string, /^Merge requests \d+$/);
      const all = a.b.find('link', /^All \d+$/);
      if (all) await a.b.click(all);
      const link = await a.b.hunt('link', exactly(title as string), 3);
      if (link && !a.flaws.stopsEarly) await a.b.click(link);
      return a.b.stop('');
    },
  ],
  [
    /^Go to the page that lists the members of (\S+)\.$/,
    async (a, [, path]) => {
      if (a.flaws.stopsEarly) {
        await a.project(path as string);
        return a.b.stop('');
      }
      await a.projectSection(path as string, /^Members$/);
      return a.b.stop('');
    },
  ],
  [
    /^Create an issue in (\S+) titled "(.+)" with the label (.+)\.$/,
    async (a, [, path, title, label]) => {
      await a.projectSection(path as string, /^Issues \d+$/);
      const link = await a.b.reveal('link', 'New issue');
      if (link) await a.b.click(link);
      const t = a.b.find('textbox', 'Title');
      if (a.flaws.noVerify) {
        if (t) await a.b.type(t, title as string, true, 'type and press Enter');
        return a.b.stop('', 'submitted');
      }
      if (t) await a.b.type(t, title as string, false);
      const box = await a.b.reveal('checkbox', label as string);
      if (box) await a.b.click(box);
      const create = await a.b.reveal('button', 'Create issue');
      if (create) await a.b.click(create);
      await a.shows(label as string);
      return a.b.stop('');
    },
  ],
  [
    /^Make (\S+) a (\w+) of (\S+)\.$/,
    async (a, [, user, role, path]) => {
      await a.projectSection(path as string, /^Members$/);
      const edit = await a.b.reveal('link', `Edit role of ${user}`);
      if (edit) await a.b.click(edit);
      const radio = await a.b.reveal('radio', role as string);
      if (radio) await a.b.click(radio);
      return a.clickAndCheck('Update role', `updated to ${role}`);
    },
  ],
  [
    /^Close issue #(\d+) of (\S+)\.$/,
    async (a, [, iid, path]) => {
      const early = a.flaws.stopsEarly;
      a.flaws.stopsEarly = false;
      await a.openIssue(path as string, Number(iid));
      a.flaws.stopsEarly = early;
      return a.clickAndCheck('Close issue', 'Reopen issue');
    },
  ],
  [
    /^Comment "(.+)" on issue #(\d+) of (\S+)\.$/,
    async (a, [, text, iid, path]) => {
      const early = a.flaws.stopsEarly;
      a.flaws.stopsEarly = false;
      await a.openIssue(path as string, Number(iid));
      a.flaws.stopsEarly = early;
      const box = await a.b.reveal('textbox', 'Comment', 6);
      return a.fill([[box, text as string]], 'Comment', text as string);
    },
  ],
  [
    /^Star the project (\S+)\.$/,
    async (a, [, path]) => {
      await a.project(path as string);
      return a.clickAndCheck('Star', 'Starred');
    },
  ],
];

async function webAgent(
  io: AgentIo,
  first: { text: string },
  goal: string,
  maxSteps: number,
  flaws: WebFlaws,
): Promise<string> {
  const b = new Browser(io, first, maxSteps);
  const entry = HANDLERS.map(([re, handler]) => ({ m: re.exec(goal), handler })).find((x) => x.m);
  if (!entry?.m) return b.stop('', 'did not understand the task');
  await entry.handler(new Agent(b, { ...flaws }), entry.m);
  // Control comes back only when the final stop was refused (a harness blocked it): the agent takes
  // the hint once and does the task again the careful way, from the page it is on.
  if (b.stepsLeft <= 1) return 'out of steps';
  await entry.handler(new Agent(b, {}), entry.m);
  return 'stop refused twice';
}

function webPolicy(descriptor: PolicyDescriptor, flaws: WebFlaws): Policy {
  return {
    descriptor,
    async start(context) {
      return coroutineSession((io, first) =>
        webAgent(io, first, context.task.goal, context.maxSteps, flaws),
      );
    },
  };
}

const BRIDGE = 'webarena';

export const webarenaPolicies: Policy[] = [
  webPolicy(
    {
      id: 'scripted:webarena-careful',
      bridge: BRIDGE,
      kind: 'scripted',
      description:
        'Reads the intent, finds named posts and issues with the search box (projects by their URL), opens the detail page, answers from it, fills forms field by field, submits with the button and checks the result page.',
      weaknesses: [
        'Only understands the intent wordings it was written for.',
        'Cannot grade itself on answers only an LLM judge scores.',
      ],
    },
    {},
  ),
  webPolicy(
    {
      id: 'scripted:webarena-no-search',
      bridge: BRIDGE,
      kind: 'scripted',
      description:
        'The same agent, but it navigates only by clicking: never the search box, never goto.',
      weaknesses: [
        'Never uses search: finds posts and issues by paging through lists, and runs out of steps when the intent does not say where to look.',
      ],
    },
    { noSearch: true },
  ),
  webPolicy(
    {
      id: 'scripted:webarena-stops-early',
      bridge: BRIDGE,
      kind: 'scripted',
      description:
        'The same agent, but it answers from the first page that mentions the entity (a list or search result) instead of opening it.',
      weaknesses: [
        'Answers from list pages: truncated labels, the first number near a title, a list instead of the page asked for.',
      ],
    },
    { stopsEarly: true },
  ),
  webPolicy(
    {
      id: 'scripted:webarena-no-verify',
      bridge: BRIDGE,
      kind: 'scripted',
      description:
        "The same agent, but it submits forms the quick way (WebArena's default Enter after typing) and stops without reading the result page.",
      weaknesses: [
        'Submits without checking: Enter in a text area adds a line instead of posting, and Enter in a title field posts the form before the other fields are set.',
      ],
    },
    { noVerify: true },
  ),
];
