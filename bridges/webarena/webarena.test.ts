// The webarena bridge without a browser: the action grammar, the accessibility-tree rendering, the
// evaluators, the tasks and their computed references, and the sites' forms.
import { describe, expect, it } from 'vitest';
import { type AXNode, cleanTree, newIdMemo, pyRepr, renderTree, truncateTokens } from './axtree.ts';
import { dataset } from './data.ts';
import { mustInclude, requiredContents, stringMatch, urlMatch } from './evaluators.ts';
import { forumRoute } from './sites/forum.ts';
import { gitlabRoute } from './sites/gitlab.ts';
import { newStore } from './store.ts';
import { allTasks, KINDS } from './tasks.ts';
import { parseAction, parseCommand } from './tools.ts';

describe('action grammar (WebArena id-based actions)', () => {
  it('parses every action of the space', () => {
    expect(parseCommand('click [12]')).toEqual({ ok: true, action: { kind: 'click', id: 12 } });
    expect(parseCommand('type [7] [hello world]')).toEqual({
      ok: true,
      action: { kind: 'type', id: 7, text: 'hello world', enter: true },
    });
    expect(parseCommand('type [7] [hi] [0]')).toMatchObject({ action: { enter: false } });
    expect(parseCommand('hover [3]')).toMatchObject({ action: { kind: 'hover', id: 3 } });
    expect(parseCommand('press [Control+a]')).toMatchObject({ action: { key: 'Control+a' } });
    expect(parseCommand('scroll [down]')).toMatchObject({ action: { direction: 'down' } });
    for (const k of ['new_tab', 'close_tab', 'go_back', 'go_forward'])
      expect(parseCommand(k)).toMatchObject({ action: { kind: k } });
    expect(parseCommand('tab_focus [1]')).toMatchObject({ action: { index: 1 } });
    expect(parseCommand('goto [http://localhost:9999/forums]')).toMatchObject({
      action: { url: 'http://localhost:9999/forums' },
    });
    expect(parseCommand('stop [42]')).toMatchObject({ action: { kind: 'stop', answer: '42' } });
    expect(parseCommand('stop')).toMatchObject({ action: { answer: '' } });
  });

  it('rejects what is not an action, naming the grammar', () => {
    for (const bad of ['click me', 'click [x]', 'fly [1]', 'scroll [left]', 'new_tab [2]']) {
      const p = parseCommand(bad);
      expect(p.ok, bad).toBe(false);
      if (!p.ok) expect(p.reason).toMatch(/Commands: click \[id\]/);
    }
  });

  it('maps each structured tool to the same action as the text tool', () => {
    expect(parseAction({ name: 'type', args: { element_id: 5, text: 'x' } })).toEqual(
      parseCommand('type [5] [x] [1]'),
    );
    expect(parseAction({ name: 'stop', args: { answer: 'N/A' } })).toEqual(
      parseCommand('stop [N/A]'),
    );
    expect(parseAction({ name: 'click', args: { element_id: 'x' } }).ok).toBe(false);
    expect(parseAction({ name: 'teleport', args: {} }).ok).toBe(false);
  });
});

const node = (
  id: string,
  role: string,
  name: string,
  children: string[] = [],
  extra: Partial<AXNode> = {},
): AXNode => ({
  nodeId: id,
  role: { value: role },
  name: { value: name },
  childIds: children,
  backendDOMNodeId: Number(id) + 100,
  ...extra,
});

describe('accessibility tree (WebArena rendering)', () => {
  const nodes: AXNode[] = [
    node('1', 'RootWebArea', 'Forum', ['2', '5', '7'], {
      properties: [
        { name: 'focused', value: { value: true } },
        { name: 'focusable', value: { value: true } },
      ],
    }),
    node('2', 'generic', '', ['3', '4']),
    node('3', 'link', "Bob's page"),
    node('4', 'StaticText', "Bob's page"),
    node('5', 'checkbox', 'bug', [], {
      properties: [{ name: 'checked', value: { value: 'false' } }],
    }),
    node('7', 'button', 'Far below'),
  ];

  it('prints ids, roles, python-quoted names and kept properties; drops empty generics and repeated text', () => {
    const t = renderTree(nodes, undefined, {
      viewportOnly: false,
      viewport: { width: 1280, height: 720 },
      scroll: { x: 0, y: 0 },
    });
    expect(t.text).toBe(
      [
        `[1] RootWebArea 'Forum' focused: True`,
        `\t[3] link "Bob's page"`,
        `\t[5] checkbox 'bug' checked: false`,
        `\t[6] button 'Far below'`,
      ].join('\n'),
    );
    expect(t.valid.has(2)).toBe(false);
    expect(t.targets.get(3)).toBe(103);
  });

  it('shows only what is in the viewport, keeping ids stable', () => {
    const bounds = new Map([
      [103, { x: 0, y: 10, width: 100, height: 20 }],
      [105, { x: 0, y: 40, width: 20, height: 20 }],
      [107, { x: 0, y: 5000, width: 100, height: 20 }],
    ]);
    const o = {
      viewportOnly: true,
      viewport: { width: 1280, height: 720 },
      scroll: { x: 0, y: 0 },
    };
    const top = renderTree(nodes, bounds, o);
    expect(top.text).not.toContain('Far below');
    expect(top.text).toContain('[5] checkbox');
    const below = renderTree(nodes, bounds, { ...o, scroll: { x: 0, y: 4800 } });
    expect(below.text).toContain("[6] button 'Far below'");
    expect(below.text).not.toContain('checkbox');
  });

  it('keeps the ids of a document when nodes appear, renews them with a new document', () => {
    const memo = newIdMemo();
    const o = { viewportOnly: false, viewport: { width: 1, height: 1 }, scroll: { x: 0, y: 0 } };
    renderTree(nodes, undefined, o, memo);
    const grown = [
      ...nodes.slice(0, 1).map((n) => ({ ...n, childIds: ['9', ...(n.childIds ?? [])] })),
      node('9', 'StaticText', 'typed'),
      ...nodes.slice(1),
    ];
    const t = renderTree(grown, undefined, o, memo);
    expect(t.text).toContain("[6] button 'Far below'");
    expect(t.text).toContain("[7] StaticText 'typed'");
    const other = renderTree(
      [{ ...nodes[0]!, nodeId: '50' }, ...nodes.slice(1)],
      undefined,
      o,
      memo,
    );
    expect(other.text.startsWith('[1] RootWebArea')).toBe(true);
  });

  it('pyRepr quotes like Python, cleanTree and truncation behave as WebArena', () => {
    expect(pyRepr('a')).toBe("'a'");
    expect(pyRepr("it's")).toBe(`"it's"`);
    expect(pyRepr(`"it's"`)).toBe(`'"it\\'s"'`);
    expect(cleanTree("[1] link 'Home'\n[2] StaticText 'Home'\n[3] StaticText 'Away'")).toBe(
      "[1] link 'Home'\n[3] StaticText 'Away'",
    );
    const t = truncateTokens('a b c d e', 3);
    expect(t).toEqual({ text: 'a b c', tokens: 5, cut: true });
    expect(truncateTokens('a b', 0)).toEqual({ text: 'a b', tokens: 2, cut: false });
  });
});

describe('evaluators (WebArena metric names)', () => {
  it('string_match: exact_match and must_include after clean_answer', async () => {
    expect(await stringMatch({ exact_match: '12' }, ' "12" ', 'q', undefined)).toMatchObject({
      score: 1,
      exact_match: 1,
    });
    expect(await stringMatch({ exact_match: '12' }, '12 comments', 'q', undefined)).toMatchObject({
      score: 0,
    });
    expect(
      await stringMatch({ must_include: ['bug', 'ux'] }, 'Bug, UX, feature', 'q', undefined),
    ).toMatchObject({ score: 1 });
    expect(await stringMatch({ must_include: ['bug', 'ux'] }, 'bug', 'q', undefined)).toMatchObject(
      { score: 0 },
    );
    // One one-character reference is matched as a token (WebArena: "prevent false positive (e.g, 0)").
    expect(mustInclude('0', '10', true)).toBe(0);
    expect(mustInclude('0', 'there are 0', true)).toBe(1);
  });

  it('fuzzy_match is not scorable without a judge, and scored by one when configured', async () => {
    expect(await stringMatch({ fuzzy_match: ['a comet'] }, 'a comet', 'q', undefined)).toEqual({
      score: null,
    });
    expect(await stringMatch({ fuzzy_match: ['a comet'] }, '', 'q', undefined)).toMatchObject({
      score: 0,
    });
    const judge = async (o: { prediction: string }) => (o.prediction.includes('comet') ? 1 : 0);
    expect(
      await stringMatch({ fuzzy_match: ['a comet'] }, 'they saw a comet', 'q', judge),
    ).toMatchObject({ score: 1, fuzzy_match: 1 });
  });

  it('url_match: GOLD in PRED on host + path and query values', () => {
    const ref = 'http://localhost:9999/f/books?sort=new';
    expect(urlMatch(ref, 'http://localhost:9999/f/books?sort=new&page=2')).toBe(1);
    expect(urlMatch(ref, 'http://localhost:9999/f/books/')).toBe(0);
    expect(urlMatch(ref, 'http://localhost:9999/f/cooking?sort=new')).toBe(0);
    expect(
      urlMatch(
        'http://localhost:8023/a/b |OR| http://localhost:8023/a/c',
        'http://localhost:8023/a/c',
      ),
    ).toBe(1);
  });

  it('program_html: exact_match and must_include with |OR| alternatives', () => {
    const t = { url: 'last', locator: '' };
    expect(
      requiredContents({ ...t, required_contents: { exact_match: 'Closed' } }, ' closed '),
    ).toBe(1);
    expect(
      requiredContents(
        { ...t, required_contents: { must_include: ['hi |OR| hello', 'there'] } },
        'hello there',
      ),
    ).toBe(1);
    expect(requiredContents({ ...t, required_contents: { must_include: ['hi'] } }, 'bye')).toBe(0);
  });
});

describe('tasks', () => {
  const tasks = allTasks();

  it("has at least 150 tasks in WebArena's three kinds on both sites, with unique intents", () => {
    expect(tasks.length).toBeGreaterThanOrEqual(150);
    for (const kind of KINDS)
      expect(tasks.filter((t) => t.info.type === kind).length, kind).toBeGreaterThanOrEqual(25);
    for (const site of ['forum', 'gitlab'])
      expect(
        tasks.filter((t) => ((t.info.meta?.sites ?? []) as string[]).includes(site)).length,
      ).toBeGreaterThan(60);
    expect(new Set(tasks.map((t) => t.info.goal)).size).toBe(tasks.length);
    expect(new Set(tasks.map((t) => t.info.split))).toEqual(new Set(['train', 'test']));
  });

  it('computes every reference from the data', () => {
    const d = dataset();
    const count = tasks.find((t) => t.info.id === 'forum-comment-count-01');
    const post = d.forum.posts.find((p) => count?.info.goal.includes(`"${p.title}"`));
    expect(post).toBeDefined();
    expect(count?.config.eval.reference_answers?.exact_match).toBe(
      String(d.forum.comments.filter((c) => c.postId === post?.id).length),
    );
    const role = tasks.find((t) => t.info.id === 'gitlab-member-role-01');
    const [, user, path] = /role does (\S+) have in (\S+)\?/.exec(role?.info.goal ?? '') ?? [];
    const project = d.git.projects.find((p) => `${p.namespace}/${p.name}` === path);
    expect(role?.config.eval.reference_answers?.exact_match).toBe(
      project?.members.find((m) => m.username === user)?.role,
    );
  });

  it('never shows the reference to the agent (goal and meta carry none)', () => {
    for (const t of tasks.filter((x) => x.info.type === 'information_seeking')) {
      const ref = t.config.eval.reference_answers?.exact_match;
      if (ref && ref.length > 3) expect(JSON.stringify(t.info.meta)).not.toContain(ref);
    }
  });
});

describe("the sites' forms", () => {
  const form = (o: Record<string, string | string[]>) => {
    const f = new URLSearchParams();
    for (const [k, v] of Object.entries(o)) for (const x of [v].flat()) f.append(k, x);
    return f;
  };
  const post = (path: string, o: Record<string, string | string[]>) => ({
    method: 'POST' as const,
    url: new URL(`http://x${path}`),
    form: form(o),
  });
  const get = (path: string) => ({
    method: 'GET' as const,
    url: new URL(`http://x${path}`),
    form: new URLSearchParams(),
  });

  it('forum: a comment posts and redirects, a blank one is refused with the form kept', () => {
    const store = newStore();
    const p = store.data.forum.posts[0]!;
    const r = forumRoute(store, post(`/f/${p.forum}/${p.id}/comment`, { body: 'Nice one' }));
    expect(r).toEqual({ status: 303, redirect: `/f/${p.forum}/${p.id}` });
    expect(forumRoute(store, get(`/f/${p.forum}/${p.id}`)).html).toContain('Nice one');
    const bad = forumRoute(store, post(`/f/${p.forum}/${p.id}/comment`, { body: '  ' }));
    expect(bad.status).toBe(422);
    expect(bad.html).toContain('The comment cannot be blank.');
    expect(store.posts).toBe(2);
    expect(store.log).toEqual([`comment on post ${p.id}`]);
  });

  it('forum: search finds posts by every word, paginated', () => {
    const store = newStore();
    const html = forumRoute(store, get('/search?q=telescope')).html ?? '';
    const n = store.data.forum.posts.filter((p) =>
      `${p.title} ${p.body}`.toLowerCase().includes('telescope'),
    ).length;
    expect(html).toContain(`${n} result`);
  });

  it('gitlab: a new issue with labels, a role change, and a fresh store per episode', () => {
    const store = newStore();
    const p = store.data.git.projects[0]!;
    const label = p.labels[0]!.name;
    const path = `/${p.namespace}/${p.name}`;
    const next = Math.max(...p.issues.map((i) => i.iid)) + 1;
    expect(
      gitlabRoute(store, post(`${path}/-/issues`, { title: 'Hello', labels: [label] })),
    ).toEqual({
      status: 303,
      redirect: `${path}/-/issues/${next}`,
    });
    expect(gitlabRoute(store, get(`${path}/-/issues/${next}`)).html).toMatch(
      new RegExp(`class="issue-labels">.*${label}`),
    );
    const m = p.members[1]!;
    gitlabRoute(store, post(`${path}/-/project_members/${m.username}`, { role: 'Maintainer' }));
    expect(gitlabRoute(store, get(`${path}/-/project_members`)).html).toContain(
      `<tr data-member="${m.username}"><td>`,
    );
    expect(p.members[1]!.role).toBe('Maintainer');
    expect(newStore().data.git.projects[0]!.issues.length).toBe(next - 1);
  });
});
