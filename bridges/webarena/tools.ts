// The webarena bridge's surface as data: WebArena's action space (one tool per action and the text
// tool `act` that takes WebArena's own syntax), the state view's schema, and the parser that turns a
// tool call into one browser action.
import { z } from 'zod';
import { zodToJsonSchema } from '../core/schema.ts';
import type { Action, JsonSchema, ToolSpec } from '../core/types.ts';

export const ENV_TYPE = 'webarena';
export const TEXT_TOOL = { name: 'act', arg: 'command' } as const;
export const MAX_TEXT = 1000;

export type BrowserAction =
  | { kind: 'click' | 'hover'; id: number }
  | { kind: 'type'; id: number; text: string; enter: boolean }
  | { kind: 'press'; key: string }
  | { kind: 'scroll'; direction: 'up' | 'down' }
  | { kind: 'new_tab' | 'close_tab' | 'go_back' | 'go_forward' }
  | { kind: 'tab_focus'; index: number }
  | { kind: 'goto'; url: string }
  | { kind: 'stop'; answer: string };

export type Parsed = { ok: true; action: BrowserAction } | { ok: false; reason: string };

const GRAMMAR =
  'click [id], type [id] [text] [press_enter_after=0|1], hover [id], press [key_comb], scroll [up|down], new_tab, tab_focus [tab_index], close_tab, goto [url], go_back, go_forward, stop [answer]';

/** One command in WebArena's id-based syntax (browser_env/actions.py `create_id_based_action`). */
export function parseCommand(raw: string): Parsed {
  const s = raw.trim();
  const verb = (s.includes('[') ? s.split('[')[0] : s.split(/\s+/)[0])?.trim().toLowerCase() ?? '';
  const bad = (why: string): Parsed => ({ ok: false, reason: `${why} Commands: ${GRAMMAR}.` });
  switch (verb) {
    case 'click':
    case 'hover': {
      const m = /^\w+ ?\[(\d+)\]$/.exec(s);
      return m
        ? { ok: true, action: { kind: verb, id: Number(m[1]) } }
        : bad(`'${s}' is not ${verb} [id].`);
    }
    case 'type': {
      let t = s;
      if (!(t.endsWith('[0]') || t.endsWith('[1]'))) t += ' [1]';
      const m = /^type ?\[(\d+)\] ?\[(.*)\] ?\[([01])\]$/s.exec(t);
      if (!m) return bad(`'${s}' is not type [id] [text] [press_enter_after].`);
      return {
        ok: true,
        action: { kind: 'type', id: Number(m[1]), text: m[2] as string, enter: m[3] === '1' },
      };
    }
    case 'press': {
      const m = /^press ?\[(.+)\]$/.exec(s);
      return m
        ? { ok: true, action: { kind: 'press', key: (m[1] as string).trim() } }
        : bad(`'${s}' is not press [key_comb].`);
    }
    case 'scroll': {
      const m = /^scroll ?\[(down|up)\]$/i.exec(s);
      return m
        ? {
            ok: true,
            action: { kind: 'scroll', direction: (m[1] as string).toLowerCase() as 'up' },
          }
        : bad(`'${s}' is not scroll [up] or scroll [down].`);
    }
    case 'new_tab':
    case 'close_tab':
    case 'go_back':
    case 'go_forward':
      return s.toLowerCase() === verb
        ? { ok: true, action: { kind: verb } }
        : bad(`'${s}' takes no argument.`);
    case 'tab_focus': {
      const m = /^tab_focus ?\[(\d+)\]$/.exec(s);
      return m
        ? { ok: true, action: { kind: 'tab_focus', index: Number(m[1]) } }
        : bad(`'${s}' is not tab_focus [tab_index].`);
    }
    case 'goto': {
      const m = /^goto ?\[(.+)\]$/.exec(s);
      return m
        ? { ok: true, action: { kind: 'goto', url: (m[1] as string).trim() } }
        : bad(`'${s}' is not goto [url].`);
    }
    case 'stop': {
      const m = /^stop ?\[(.*)\]$/s.exec(s);
      if (m) return { ok: true, action: { kind: 'stop', answer: m[1] as string } };
      return s.toLowerCase() === 'stop'
        ? { ok: true, action: { kind: 'stop', answer: '' } }
        : bad(`'${s}' is not stop [answer].`);
    }
    default:
      return bad(`'${s}' is not a command.`);
  }
}

/** The command text of a browser action (the text tool's form of a structured tool call). */
export function commandText(a: BrowserAction): string {
  switch (a.kind) {
    case 'click':
    case 'hover':
      return `${a.kind} [${a.id}]`;
    case 'type':
      return `type [${a.id}] [${a.text}] [${a.enter ? 1 : 0}]`;
    case 'press':
      return `press [${a.key}]`;
    case 'scroll':
      return `scroll [${a.direction}]`;
    case 'tab_focus':
      return `tab_focus [${a.index}]`;
    case 'goto':
      return `goto [${a.url}]`;
    case 'stop':
      return `stop [${a.answer}]`;
    default:
      return a.kind;
  }
}

const Id = z
  .number()
  .int()
  .min(0)
  .describe('the element id shown in brackets, e.g. 1234 for [1234]');
const Schemas = {
  act: z.strictObject({
    command: z
      .string()
      .min(1)
      .max(MAX_TEXT + 50),
  }),
  click: z.strictObject({ element_id: Id }),
  type: z.strictObject({
    element_id: Id,
    text: z.string().max(MAX_TEXT),
    press_enter_after: z
      .boolean()
      .optional()
      .describe('press Enter after typing (default true, as WebArena)'),
  }),
  hover: z.strictObject({ element_id: Id }),
  press: z.strictObject({
    key_comb: z.string().min(1).max(40).describe('e.g. Enter, Control+a, Meta+ArrowLeft'),
  }),
  scroll: z.strictObject({ direction: z.enum(['up', 'down']) }),
  new_tab: z.strictObject({}),
  tab_focus: z.strictObject({ tab_index: z.number().int().min(0) }),
  close_tab: z.strictObject({}),
  goto: z.strictObject({ url: z.string().min(1).max(2000) }),
  go_back: z.strictObject({}),
  go_forward: z.strictObject({}),
  stop: z.strictObject({
    answer: z.string().max(MAX_TEXT).describe('the answer; empty when the task asks for none'),
  }),
};

const DESCRIPTIONS: Record<keyof typeof Schemas, string> = {
  act: `One WebArena action in its own syntax: ${GRAMMAR}. Ids are the numbers in brackets in the accessibility tree.`,
  click: 'Click the element with this id.',
  type: 'Click the field with this id, type the text, and press Enter afterwards unless press_enter_after is false.',
  hover: 'Move the mouse over the element with this id.',
  press: 'Press a key combination on the focused element (e.g. Enter, Control+a).',
  scroll: 'Scroll the page one screen up or down.',
  new_tab: 'Open a new, empty tab and switch to it.',
  tab_focus:
    'Switch to the tab with this index (0-based, as listed at the top of the observation).',
  close_tab: 'Close the current tab.',
  goto: 'Open a URL of one of the sites in the current tab.',
  go_back: 'Go back to the previous page.',
  go_forward: 'Go forward to the next page.',
  stop: 'End the task, with the answer when it asks for one.',
};

export const webarenaTools: ToolSpec[] = (Object.keys(Schemas) as (keyof typeof Schemas)[]).map(
  (name) => ({
    name,
    description: DESCRIPTIONS[name],
    parameters: zodToJsonSchema(Schemas[name]),
  }),
);

export function parseAction(action: Action): Parsed {
  const name = action.name as keyof typeof Schemas;
  const schema = Schemas[name];
  if (!schema)
    return {
      ok: false,
      reason: `unknown tool '${action.name}'. Tools: ${Object.keys(Schemas).join(', ')}.`,
    };
  const r = schema.safeParse(action.args ?? {});
  if (!r.success) {
    const issue = r.error.issues[0];
    return {
      ok: false,
      reason: `${action.name}: ${issue?.path.join('.') || 'arguments'}: ${issue?.message ?? 'invalid'}.`,
    };
  }
  const a = r.data as Record<string, unknown>;
  switch (name) {
    case 'act':
      return parseCommand(a.command as string);
    case 'click':
    case 'hover':
      return { ok: true, action: { kind: name, id: a.element_id as number } };
    case 'type':
      return {
        ok: true,
        action: {
          kind: 'type',
          id: a.element_id as number,
          text: a.text as string,
          enter: a.press_enter_after !== false,
        },
      };
    case 'press':
      return { ok: true, action: { kind: 'press', key: a.key_comb as string } };
    case 'scroll':
      return { ok: true, action: { kind: 'scroll', direction: a.direction as 'up' | 'down' } };
    case 'tab_focus':
      return { ok: true, action: { kind: 'tab_focus', index: a.tab_index as number } };
    case 'goto':
      return { ok: true, action: { kind: 'goto', url: a.url as string } };
    case 'stop':
      return { ok: true, action: { kind: 'stop', answer: a.answer as string } };
    default:
      return { ok: true, action: { kind: name } };
  }
}

export const TabSchema = z.strictObject({ url: z.string(), title: z.string() });

export const WebarenaStateSchema = z.strictObject({
  task: z.string(),
  url: z.string().describe('URL of the current tab, as the agent sees it'),
  site: z.enum(['forum', 'gitlab', 'none']).describe('the site the current tab shows'),
  title: z.string(),
  tabs: z.array(TabSchema),
  activeTab: z.number().int().min(0),
  scrollY: z.number().describe('vertical scroll offset of the current tab, in CSS pixels'),
  visited: z.array(z.string()).describe('URLs loaded so far, in order, each once (at most 100)'),
  searches: z.number().int().min(0).describe('search result pages loaded'),
  formSubmissions: z.number().int().min(0).describe('forms posted to the sites'),
  changes: z.array(z.string()).describe('what the forms changed on the sites, in order'),
  answer: z.string().nullable().describe('the stop answer, null until stop'),
  steps: z.number().int().min(0),
  invalidActions: z.number().int().min(0),
  done: z.boolean(),
});
export type WebarenaState = z.infer<typeof WebarenaStateSchema>;
export const webarenaStateSchema: JsonSchema = zodToJsonSchema(WebarenaStateSchema);

export const SnapshotSchema = z.object({
  envType: z.literal(ENV_TYPE),
  reset: z.object({
    taskId: z.string(),
    seed: z.number(),
    options: z.record(z.string(), z.unknown()).optional(),
  }),
  actions: z.array(z.object({ name: z.string(), args: z.record(z.string(), z.unknown()) })),
  /** How many of `actions` a Stage's set-up had made when it called afterSetup. */
  state: z.object({ setupAt: z.number().int().min(0) }).optional(),
});
