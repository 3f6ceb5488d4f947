// The Postmill-like forum: front page, forums, submissions with nested comments, votes, user pages,
// search, a submission form and subscriptions. Pages are plain server-rendered HTML; forms post back
// and redirect (post/redirect/get), as Postmill does.
import type { Comment, Post } from '../data.ts';
import {
  addComment,
  createPost,
  findPost,
  type SiteStore,
  score,
  setSubscription,
  vote,
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

export const SORTS = ['hot', 'new', 'top'] as const;
type Sort = (typeof SORTS)[number];

function header(store: SiteStore, q = ''): string {
  return `<nav aria-label="Site"><a href="/"><strong>Postmill</strong></a> <a href="/forums">Forums</a> <a href="/user/${esc(store.data.forum.me)}">${esc(store.data.forum.me)}</a></nav>
<form role="search" action="/search" method="get"><input type="search" name="q" value="${esc(q)}" aria-label="Search the forum" placeholder="Search"> <button type="submit">Search</button></form>`;
}

function shell(store: SiteStore, title: string, body: string, q = ''): Reply {
  const flash = store.flash.forum;
  store.flash.forum = null;
  return {
    status: 200,
    html: page({ title, site: 'forum', header: header(store, q), body, flash }),
  };
}

function sortOf(url: URL): Sort {
  const s = url.searchParams.get('sort');
  return (SORTS as readonly string[]).includes(s ?? '') ? (s as Sort) : 'hot';
}

export function sortPosts(posts: Post[], sort: Sort): Post[] {
  const out = [...posts];
  if (sort === 'new') out.sort((a, b) => b.at - a.at);
  else if (sort === 'top') out.sort((a, b) => score(b) - score(a) || b.at - a.at);
  else out.sort((a, b) => hot(b) - hot(a) || b.at - a.at);
  return out;
}

function hot(p: Post): number {
  return score(p) + p.at / 60;
}

function commentsOf(store: SiteStore, post: Post): Comment[] {
  return store.data.forum.comments.filter((c) => c.postId === post.id);
}

export function postUrl(post: Pick<Post, 'forum' | 'id'>): string {
  return `/f/${post.forum}/${post.id}`;
}

function postItem(store: SiteStore, post: Post): string {
  const n = commentsOf(store, post).length;
  return `<article class="submission" data-post="${post.id}"><h2><a href="${postUrl(post)}">${esc(post.title)}</a></h2>
<p class="meta">Submitted by <a href="/user/${esc(post.author)}">${esc(post.author)}</a> in <a href="/f/${esc(post.forum)}">f/${esc(post.forum)}</a> · <span class="submission__score">${score(post)} points</span> · <a href="${postUrl(post)}">${n} comment${n === 1 ? '' : 's'}</a></p></article>`;
}

function sortLinks(path: string, sort: Sort): string {
  return `<nav aria-label="Sort" class="meta">Sort by: ${SORTS.map((s) =>
    s === sort ? `<strong>${s}</strong>` : `<a href="${path}?sort=${s}">${s}</a>`,
  ).join(' · ')}</nav>`;
}

function listing(store: SiteStore, url: URL, posts: Post[], sort: Sort): string {
  const pg = paginate(sortPosts(posts, sort), pageOf(url));
  return `${pg.items.map((p) => postItem(store, p)).join('\n')}${pager(url, pg.page, pg.pages)}`;
}

function front(store: SiteStore, url: URL): Reply {
  const sort = sortOf(url);
  const mine = store.data.forum.posts.filter((p) => store.subscriptions.includes(p.forum));
  return shell(
    store,
    'Postmill',
    `<h1>Front page</h1><p class="meta">Posts from the ${store.subscriptions.length} forums you subscribe to.</p>${sortLinks('/', sort)}${listing(store, url, mine, sort)}`,
  );
}

function forumsPage(store: SiteStore, url: URL): Reply {
  const forums = [...store.data.forum.forums].sort((a, b) => a.name.localeCompare(b.name));
  const pg = paginate(forums, pageOf(url));
  const rows = pg.items
    .map((f) => {
      const on = store.subscriptions.includes(f.name);
      return `<tr data-forum="${esc(f.name)}"><td><a href="/f/${esc(f.name)}">${esc(f.title)}</a></td><td>${esc(f.description)}</td><td><span class="forum__subscribers">${f.subscribers}</span> subscribers</td><td><span class="forum__subscribed">${on ? 'Subscribed' : 'Not subscribed'}</span></td></tr>`;
    })
    .join('\n');
  return shell(
    store,
    'Forums : Postmill',
    `<h1>Forums</h1><table><thead><tr><th>Forum</th><th>Description</th><th>Subscribers</th><th>You</th></tr></thead><tbody>${rows}</tbody></table>${pager(url, pg.page, pg.pages)}`,
  );
}

function forumPage(store: SiteStore, url: URL, name: string): Reply {
  const f = store.data.forum.forums.find((x) => x.name === name);
  if (!f) return notFound('forum', header(store), `There is no forum named ${name}.`);
  const on = store.subscriptions.includes(f.name);
  const sort = sortOf(url);
  const posts = store.data.forum.posts.filter((p) => p.forum === f.name);
  return shell(
    store,
    `${f.title} : Postmill`,
    `<h1>f/${esc(f.name)}: ${esc(f.title)}</h1><p>${esc(f.description)}</p>
<p class="meta"><span class="forum__subscribers">${f.subscribers}</span> subscribers · ${posts.length} submissions · <span class="forum__subscribed">${on ? 'Subscribed' : 'Not subscribed'}</span></p>
<form method="post" action="/f/${esc(f.name)}/subscribe"><input type="hidden" name="on" value="${on ? '0' : '1'}"><button type="submit">${on ? 'Unsubscribe' : 'Subscribe'}</button></form>
<p><a href="/f/${esc(f.name)}/submit">Submit a new post</a></p>
${sortLinks(`/f/${f.name}`, sort)}${listing(store, url, posts, sort)}`,
  );
}

function commentTree(store: SiteStore, all: Comment[], parent: number | null): string {
  return all
    .filter((c) => c.parentId === parent)
    .sort((a, b) => score(b) - score(a) || a.at - b.at)
    .map(
      (c) =>
        `<article class="comment" data-comment="${c.id}"><p class="meta"><a href="/user/${esc(c.author)}">${esc(c.author)}</a> · ${score(c)} points</p><div class="comment__body">${esc(c.body)}</div>${commentTree(store, all, c.id)}</article>`,
    )
    .join('\n');
}

function postPage(store: SiteStore, post: Post, form?: { body: string; error: string }): Reply {
  const comments = commentsOf(store, post);
  const mine = store.votes[`post:${post.id}`];
  const voteState = mine === 1 ? 'upvoted' : mine === -1 ? 'downvoted' : 'not voted';
  return shell(
    store,
    `${post.title} : f/${post.forum}`,
    `<article class="submission" data-post="${post.id}"><h1 class="submission__title">${esc(post.title)}</h1>
<p class="meta">Submitted by <a href="/user/${esc(post.author)}">${esc(post.author)}</a> in <a href="/f/${esc(post.forum)}">f/${esc(post.forum)}</a></p>
<div class="submission__body">${esc(post.body)}</div>
<p class="meta"><span class="submission__score">${score(post)} points</span> (${post.up} up, ${post.down} down) · your vote: <span class="vote-state">${voteState}</span></p>
<form method="post" action="${postUrl(post)}/vote" style="display:inline"><input type="hidden" name="dir" value="1"><button type="submit">Upvote</button></form>
<form method="post" action="${postUrl(post)}/vote" style="display:inline"><input type="hidden" name="dir" value="-1"><button type="submit">Downvote</button></form>
</article>
<section aria-label="Comments"><h2>${comments.length} comment${comments.length === 1 ? '' : 's'}</h2>
<form method="post" action="${postUrl(post)}/comment">${form ? `<p class="error" role="alert">${esc(form.error)}</p>` : ''}<label for="comment-body">Write a comment</label><textarea id="comment-body" name="body">${esc(form?.body ?? '')}</textarea><br><button type="submit">Post comment</button></form>
${commentTree(store, comments, null)}</section>`,
  );
}

function userPage(store: SiteStore, url: URL, name: string): Reply {
  const user = store.data.forum.users.find((u) => u.name === name);
  if (!user) return notFound('forum', header(store), `There is no user named ${name}.`);
  const posts = store.data.forum.posts.filter((p) => p.author === name);
  const comments = store.data.forum.comments.filter((c) => c.author === name);
  const karma =
    posts.reduce((n, p) => n + score(p), 0) + comments.reduce((n, c) => n + score(c), 0);
  return shell(
    store,
    `${name} : Postmill`,
    `<h1>${esc(name)}</h1><p class="meta">Joined ${esc(user.joined)} · <span class="user__submissions">${posts.length} submissions</span> · <span class="user__comments">${comments.length} comments</span> · ${karma} karma</p>
<h2>Submissions</h2>${listing(store, url, posts, 'new')}`,
  );
}

function searchPage(store: SiteStore, url: URL): Reply {
  const q = (url.searchParams.get('q') ?? '').trim();
  if (!q)
    return shell(
      store,
      'Search : Postmill',
      '<h1>Search</h1><p>Type words to look for in titles and bodies.</p>',
    );
  const hits = store.data.forum.posts.filter((p) => matches(q, p.title, p.body));
  const pg = paginate(sortPosts(hits, 'new'), pageOf(url));
  const items = pg.items
    .map(
      (p) =>
        `<article class="search-result" data-post="${p.id}"><h2><a href="${postUrl(p)}">${esc(p.title)}</a></h2><p class="meta">in <a href="/f/${esc(p.forum)}">f/${esc(p.forum)}</a> by <a href="/user/${esc(p.author)}">${esc(p.author)}</a></p><p>${esc(excerpt(p.body))}</p></article>`,
    )
    .join('\n');
  return shell(
    store,
    `Search results for ${q} : Postmill`,
    `<h1>Search results for "${esc(q)}"</h1><p class="meta">${hits.length} result${hits.length === 1 ? '' : 's'}</p>${items}${pager(url, pg.page, pg.pages)}`,
    q,
  );
}

function submitPage(
  store: SiteStore,
  forum: string,
  form?: { title: string; body: string; error: string },
): Reply {
  return shell(
    store,
    `Submit to f/${forum} : Postmill`,
    `<h1>Create a submission in f/${esc(forum)}</h1>
<form method="post" action="/f/${esc(forum)}/submit">${form ? `<p class="error" role="alert">${esc(form.error)}</p>` : ''}
<label for="post-title">Title</label><input type="text" id="post-title" name="title" value="${esc(form?.title ?? '')}">
<label for="post-body">Body</label><textarea id="post-body" name="body">${esc(form?.body ?? '')}</textarea><br>
<button type="submit">Create submission</button></form>`,
  );
}

export function forumRoute(store: SiteStore, req: Request): Reply {
  const { url, method, form } = req;
  const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const h = header(store);
  if (method === 'GET') {
    if (parts.length === 0) return front(store, url);
    if (parts[0] === 'forums' && parts.length === 1) return forumsPage(store, url);
    if (parts[0] === 'search' && parts.length === 1) return searchPage(store, url);
    if (parts[0] === 'user' && parts.length === 2) return userPage(store, url, parts[1] as string);
    if (parts[0] === 'f' && parts.length === 2) return forumPage(store, url, parts[1] as string);
    if (parts[0] === 'f' && parts.length === 3 && parts[2] === 'submit') {
      const f = store.data.forum.forums.find((x) => x.name === parts[1]);
      return f ? submitPage(store, f.name) : notFound('forum', h, 'No such forum.');
    }
    if (parts[0] === 'f' && parts.length === 3) {
      const post = findPost(store, parts[1] as string, Number(parts[2]));
      return post ? postPage(store, post) : notFound('forum', h, 'No such submission.');
    }
    return notFound('forum', h, `Nothing at ${url.pathname}.`);
  }
  // POST: every form of the site.
  store.posts += 1;
  if (parts[0] === 'f' && parts.length === 3 && parts[2] === 'subscribe') {
    const f = store.data.forum.forums.find((x) => x.name === parts[1]);
    if (!f) return notFound('forum', h, 'No such forum.');
    const on = form.get('on') === '1';
    setSubscription(store, f.name, on);
    store.flash.forum = on
      ? `You are now subscribed to f/${f.name}.`
      : `Unsubscribed from f/${f.name}.`;
    return { status: 303, redirect: `/f/${f.name}` };
  }
  if (parts[0] === 'f' && parts.length === 3 && parts[2] === 'submit') {
    const f = store.data.forum.forums.find((x) => x.name === parts[1]);
    if (!f) return notFound('forum', h, 'No such forum.');
    const title = (form.get('title') ?? '').trim();
    const body = (form.get('body') ?? '').trim();
    const error = !title
      ? 'The title cannot be blank.'
      : !body
        ? 'The body cannot be blank.'
        : title.length > 300
          ? 'The title is longer than 300 characters.'
          : null;
    if (error) return { ...submitPage(store, f.name, { title, body, error }), status: 422 };
    const post = createPost(store, f.name, title, body);
    store.flash.forum = 'Your submission was posted.';
    return { status: 303, redirect: postUrl(post) };
  }
  if (parts[0] === 'f' && parts.length === 4) {
    const post = findPost(store, parts[1] as string, Number(parts[2]));
    if (!post) return notFound('forum', h, 'No such submission.');
    if (parts[3] === 'vote') {
      vote(store, post, form.get('dir') === '-1' ? -1 : 1);
      return { status: 303, redirect: postUrl(post) };
    }
    if (parts[3] === 'comment') {
      const body = (form.get('body') ?? '').trim();
      if (!body)
        return {
          ...postPage(store, post, { body, error: 'The comment cannot be blank.' }),
          status: 422,
        };
      addComment(store, post, body);
      store.flash.forum = 'Your comment was posted.';
      return { status: 303, redirect: postUrl(post) };
    }
  }
  return notFound('forum', h, `Nothing to post to at ${url.pathname}.`);
}
