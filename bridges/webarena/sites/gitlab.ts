// The GitLab-like code host: projects, issues (labels, assignee, state, comments), merge requests,
// members with roles, labels, stars, and search. Paths follow GitLab's (`/<ns>/<project>/-/issues`).
import { type Issue, type MergeRequest, type Project, ROLES, type Role } from '../data.ts';
import {
  addNote,
  createIssue,
  findIssue,
  findProject,
  projectPath,
  type SiteStore,
  setIssueState,
  setRole,
  setStar,
} from '../store.ts';
import {
  esc,
  excerpt,
  matches,
  notFound,
  page,
  pageOf,
  pager,
  paginate,
  type Reply,
  type Request,
} from './html.ts';

function header(store: SiteStore, q = ''): string {
  return `<nav aria-label="Site"><a href="/"><strong>GitLab</strong></a> <a href="/">Projects</a> <a href="/explore">Explore</a> <a href="/${esc(store.data.git.me)}">${esc(store.data.git.me)}</a></nav>
<form role="search" action="/search" method="get"><input type="search" name="search" value="${esc(q)}" aria-label="Search GitLab" placeholder="Search GitLab"> <button type="submit">Search</button></form>`;
}

function shell(store: SiteStore, title: string, body: string, q = ''): Reply {
  const flash = store.flash.gitlab;
  store.flash.gitlab = null;
  return {
    status: 200,
    html: page({ title, site: 'gitlab', header: header(store, q), body, flash }),
  };
}

export function issueUrl(p: Pick<Project, 'namespace' | 'name'>, iid: number): string {
  return `/${projectPath(p)}/-/issues/${iid}`;
}

function labelChip(project: Project, name: string): string {
  const color = project.labels.find((l) => l.name === name)?.color ?? '#777';
  return `<span class="label" style="background:${esc(color)}">${esc(name)}</span>`;
}

function projectItem(store: SiteStore, p: Project): string {
  const open = p.issues.filter((i) => i.state === 'opened').length;
  return `<article class="project" data-project="${esc(projectPath(p))}"><h2><a href="/${esc(projectPath(p))}">${esc(p.namespace)} / ${esc(p.name)}</a></h2><p>${esc(p.description)}</p><p class="meta">${p.stars} stars · ${open} open issues${store.starred.includes(projectPath(p)) ? ' · starred by you' : ''}</p></article>`;
}

function dashboard(store: SiteStore, url: URL): Reply {
  const me = store.data.git.me;
  const mine = store.data.git.projects.filter((p) => p.members.some((m) => m.username === me));
  const pg = paginate(mine, pageOf(url));
  return shell(
    store,
    'Projects · GitLab',
    `<h1>Your projects</h1>${pg.items.map((p) => projectItem(store, p)).join('\n')}${pager(url, pg.page, pg.pages)}`,
  );
}

function explore(store: SiteStore, url: URL): Reply {
  const pg = paginate(store.data.git.projects, pageOf(url));
  return shell(
    store,
    'Explore projects · GitLab',
    `<h1>Explore projects</h1>${pg.items.map((p) => projectItem(store, p)).join('\n')}${pager(url, pg.page, pg.pages)}`,
  );
}

function namespacePage(store: SiteStore, url: URL, ns: string): Reply | undefined {
  const projects = store.data.git.projects.filter((p) => p.namespace === ns);
  const user = store.data.git.users.find((u) => u.username === ns);
  if (projects.length === 0 && !user) return undefined;
  const pg = paginate(projects, pageOf(url));
  return shell(
    store,
    `${ns} · GitLab`,
    `<h1>${user ? `${esc(user.name)} <span class="meta">@${esc(user.username)}</span>` : esc(ns)}</h1><h2>Projects</h2>${pg.items.length ? pg.items.map((p) => projectItem(store, p)).join('\n') : '<p>No projects.</p>'}${pager(url, pg.page, pg.pages)}`,
  );
}

function projectPage(store: SiteStore, p: Project): Reply {
  const path = projectPath(p);
  const open = p.issues.filter((i) => i.state === 'opened').length;
  const mrs = p.mergeRequests.filter((m) => m.state === 'opened').length;
  const starred = store.starred.includes(path);
  return shell(
    store,
    `${p.namespace} / ${p.name} · GitLab`,
    `<h1>${esc(p.namespace)} / ${esc(p.name)}</h1><p>${esc(p.description)}</p>
<p class="meta"><span class="project__stars">${p.stars} stars</span> · <span class="project__starred">${starred ? 'Starred' : 'Not starred'}</span></p>
<form method="post" action="/${esc(path)}/star"><input type="hidden" name="on" value="${starred ? '0' : '1'}"><button type="submit">${starred ? 'Unstar' : 'Star'}</button></form>
<nav aria-label="Project"><ul>
<li><a href="/${esc(path)}/-/issues">Issues ${open}</a></li>
<li><a href="/${esc(path)}/-/merge_requests">Merge requests ${mrs}</a></li>
<li><a href="/${esc(path)}/-/project_members">Members</a></li>
<li><a href="/${esc(path)}/-/labels">Labels</a></li></ul></nav>`,
  );
}

type IssueState = 'opened' | 'closed' | 'all';

function issueList(store: SiteStore, p: Project, url: URL): Reply {
  const path = projectPath(p);
  const s = url.searchParams.get('state');
  const state: IssueState = s === 'closed' || s === 'all' ? s : 'opened';
  const label = url.searchParams.get('label_name') ?? '';
  const assignee = url.searchParams.get('assignee_username') ?? '';
  const search = (url.searchParams.get('search') ?? '').trim();
  const filtered = p.issues
    .filter((i) => state === 'all' || i.state === state)
    .filter((i) => !label || i.labels.includes(label))
    .filter((i) => !assignee || i.assignee === assignee)
    .filter((i) => !search || matches(search, i.title, i.description))
    .sort((a, b) => b.iid - a.iid);
  const pg = paginate(filtered, pageOf(url));
  const count = (st: IssueState) => p.issues.filter((i) => st === 'all' || i.state === st).length;
  const tab = (st: IssueState, name: string) =>
    st === state
      ? `<strong>${name} ${count(st)}</strong>`
      : `<a href="/${esc(path)}/-/issues?state=${st}">${name} ${count(st)}</a>`;
  const items = pg.items
    .map((i) => {
      const shown = i.labels.slice(0, 2).map((l) => labelChip(p, l));
      const more =
        i.labels.length > 2 ? ` <span class="meta">+${i.labels.length - 2} more</span>` : '';
      return `<article class="issue" data-issue="${i.iid}"><h2><a href="${issueUrl(p, i.iid)}">${esc(i.title)}</a></h2><p class="meta">#${i.iid} · opened by ${esc(i.author)} · ${i.state === 'opened' ? 'Open' : 'Closed'}${i.assignee ? ` · assigned to ${esc(i.assignee)}` : ''}</p><p>${shown.join('')}${more}</p></article>`;
    })
    .join('\n');
  return shell(
    store,
    `Issues · ${p.namespace} / ${p.name} · GitLab`,
    `<h1>Issues of ${esc(p.namespace)} / ${esc(p.name)}</h1>
<nav aria-label="Issue state" class="meta">${tab('opened', 'Open')} · ${tab('closed', 'Closed')} · ${tab('all', 'All')}</nav>
<form method="get" action="/${esc(path)}/-/issues"><input type="hidden" name="state" value="${state}"><input type="search" name="search" value="${esc(search)}" aria-label="Search or filter results" placeholder="Search or filter results"> <button type="submit">Filter</button></form>
${label ? `<p class="meta">Label: ${labelChip(p, label)}</p>` : ''}
<p><a href="/${esc(path)}/-/issues/new">New issue</a></p>
<p class="meta">${filtered.length} issue${filtered.length === 1 ? '' : 's'}</p>${items}${pager(url, pg.page, pg.pages)}`,
  );
}

function issuePage(store: SiteStore, p: Project, i: Issue, error?: string): Reply {
  const path = projectPath(p);
  const notes = i.notes
    .map(
      (n) =>
        `<article class="note"><p class="meta">${esc(n.author)}</p><div class="note__body">${esc(n.body)}</div></article>`,
    )
    .join('\n');
  return shell(
    store,
    `${i.title} (#${i.iid}) · Issues · ${p.namespace} / ${p.name} · GitLab`,
    `<p class="meta"><a href="/${esc(path)}">${esc(p.namespace)} / ${esc(p.name)}</a> › <a href="/${esc(path)}/-/issues">Issues</a> › #${i.iid}</p>
<h1 class="issue-title">${esc(i.title)}</h1>
<p><span class="issue-state">${i.state === 'opened' ? 'Open' : 'Closed'}</span> · #${i.iid} opened by ${esc(i.author)}</p>
<div class="issue-description">${esc(i.description)}</div>
<aside class="card" aria-label="Issue details"><p>Assignee: <span class="issue-assignee">${i.assignee ? esc(i.assignee) : 'None'}</span></p>
<p>Labels: <span class="issue-labels">${i.labels.length ? i.labels.map((l) => labelChip(p, l)).join('') : 'None'}</span></p></aside>
<form method="post" action="${issueUrl(p, i.iid)}/state"><input type="hidden" name="state" value="${i.state === 'opened' ? 'closed' : 'opened'}"><button type="submit">${i.state === 'opened' ? 'Close issue' : 'Reopen issue'}</button></form>
<section aria-label="Activity"><h2>Activity</h2>${notes || '<p class="meta">No comments yet.</p>'}
<form method="post" action="${issueUrl(p, i.iid)}/notes">${error ? `<p class="error" role="alert">${esc(error)}</p>` : ''}<label for="note-body">Comment</label><textarea id="note-body" name="body"></textarea><br><button type="submit">Comment</button></form></section>`,
  );
}

function newIssuePage(
  store: SiteStore,
  p: Project,
  form?: { title: string; description: string; labels: string[]; assignee: string; error: string },
): Reply {
  const path = projectPath(p);
  const labels = p.labels
    .map(
      (l, k) =>
        `<label><input type="checkbox" name="labels" value="${esc(l.name)}" id="label-${k}"${form?.labels.includes(l.name) ? ' checked' : ''}> ${esc(l.name)}</label>`,
    )
    .join('\n');
  const assignees = [
    `<label><input type="radio" name="assignee" value=""${!form?.assignee ? ' checked' : ''}> Unassigned</label>`,
    ...p.members.map(
      (m) =>
        `<label><input type="radio" name="assignee" value="${esc(m.username)}"${form?.assignee === m.username ? ' checked' : ''}> ${esc(m.username)}</label>`,
    ),
  ].join('\n');
  return shell(
    store,
    `New issue · ${p.namespace} / ${p.name} · GitLab`,
    `<h1>New issue in ${esc(p.namespace)} / ${esc(p.name)}</h1>
<form method="post" action="/${esc(path)}/-/issues">${form ? `<p class="error" role="alert">${esc(form.error)}</p>` : ''}
<label for="issue-title">Title</label><input type="text" id="issue-title" name="title" value="${esc(form?.title ?? '')}">
<label for="issue-description">Description</label><textarea id="issue-description" name="description">${esc(form?.description ?? '')}</textarea>
<fieldset><legend>Labels</legend>${labels}</fieldset>
<fieldset><legend>Assignee</legend>${assignees}</fieldset>
<button type="submit">Create issue</button></form>`,
  );
}

function mrList(store: SiteStore, p: Project, url: URL): Reply {
  const s = url.searchParams.get('state');
  const state = s === 'merged' || s === 'closed' || s === 'all' ? s : 'opened';
  const list = p.mergeRequests
    .filter((m) => state === 'all' || m.state === state)
    .sort((a, b) => b.iid - a.iid);
  const pg = paginate(list, pageOf(url));
  const path = projectPath(p);
  const tabs = (['opened', 'merged', 'closed', 'all'] as const)
    .map((st) => {
      const n = p.mergeRequests.filter((m) => st === 'all' || m.state === st).length;
      const name = { opened: 'Open', merged: 'Merged', closed: 'Closed', all: 'All' }[st];
      return st === state
        ? `<strong>${name} ${n}</strong>`
        : `<a href="/${esc(path)}/-/merge_requests?state=${st}">${name} ${n}</a>`;
    })
    .join(' · ');
  return shell(
    store,
    `Merge requests · ${p.namespace} / ${p.name} · GitLab`,
    `<h1>Merge requests of ${esc(p.namespace)} / ${esc(p.name)}</h1><nav aria-label="Merge request state" class="meta">${tabs}</nav>
${pg.items.map((m) => `<article class="mr" data-mr="${m.iid}"><h2><a href="/${esc(path)}/-/merge_requests/${m.iid}">${esc(m.title)}</a></h2><p class="meta">!${m.iid} · ${esc(m.source)} → ${esc(m.target)} · by ${esc(m.author)} · ${m.state}</p></article>`).join('\n')}${pager(url, pg.page, pg.pages)}`,
  );
}

function mrPage(store: SiteStore, p: Project, m: MergeRequest): Reply {
  return shell(
    store,
    `${m.title} (!${m.iid}) · Merge requests · ${p.namespace} / ${p.name} · GitLab`,
    `<p class="meta"><a href="/${esc(projectPath(p))}">${esc(p.namespace)} / ${esc(p.name)}</a> › <a href="/${esc(projectPath(p))}/-/merge_requests">Merge requests</a> › !${m.iid}</p><h1 class="mr-title">${esc(m.title)}</h1><p><span class="mr-state">${m.state}</span> · ${esc(m.author)} wants to merge ${esc(m.source)} into ${esc(m.target)}</p>`,
  );
}

function membersPage(store: SiteStore, p: Project): Reply {
  const path = projectPath(p);
  const rows = p.members
    .map((m) => {
      const u = store.data.git.users.find((x) => x.username === m.username);
      return `<tr data-member="${esc(m.username)}"><td>${esc(u?.name ?? m.username)} <span class="meta">@${esc(m.username)}</span></td><td class="member-role">${m.role}</td><td><a href="/${esc(path)}/-/project_members/${esc(m.username)}/edit">Edit role of ${esc(m.username)}</a></td></tr>`;
    })
    .join('\n');
  return shell(
    store,
    `Members · ${p.namespace} / ${p.name} · GitLab`,
    `<h1>Members of ${esc(p.namespace)} / ${esc(p.name)}</h1><table><thead><tr><th>Member</th><th>Role</th><th></th></tr></thead><tbody>${rows}</tbody></table>`,
  );
}

function editMemberPage(store: SiteStore, p: Project, username: string, role: Role): Reply {
  const path = projectPath(p);
  const radios = ROLES.map(
    (r) =>
      `<label><input type="radio" name="role" value="${r}"${r === role ? ' checked' : ''}> ${r}</label>`,
  ).join('\n');
  return shell(
    store,
    `Edit ${username} · Members · GitLab`,
    `<h1>Role of ${esc(username)} in ${esc(p.namespace)} / ${esc(p.name)}</h1><form method="post" action="/${esc(path)}/-/project_members/${esc(username)}"><fieldset><legend>Role</legend>${radios}</fieldset><button type="submit">Update role</button></form>`,
  );
}

function labelsPage(store: SiteStore, p: Project): Reply {
  const path = projectPath(p);
  return shell(
    store,
    `Labels · ${p.namespace} / ${p.name} · GitLab`,
    `<h1>Labels of ${esc(p.namespace)} / ${esc(p.name)}</h1><ul>${p.labels
      .map(
        (l) =>
          `<li>${labelChip(p, l.name)} <a href="/${esc(path)}/-/issues?label_name=${encodeURIComponent(l.name)}">Issues with ${esc(l.name)}</a> (${p.issues.filter((i) => i.state === 'opened' && i.labels.includes(l.name)).length} open)</li>`,
      )
      .join('\n')}</ul>`,
  );
}

function searchPage(store: SiteStore, url: URL): Reply {
  const q = (url.searchParams.get('search') ?? '').trim();
  const scope = url.searchParams.get('scope') === 'projects' ? 'projects' : 'issues';
  if (!q) return shell(store, 'Search · GitLab', '<h1>Search</h1><p>Type words to search for.</p>');
  const tab = (s: string, name: string) =>
    s === scope
      ? `<strong>${name}</strong>`
      : `<a href="/search?search=${encodeURIComponent(q)}&amp;scope=${s}">${name}</a>`;
  let items = '';
  let n = 0;
  let pager_ = '';
  if (scope === 'projects') {
    const hits = store.data.git.projects.filter((p) =>
      matches(q, p.namespace, p.name, p.description),
    );
    n = hits.length;
    const pg = paginate(hits, pageOf(url));
    items = pg.items.map((p) => projectItem(store, p)).join('\n');
    pager_ = pager(url, pg.page, pg.pages);
  } else {
    const hits = store.data.git.projects.flatMap((p) =>
      p.issues.filter((i) => matches(q, i.title, i.description)).map((i) => ({ p, i })),
    );
    n = hits.length;
    const pg = paginate(hits, pageOf(url));
    items = pg.items
      .map(
        ({ p, i }) =>
          `<article class="search-result"><h2><a href="${issueUrl(p, i.iid)}">${esc(i.title)}</a></h2><p class="meta">${esc(projectPath(p))}#${i.iid} · ${i.state === 'opened' ? 'Open' : 'Closed'}</p><p>${esc(excerpt(i.description))}</p></article>`,
      )
      .join('\n');
    pager_ = pager(url, pg.page, pg.pages);
  }
  return shell(
    store,
    `Search results for ${q} · GitLab`,
    `<h1>Search results for "${esc(q)}"</h1><nav aria-label="Search scope" class="meta">${tab('issues', 'Issues')} · ${tab('projects', 'Projects')}</nav><p class="meta">${n} result${n === 1 ? '' : 's'}</p>${items}${pager_}`,
    q,
  );
}

export function gitlabRoute(store: SiteStore, req: Request): Reply {
  const { url, method, form } = req;
  const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const h = header(store);
  const nf = (what: string) => notFound('gitlab', h, what);
  if (method === 'GET') {
    if (parts.length === 0) return dashboard(store, url);
    if (parts[0] === 'explore' && parts.length === 1) return explore(store, url);
    if (parts[0] === 'search' && parts.length === 1) return searchPage(store, url);
    if (parts.length === 1)
      return namespacePage(store, url, parts[0] as string) ?? nf('No such user or group.');
  }
  const p =
    parts.length >= 2 ? findProject(store, parts[0] as string, parts[1] as string) : undefined;
  if (!p) return nf(`Nothing at ${url.pathname}.`);
  const rest = parts.slice(2);
  if (method === 'GET') {
    if (rest.length === 0) return projectPage(store, p);
    if (rest[0] !== '-') return nf('No such page.');
    const [, section, id, sub] = rest;
    if (section === 'issues' && id === undefined) return issueList(store, p, url);
    if (section === 'issues' && id === 'new') return newIssuePage(store, p);
    if (section === 'issues' && id !== undefined && sub === undefined) {
      const i = findIssue(p, Number(id));
      return i ? issuePage(store, p, i) : nf('No such issue.');
    }
    if (section === 'merge_requests' && id === undefined) return mrList(store, p, url);
    if (section === 'merge_requests' && id !== undefined) {
      const m = p.mergeRequests.find((x) => x.iid === Number(id));
      return m ? mrPage(store, p, m) : nf('No such merge request.');
    }
    if (section === 'project_members' && id === undefined) return membersPage(store, p);
    if (section === 'project_members' && id !== undefined && sub === 'edit') {
      const m = p.members.find((x) => x.username === id);
      return m ? editMemberPage(store, p, m.username, m.role) : nf('No such member.');
    }
    if (section === 'labels' && id === undefined) return labelsPage(store, p);
    return nf('No such page.');
  }
  // POST: every form of the site.
  store.posts += 1;
  const path = projectPath(p);
  if (rest.length === 1 && rest[0] === 'star') {
    const on = form.get('on') === '1';
    setStar(store, p, on);
    store.flash.gitlab = on ? `You starred ${path}.` : `You unstarred ${path}.`;
    return { status: 303, redirect: `/${path}` };
  }
  const [, section, id, sub] = rest;
  if (section === 'issues' && id === undefined) {
    const title = (form.get('title') ?? '').trim();
    const description = (form.get('description') ?? '').trim();
    const labels = form.getAll('labels');
    const assignee = (form.get('assignee') ?? '').trim();
    if (!title)
      return {
        ...newIssuePage(store, p, {
          title,
          description,
          labels,
          assignee,
          error: "Title can't be blank.",
        }),
        status: 422,
      };
    const valid = p.members.some((m) => m.username === assignee) ? assignee : null;
    const issue = createIssue(store, p, { title, description, labels, assignee: valid });
    store.flash.gitlab = `Issue #${issue.iid} created.`;
    return { status: 303, redirect: issueUrl(p, issue.iid) };
  }
  if (section === 'issues' && id !== undefined) {
    const i = findIssue(p, Number(id));
    if (!i) return nf('No such issue.');
    if (sub === 'notes') {
      const body = (form.get('body') ?? '').trim();
      if (!body) return { ...issuePage(store, p, i, "Comment can't be blank."), status: 422 };
      addNote(store, p, i, body);
      return { status: 303, redirect: issueUrl(p, i.iid) };
    }
    if (sub === 'state') {
      setIssueState(store, p, i, form.get('state') === 'closed' ? 'closed' : 'opened');
      store.flash.gitlab = `Issue #${i.iid} ${i.state === 'closed' ? 'closed' : 'reopened'}.`;
      return { status: 303, redirect: issueUrl(p, i.iid) };
    }
  }
  if (section === 'project_members' && id !== undefined && sub === undefined) {
    const role = form.get('role') as Role | null;
    if (!role || !(ROLES as readonly string[]).includes(role)) return nf('Unknown role.');
    if (!p.members.some((m) => m.username === id)) return nf('No such member.');
    setRole(store, p, id, role);
    store.flash.gitlab = `Role of ${id} updated to ${role}.`;
    return { status: 303, redirect: `/${path}/-/project_members` };
  }
  return nf(`Nothing to post to at ${url.pathname}.`);
}
