// What both sites share: escaping, the page shell, pagination, and the reply shape of a route.

export interface Reply {
  status: number;
  html?: string;
  /** A relative URL to redirect to (303 See Other, after a form post). */
  redirect?: string;
}

export interface Request {
  method: 'GET' | 'POST';
  url: URL;
  form: URLSearchParams;
}

export const PAGE_SIZE = 10;

export function esc(s: string | number): string {
  return String(s)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

export function page(o: {
  title: string;
  site: string;
  header: string;
  body: string;
  flash?: string | null;
}): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(o.title)}</title>
<style>
body{font:15px/1.45 system-ui,sans-serif;margin:0;color:#1d1d1f;background:#fafafa}
header{background:${o.site === 'forum' ? '#2b4c7e' : '#292961'};color:#fff;padding:8px 16px;display:flex;gap:16px;align-items:center;flex-wrap:wrap}
header a{color:#fff}
main{max-width:980px;margin:0 auto;padding:12px 16px}
article,.card{background:#fff;border:1px solid #ddd;border-radius:6px;padding:8px 12px;margin:8px 0}
.meta{color:#555;font-size:13px}
.flash{background:#e7f5e7;border:1px solid #9c9;padding:6px 10px;border-radius:4px}
.error{background:#fbe9e9;border:1px solid #d99;padding:6px 10px;border-radius:4px}
.label{display:inline-block;border-radius:9px;padding:0 8px;color:#fff;font-size:12px;margin-right:4px}
label{display:block;margin-top:8px}
input[type=text],input[type=search],textarea{width:100%;max-width:640px;box-sizing:border-box}
textarea{height:90px}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:6px;text-align:left}
.comment{margin-left:16px}
</style></head>
<body data-site="${esc(o.site)}">
<header>${o.header}</header>
<main>${o.flash ? `<p class="flash" role="status">${esc(o.flash)}</p>` : ''}${o.body}</main>
</body></html>`;
}

/** `?page=` as a 1-based number. */
export function pageOf(url: URL): number {
  const n = Number(url.searchParams.get('page') ?? '1');
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

export function paginate<T>(items: T[], n: number): { items: T[]; page: number; pages: number } {
  const pages = Math.max(1, Math.ceil(items.length / PAGE_SIZE));
  const p = Math.min(Math.max(1, n), pages);
  return { items: items.slice((p - 1) * PAGE_SIZE, p * PAGE_SIZE), page: p, pages };
}

/** Previous / next links that keep the other query parameters. */
export function pager(url: URL, p: number, pages: number): string {
  if (pages <= 1) return '';
  const at = (n: number) => {
    const u = new URL(url);
    u.searchParams.set('page', String(n));
    return esc(`${u.pathname}${u.search}`);
  };
  return `<nav aria-label="Pagination" class="meta">${p > 1 ? `<a href="${at(p - 1)}">Previous page</a> ` : ''}<span>Page ${p} of ${pages}</span>${p < pages ? ` <a href="${at(p + 1)}">Next page</a>` : ''}</nav>`;
}

export function notFound(site: string, header: string, what: string): Reply {
  return {
    status: 404,
    html: page({
      title: 'Not found',
      site,
      header,
      body: `<h1>404: not found</h1><p>${esc(what)}</p>`,
    }),
  };
}

/** Every whitespace-separated word of `q` occurs (case-insensitively) in one of `texts`. */
export function matches(q: string, ...texts: string[]): boolean {
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return false;
  const hay = texts.join(' ').toLowerCase();
  return words.every((w) => hay.includes(w));
}

export function excerpt(text: string, n = 90): string {
  return text.length <= n ? text : `${text.slice(0, n).trimEnd()}…`;
}
