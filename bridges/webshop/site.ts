// The shop's pages as HTML, WebShop's page set: search, results (10 a page), item (options), item
// sub-pages (description / features / reviews) and the purchase page. Every clickable element carries
// `data-click` (its label, as the agent types it); the page kind is on <body data-page>. Page state
// lives in the URL (query, page, chosen options) so an episode's state is its URL.
import { findProduct, type Product } from './catalogue.ts';
import { getReward } from './reward.ts';
import { search } from './search.ts';
import type { Goal } from './tasks.ts';

export const RESULTS_PER_PAGE = 10;
export const SUB_PAGES = ['description', 'features', 'reviews'] as const;
export type SubPage = (typeof SUB_PAGES)[number];
export type PageKind = 'search' | 'results' | 'item' | 'item_sub' | 'done' | 'error';
export const OPTION_PREFIX = 'o_';

export interface Route {
  kind: PageKind;
  query: string;
  page: number;
  asin: string | null;
  sub: SubPage | null;
  options: Record<string, string>;
}

function esc(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

/** Parses a shop URL (path + query) into its route; unknown paths are `error`. */
export function parseRoute(url: URL): Route {
  const query = url.searchParams.get('q') ?? '';
  const page = Math.max(1, Number.parseInt(url.searchParams.get('page') ?? '1', 10) || 1);
  const options: Record<string, string> = {};
  for (const [key, value] of url.searchParams) {
    if (key.startsWith(OPTION_PREFIX)) options[key.slice(OPTION_PREFIX.length)] = value;
  }
  const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const base = { query, page, asin: null, sub: null, options };
  if (parts.length === 0) return { ...base, kind: 'search' };
  if (parts[0] === 'results' && parts.length === 1) return { ...base, kind: 'results' };
  const asin = parts[1]?.toUpperCase() ?? null;
  if (parts[0] === 'item' && asin && findProduct(asin)) {
    if (parts.length === 2) return { ...base, asin, kind: 'item' };
    const sub = parts[2] as SubPage;
    if (parts.length === 3 && SUB_PAGES.includes(sub))
      return { ...base, asin, sub, kind: 'item_sub' };
  }
  if (parts[0] === 'done' && asin && findProduct(asin) && parts.length === 2)
    return { ...base, asin, kind: 'done' };
  return { ...base, kind: 'error' };
}

export function routeUrl(route: Omit<Route, 'kind'> & { kind: PageKind }): string {
  const params = new URLSearchParams();
  if (route.kind !== 'search') {
    params.set('q', route.query);
    params.set('page', String(route.page));
  }
  for (const [name, value] of Object.entries(route.options))
    params.set(`${OPTION_PREFIX}${name}`, value);
  const qs = params.toString();
  const path =
    route.kind === 'search'
      ? '/'
      : route.kind === 'results'
        ? '/results'
        : route.kind === 'item'
          ? `/item/${route.asin}`
          : route.kind === 'item_sub'
            ? `/item/${route.asin}/${route.sub}`
            : `/done/${route.asin}`;
  return qs ? `${path}?${qs}` : path;
}

function link(label: string, href: string, extra = ''): string {
  return `<a data-click="${esc(label)}" href="${esc(href)}"${extra}>${esc(label)}</a>`;
}

function layout(kind: PageKind, instruction: string, body: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>WebShop</title></head>` +
    `<body data-page="${kind}"><header><h1>WebShop</h1>` +
    `<p><span>Instruction:</span> <span id="instruction">${esc(instruction)}</span></p></header>` +
    `<main>${body}</main></body></html>`
  );
}

function price(p: number): string {
  return `$${p.toFixed(2)}`;
}

function backToSearch(): string {
  return link('Back to Search', '/');
}

function searchPage(): string {
  return (
    '<form action="/results" method="get" role="search">' +
    '<input type="search" name="q" aria-label="Search query" autocomplete="off">' +
    '<input type="hidden" name="page" value="1">' +
    '<button type="submit" data-click="Search">Search</button></form>'
  );
}

function resultsPage(route: Route): string {
  const results = search(route.query);
  const pages = Math.max(1, Math.ceil(results.length / RESULTS_PER_PAGE));
  const page = Math.min(route.page, pages);
  const shown = results.slice((page - 1) * RESULTS_PER_PAGE, page * RESULTS_PER_PAGE);
  const at = (p: number) => routeUrl({ ...route, kind: 'results', page: p, options: {} });
  const nav = [
    page > 1 ? link('< Prev', at(page - 1)) : '',
    page < pages ? link('Next >', at(page + 1)) : '',
  ].join(' ');
  const items = shown
    .map(
      (p) =>
        `<li>${link(p.asin, routeUrl({ ...route, kind: 'item', asin: p.asin, page, options: {} }))}` +
        `<p>${esc(p.title)}</p><p>${price(p.price)}</p></li>`,
    )
    .join('');
  return (
    `<nav>${backToSearch()}</nav>` +
    `<p>Page ${page} (Total results: ${results.length})</p>` +
    `<nav>${nav}</nav><ol>${items}</ol>`
  );
}

function itemPage(route: Route, product: Product): string {
  const back = routeUrl({ ...route, kind: 'results', options: {} });
  const options = product.options
    .map((o) => {
      const buttons = o.values
        .map((v) => {
          const selected = route.options[o.name] === v;
          const href = routeUrl({
            ...route,
            kind: 'item',
            options: { ...route.options, [o.name]: v },
          });
          return `<li>${link(v, href, ` aria-pressed="${selected}"`)}</li>`;
        })
        .join('');
      return `<section><h3>${esc(o.name)}</h3><ul>${buttons}</ul></section>`;
    })
    .join('');
  const subs = SUB_PAGES.map((s) =>
    link(s.charAt(0).toUpperCase() + s.slice(1), routeUrl({ ...route, kind: 'item_sub', sub: s })),
  ).join(' ');
  return (
    `<nav>${backToSearch()} ${link('< Prev', back)}</nav>${options}` +
    `<h2>${esc(product.title)}</h2><p>Price: ${price(product.price)}</p>` +
    `<p>Rating: ${product.rating === null ? 'N.A.' : product.rating.toFixed(1)}</p>` +
    `<nav>${subs}</nav>${link('Buy Now', routeUrl({ ...route, kind: 'done', sub: null }))}`
  );
}

function subPage(route: Route, product: Product): string {
  const back = routeUrl({ ...route, kind: 'item', sub: null });
  let content = '';
  if (route.sub === 'description') content = `<p>${esc(product.description)}</p>`;
  else if (route.sub === 'features')
    content = `<ul>${product.features.map((f) => `<li>${esc(f)}</li>`).join('')}</ul>`;
  else
    content =
      product.reviews.length === 0
        ? '<p>No reviews yet.</p>'
        : `<ul>${product.reviews.map((r) => `<li>${r.rating} out of 5 stars: ${esc(r.text)}</li>`).join('')}</ul>`;
  return `<nav>${backToSearch()} ${link('< Prev', back)}</nav>${content}`;
}

function donePage(route: Route, product: Product, goal: Goal | undefined): string {
  const chosen = Object.entries(route.options)
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ');
  const score = goal ? getReward(product, goal, product.price, route.options).reward : 0;
  return (
    '<p>Thank you for shopping with us!</p>' +
    `<p>Purchased: ${esc(product.asin)}</p><p>${esc(product.title)}</p>` +
    `<p>Options: ${esc(chosen || 'none')}</p><p>Price: ${price(product.price)}</p>` +
    `<p>Your score (min 0.0, max 1.0): ${score.toFixed(3)}</p>`
  );
}

/** Renders the page at `url` for a session whose goal is `goal` (undefined: unknown session). */
export function renderPage(url: URL, goal: Goal | undefined): { status: number; html: string } {
  const route = parseRoute(url);
  const instruction = goal?.instruction ?? '';
  const product = route.asin ? findProduct(route.asin) : undefined;
  switch (route.kind) {
    case 'search':
      return { status: 200, html: layout('search', instruction, searchPage()) };
    case 'results':
      return { status: 200, html: layout('results', instruction, resultsPage(route)) };
    case 'item':
      if (product)
        return { status: 200, html: layout('item', instruction, itemPage(route, product)) };
      break;
    case 'item_sub':
      if (product)
        return { status: 200, html: layout('item_sub', instruction, subPage(route, product)) };
      break;
    case 'done':
      if (product)
        return { status: 200, html: layout('done', instruction, donePage(route, product, goal)) };
      break;
    default:
      break;
  }
  return {
    status: 404,
    html: layout('error', instruction, `<p>Page not found.</p><nav>${backToSearch()}</nav>`),
  };
}
