// The webshop bridge's surface as data: the state view's schema, the tools (WebShop's text command and
// its two structured twins), the snapshot's schema, and how a tool call becomes search / click.
import { z } from 'zod';
import { zodToJsonSchema } from '../core/schema.ts';
import type { Action, JsonSchema, ToolSpec } from '../core/types.ts';
import { parseCommand } from './observation.ts';
import { SUB_PAGES } from './site.ts';

export const ENV_TYPE = 'webshop';
export const TEXT_TOOL = { name: 'act', arg: 'command' } as const;
export const MAX_QUERY_CHARS = 200;

export const PAGE_KINDS = ['search', 'results', 'item', 'item_sub', 'done', 'error'] as const;

export const WebshopStateSchema = z.strictObject({
  task: z.string().describe('task id'),
  page: z.enum(PAGE_KINDS).describe('the kind of page shown'),
  url: z.string().describe('path and query of the page (no host)'),
  query: z.string().describe('the last search query ("" before searching)'),
  resultsPage: z.number().int().min(1).describe('results page number carried in the URL'),
  asin: z.string().nullable().describe('the product being viewed (item pages), else null'),
  subpage: z.enum(SUB_PAGES).nullable().describe('description / features / reviews, else null'),
  selectedOptions: z
    .record(z.string(), z.string())
    .describe('options chosen on the item page: option name -> value'),
  clickables: z.array(z.string()).describe('lower-cased clickable elements on the page'),
  hasSearchBar: z.boolean(),
  visited: z.array(z.string()).describe('products opened so far, in order'),
  purchased: z
    .strictObject({
      asin: z.string(),
      options: z.record(z.string(), z.string()),
      price: z.number(),
    })
    .nullable()
    .describe('what was bought (the episode ends with Buy Now)'),
  steps: z.number().int().min(0).describe('actions taken, invalid ones included'),
  invalidActions: z.number().int().min(0),
  done: z.boolean(),
});
export type WebshopState = z.infer<typeof WebshopStateSchema>;

export const ActSchema = z.strictObject({
  command: z
    .string()
    .min(1)
    .max(MAX_QUERY_CHARS + 20),
});
export const SearchSchema = z.strictObject({ query: z.string().min(1).max(MAX_QUERY_CHARS) });
export const ClickSchema = z.strictObject({ element: z.string().min(1).max(MAX_QUERY_CHARS) });

export const webshopTools: ToolSpec[] = [
  {
    name: TEXT_TOOL.name,
    description:
      'Act on the shop page with WebShop\'s commands: "search[<query>]" (only where there is a search bar) or "click[<element>]" with one of the clickable elements (a product id, an option value, "back to search", "next >", "< prev", "description", "features", "reviews", "buy now").',
    parameters: zodToJsonSchema(ActSchema),
  },
  {
    name: 'search',
    description: 'Type a query into the search bar and search (same as act "search[<query>]").',
    parameters: zodToJsonSchema(SearchSchema),
  },
  {
    name: 'click',
    description:
      'Click a clickable element of the page by its text (same as act "click[<element>]").',
    parameters: zodToJsonSchema(ClickSchema),
  },
];

export const webshopStateSchema: JsonSchema = zodToJsonSchema(WebshopStateSchema);

export const SnapshotSchema = z.object({
  envType: z.literal(ENV_TYPE),
  reset: z.object({
    taskId: z.string(),
    seed: z.number(),
    options: z.record(z.string(), z.unknown()).optional(),
  }),
  actions: z.array(z.object({ name: z.string(), args: z.record(z.string(), z.unknown()) })),
  /** The shortcut: the page is a function of its URL, so restoring = one navigation, not a replay. */
  state: z
    .object({
      view: WebshopStateSchema,
      observation: z.object({ text: z.string(), data: z.unknown().optional() }),
    })
    .optional(),
});

export type Parsed =
  | { ok: true; verb: 'search' | 'click'; arg: string }
  | { ok: false; reason: string };

export function parseAction(action: Action): Parsed {
  const args = action.args ?? {};
  if (action.name === TEXT_TOOL.name) {
    const r = ActSchema.safeParse(args);
    if (!r.success)
      return { ok: false, reason: 'act needs {"command": "search[...]" or "click[...]"}.' };
    const cmd = parseCommand(r.data.command);
    if (!cmd)
      return {
        ok: false,
        reason: `'${r.data.command}' is not a command: write search[<query>] or click[<element>].`,
      };
    return { ok: true, ...cmd };
  }
  if (action.name === 'search') {
    const r = SearchSchema.safeParse(args);
    if (!r.success) return { ok: false, reason: 'search needs {"query": "<text>"}.' };
    return { ok: true, verb: 'search', arg: r.data.query.trim() };
  }
  if (action.name === 'click') {
    const r = ClickSchema.safeParse(args);
    if (!r.success) return { ok: false, reason: 'click needs {"element": "<clickable text>"}.' };
    return { ok: true, verb: 'click', arg: r.data.element.trim() };
  }
  return {
    ok: false,
    reason: `unknown tool '${action.name}'. Tools: act {command}, search {query}, click {element}.`,
  };
}
