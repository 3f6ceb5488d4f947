// What the agent sees of a page: WebShop's simplified text. The page is read in the browser (visible
// text nodes and `data-click` elements in document order), then rendered as WebShop's "simple" mode
// (chunks joined by " [SEP] ") or its "text" mode (one chunk a line, clickables as [button] … [button_],
// chosen options as [clicked button] … [clicked button_]).

export type ObservationMode = 'simple' | 'text';

export interface PageItem {
  kind: 'text' | 'click';
  text: string;
  selected?: boolean;
}

export interface PageRead {
  page: string;
  items: PageItem[];
  hasSearchBar: boolean;
}

/**
 * Runs in the page. Kept as a source string: a function passed to page.evaluate would be serialised
 * after the TypeScript transform, which may inject helpers (e.g. `__name`) that do not exist there.
 */
export const READ_PAGE_SCRIPT = `(() => {
  const items = [];
  const walk = (node) => {
    if (node.nodeType === 3) {
      const text = node.textContent.replace(/\\s+/g, ' ').trim();
      if (text) items.push({ kind: 'text', text });
      return;
    }
    if (node.nodeType !== 1) return;
    const tag = node.tagName;
    if (tag === 'SCRIPT' || tag === 'STYLE' || tag === 'TEMPLATE' || node.hidden) return;
    const label = node.getAttribute('data-click');
    if (label !== null) {
      items.push({ kind: 'click', text: label, selected: node.getAttribute('aria-pressed') === 'true' });
      return;
    }
    for (const child of node.childNodes) walk(child);
  };
  walk(document.body);
  return {
    page: document.body.getAttribute('data-page') || 'unknown',
    items,
    hasSearchBar: document.querySelector('input[type=search]') !== null,
  };
})()`;

/** Clicks the n-th `data-click` element (document order, as READ_PAGE_SCRIPT lists them). */
export const CLICK_SCRIPT = `(index) => {
  const el = document.querySelectorAll('[data-click]')[index];
  if (!(el instanceof HTMLElement)) throw new Error('no clickable element #' + index);
  el.click();
}`;

/** Types the query into the search bar and submits its form, as pressing Search does. */
export const SUBMIT_SEARCH_SCRIPT = `(query) => {
  const input = document.querySelector('input[type=search]');
  if (!(input instanceof HTMLInputElement) || !input.form) throw new Error('no search bar');
  input.value = query;
  input.form.requestSubmit();
}`;

/** WebShop's get_available_actions: lower-cased clickables and whether a search bar is shown. */
export function availableActions(read: PageRead): {
  has_search_bar: boolean;
  clickables: string[];
} {
  const clickables: string[] = [];
  for (const item of read.items) {
    const label = item.text.toLowerCase();
    if (item.kind === 'click' && !clickables.includes(label)) clickables.push(label);
  }
  return { has_search_bar: read.hasSearchBar, clickables };
}

export function renderObservation(read: PageRead, mode: ObservationMode): string {
  if (mode === 'simple') return read.items.map((i) => i.text).join(' [SEP] ');
  return read.items
    .map((i) =>
      i.kind === 'text'
        ? i.text
        : i.selected
          ? `[clicked button] ${i.text} [clicked button_]`
          : `[button] ${i.text} [button_]`,
    )
    .join('\n');
}

/** `search[query]` / `click[element]` (WebShop's action grammar), case-insensitive verb. */
export function parseCommand(text: string): { verb: 'search' | 'click'; arg: string } | undefined {
  const m = /^\s*(search|click)\s*\[([\s\S]*)\]\s*$/i.exec(text);
  if (!m) return undefined;
  return { verb: m[1]!.toLowerCase() as 'search' | 'click', arg: m[2]!.trim() };
}
