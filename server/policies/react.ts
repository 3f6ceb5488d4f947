// The ReAct text mode of the openai policy: for endpoints (or models) without tool calling. The
// bridge's tools are described in the system prompt, with few-shot examples from the bridge's
// prompt file (prompts/<bridge>.txt), and each reply is read for one action:
//   1. a JSON tool call written in text (`<tool_call>{…}</tool_call>`, a ```json block, a bare object);
//   2. an `Action: …` line (the first one; anything after a made-up `Observation:` is ignored);
//   3. `think: …` (ALFWorld ReAct): a thought, answered "OK." by the policy;
//   4. a fenced command (the last ``` block of one line);
//   5. a bare command on the last line (`> go to cabinet 1`, or just `go to cabinet 1`).
// An action line is a text-tool command (`go to cabinet 1`) or a call of a named tool:
// `tool {"arg": …}`, `tool(arg=…, …)`, `tool(text)`, `tool[text]`.
import '#server-only';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Action, Json, JsonObject, ToolSpec } from '../../bridges/core/types.ts';

export interface ReactContext {
  tools: ToolSpec[];
  textTool?: { name: string; arg: string } | undefined;
  /** What may be typed next (info.admissibleCommands), when the bridge says. */
  admissible?: string[] | undefined;
}

export type ReactParse =
  /** `strong`: the reply plainly chose this action (used by auto mode to switch to ReAct). */
  | { kind: 'action'; action: Action; line: string; strong: boolean }
  | { kind: 'think'; thought: string }
  /** Something that reads as an action but cannot be one (unknown tool, arguments not JSON). */
  | { kind: 'bad'; line: string; reason: string }
  | { kind: 'none'; reason: string };

const NO_ACTION =
  'no action found: end the reply with one line "Action: <command>" (or "think: <thoughts>")';

// ─────────────────────────────── reading one action ───────────────────────────────

function findTool(ctx: ReactContext, name: string): ToolSpec | undefined {
  return (
    ctx.tools.find((t) => t.name === name) ??
    ctx.tools.find((t) => t.name.toLowerCase() === name.toLowerCase())
  );
}

function paramNames(tool: ToolSpec): { all: string[]; required: string[] } {
  const props = tool.parameters.properties;
  const all = props && typeof props === 'object' && !Array.isArray(props) ? Object.keys(props) : [];
  const req = tool.parameters.required;
  const required = Array.isArray(req) ? req.filter((r): r is string => typeof r === 'string') : [];
  return { all, required };
}

function paramType(tool: ToolSpec, name: string): string | undefined {
  const props = tool.parameters.properties as Record<string, { type?: unknown }> | undefined;
  const t = props?.[name]?.type;
  return typeof t === 'string' ? t : Array.isArray(t) ? String(t[0]) : undefined;
}

function unquote(s: string): string {
  const t = s.trim();
  if (t.length >= 2 && /^(["'`]).*\1$/s.test(t)) return t.slice(1, -1);
  return t;
}

function scalar(tool: ToolSpec, name: string, raw: string): Json {
  const text = unquote(raw);
  const type = paramType(tool, name);
  if ((type === 'number' || type === 'integer') && /^-?\d+(\.\d+)?$/.test(text))
    return Number(text);
  if (type === 'boolean' && /^(true|false)$/i.test(text)) return text.toLowerCase() === 'true';
  if (type === 'string' || /^["'`]/.test(raw.trim())) return text;
  try {
    return JSON.parse(raw) as Json;
  } catch {
    return text;
  }
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Arguments for `tool` from the text inside `tool(…)` / `tool[…]` / after `tool`. */
function argsFromText(tool: ToolSpec, inner: string): { args: JsonObject } | { reason: string } {
  const text = inner.trim();
  const { all, required } = paramNames(tool);
  if (text === '') {
    return required.length === 0
      ? { args: {} }
      : { reason: `${tool.name} needs ${required.join(', ')}` };
  }
  if (text.startsWith('{')) {
    try {
      const v: unknown = JSON.parse(text);
      if (isObject(v)) return { args: v };
    } catch (e) {
      return { reason: `arguments of ${tool.name} are not valid JSON (${(e as Error).message})` };
    }
  }
  const pairs = [...text.matchAll(/([A-Za-z_]\w*)\s*[=:]\s*("(?:[^"\\]|\\.)*"|'[^']*'|[^,]*)/g)];
  if (pairs.length > 0 && pairs.every((m) => all.includes(m[1] ?? ''))) {
    const args: JsonObject = {};
    for (const m of pairs) args[m[1] ?? ''] = scalar(tool, m[1] ?? '', m[2] ?? '');
    return { args };
  }
  const single = required.length === 1 ? required[0] : all.length === 1 ? all[0] : undefined;
  if (single) return { args: { [single]: scalar(tool, single, text) } };
  return {
    reason: `cannot read the arguments of ${tool.name} from '${text}': write ${tool.name} {"name": value, …}`,
  };
}

type Read = { action: Action; called: boolean } | { reason: string } | undefined;

/** A JSON tool call: {name, arguments|args|parameters|input} or {function: {name, arguments}}. */
function jsonCall(value: unknown, ctx: ReactContext): Read {
  if (!isObject(value)) return undefined;
  const fn = isObject(value.function) ? value.function : value;
  const name = [fn.name, value.tool, value.action].find((n) => typeof n === 'string') as
    | string
    | undefined;
  if (name === undefined) {
    // {"command": "go to cabinet 1"}: the text tool's argument alone.
    const t = ctx.textTool;
    if (t && typeof value[t.arg] === 'string' && Object.keys(value).length === 1) {
      return { action: { name: t.name, args: { [t.arg]: value[t.arg] as string } }, called: true };
    }
    return undefined;
  }
  const tool = findTool(ctx, name);
  if (!tool) {
    return {
      reason: `unknown tool '${name}'; available: ${ctx.tools.map((t) => t.name).join(', ')}`,
    };
  }
  let args: unknown = fn.arguments ?? fn.args ?? fn.parameters ?? fn.input ?? value.arguments ?? {};
  if (typeof args === 'string') {
    try {
      args = args.trim() === '' ? {} : JSON.parse(args);
    } catch (e) {
      return { reason: `arguments of ${name} are not valid JSON (${(e as Error).message})` };
    }
  }
  if (!isObject(args)) return { reason: `arguments of ${name} must be a JSON object` };
  return { action: { name: tool.name, args }, called: true };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** One action line: a call of a named tool, JSON, or a command for the text tool. */
export function readActionLine(line: string, ctx: ReactContext): Read {
  const s = unquote(line.replace(/^\s*(?:[-*]\s+|>\s*)/, '').replace(/^\*\*|\*\*$/g, ''));
  if (s === '') return undefined;
  if (s.startsWith('{')) {
    const call = jsonCall(parseJson(s), ctx);
    if (call) return call;
  }
  const m =
    /^([A-Za-z_][\w.-]*)\s*(\(([\s\S]*)\)|\[([\s\S]*)\])\s*$/.exec(s) ??
    /^([A-Za-z_][\w.-]*)\s+(\{[\s\S]*\})\s*$/.exec(s);
  const tool = m?.[1] ? findTool(ctx, m[1]) : undefined;
  if (m?.[1] && !tool && m[2]?.startsWith('{') && isObject(parseJson(m[2]))) {
    // `name {…JSON…}` is a tool call, even on a bridge with a text tool.
    return {
      reason: `unknown tool '${m[1]}'; available: ${ctx.tools.map((t) => t.name).join(', ')}`,
    };
  }
  // A text command that merely starts with a tool's name ("act") stays a command.
  if (m && tool && !(ctx.textTool && tool.name === ctx.textTool.name && !m[2]?.startsWith('{'))) {
    const inner = m[3] ?? m[4] ?? m[2] ?? '';
    const read = argsFromText(tool, inner);
    return 'args' in read ? { action: { name: tool.name, args: read.args }, called: true } : read;
  }
  if (m && tool && ctx.textTool && tool.name === ctx.textTool.name) {
    const read = argsFromText(tool, m[3] ?? m[4] ?? '');
    if ('args' in read) return { action: { name: tool.name, args: read.args }, called: true };
  }
  // `tool {` with JSON that does not parse: say so rather than type it as a command.
  const open = /^([A-Za-z_][\w.-]*)\s*(\{[\s\S]*)$/.exec(s);
  const opened = open?.[1] ? findTool(ctx, open[1]) : undefined;
  if (open && opened) {
    const read = argsFromText(opened, open[2] ?? '');
    return 'args' in read ? { action: { name: opened.name, args: read.args }, called: true } : read;
  }
  const t = ctx.textTool;
  if (t)
    return { action: { name: t.name, args: { [t.arg]: s.replace(/\.$/, '') } }, called: false };
  const named = /^([A-Za-z_][\w.-]*)\s*$/.exec(s);
  const bare = named?.[1] ? findTool(ctx, named[1]) : undefined;
  if (bare) {
    const read = argsFromText(bare, '');
    return 'args' in read ? { action: { name: bare.name, args: read.args }, called: true } : read;
  }
  return {
    reason: `cannot read an action from '${s}': write Action: <tool> {"argument": value} with one of ${ctx.tools.map((x) => x.name).join(', ')}`,
  };
}

function isAdmissible(action: Action, ctx: ReactContext): boolean {
  const t = ctx.textTool;
  const cmd = t && action.name === t.name ? action.args[t.arg] : undefined;
  if (typeof cmd !== 'string' || !ctx.admissible) return false;
  const c = cmd.trim().toLowerCase();
  return ctx.admissible.some((a) => a.trim().toLowerCase() === c);
}

const THINK = /^\s*(?:>\s*)?(?:\*\*)?(think|thought)(?:\*\*)?\s*:\s*/i;
const ACTION =
  /^[ \t]*(?:>[ \t]*)?(?:\*\*)?action(?:[ \t]*\d+)?(?:\*\*)?[ \t]*:(?:\*\*)?[ \t]*(.*)$/im;

function fromRead(read: Read, line: string, strong: boolean, ctx: ReactContext): ReactParse {
  if (!read) return { kind: 'none', reason: NO_ACTION };
  if ('reason' in read) return { kind: 'bad', line, reason: read.reason };
  return {
    kind: 'action',
    action: read.action,
    line,
    strong: strong || read.called || isAdmissible(read.action, ctx),
  };
}

/** The one action a reply chose (reasoning already removed), or why there is none. */
export function parseReply(reply: string, ctx: ReactContext): ReactParse {
  // A model that keeps writing after its action invents the next observation: ignore the rest.
  const text = reply.split(/^[ \t]*(?:>[ \t]*)?observation\s*\d*\s*:/im)[0] ?? '';
  if (text.trim() === '') return { kind: 'none', reason: 'empty reply' };

  const tagged = /<tool_call>([\s\S]*?)(?:<\/tool_call>|$)/i.exec(text);
  if (tagged?.[1]) {
    const call = jsonCall(parseJson(tagged[1].trim()), ctx);
    if (call) return fromRead(call, tagged[1].trim(), true, ctx);
  }
  for (const block of text.matchAll(/```(?:json)\s*\n([\s\S]*?)```/gi)) {
    const call = jsonCall(parseJson((block[1] ?? '').trim()), ctx);
    if (call) return fromRead(call, (block[1] ?? '').trim(), true, ctx);
  }

  const action = ACTION.exec(text);
  if (action) {
    let value = (action[1] ?? '').trim();
    const after = text.slice((action.index ?? 0) + action[0].length).split('\n');
    if (value === '') value = after.find((l) => l.trim() !== '')?.trim() ?? '';
    // LangChain's form: "Action: tool" then "Action Input: {…}".
    const input = /^\s*action input\s*:\s*([\s\S]*)$/im.exec(after.join('\n'));
    const tool = findTool(ctx, value);
    if (input && tool) {
      const read = argsFromText(tool, (input[1] ?? '').trim().replace(/^```\w*|```$/g, ''));
      return fromRead(
        'args' in read ? { action: { name: tool.name, args: read.args }, called: true } : read,
        `${value} ${input[1]?.trim() ?? ''}`,
        true,
        ctx,
      );
    }
    return fromRead(readActionLine(value, ctx), value, true, ctx);
  }

  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const first = lines[0] ?? '';
  const last = lines.at(-1) ?? '';
  const thinking = THINK.test(first);
  // "think: …" then "> go to cabinet 1": the thought comes with its action.
  if (thinking && lines.length > 1 && last.startsWith('>') && !THINK.test(last)) {
    return fromRead(readActionLine(last, ctx), last, true, ctx);
  }
  if (thinking) return { kind: 'think', thought: text.trim().replace(THINK, '').trim() };

  const fences = [...text.matchAll(/```[\w-]*\s*\n?([\s\S]*?)```/g)];
  const fenced = fences.at(-1)?.[1]?.trim();
  if (fenced && !fenced.includes('\n')) {
    return fromRead(readActionLine(fenced, ctx), fenced, true, ctx);
  }

  const json = text.indexOf('{');
  if (json >= 0) {
    const call = jsonCall(parseJson(text.slice(json, text.lastIndexOf('}') + 1)), ctx);
    if (call) return fromRead(call, text.slice(json).trim(), true, ctx);
  }

  if (THINK.test(last)) return { kind: 'think', thought: last.replace(THINK, '').trim() };
  return fromRead(readActionLine(last, ctx), last, last.startsWith('>'), ctx);
}

// ─────────────────────────────── the prompt ───────────────────────────────

/** A tool's parameters in one line: `command (string, required): the command to type`. */
function describeParams(tool: ToolSpec): string {
  const props = (tool.parameters.properties ?? {}) as Record<string, Record<string, unknown>>;
  const { required } = paramNames(tool);
  const parts = Object.entries(props).map(([name, p]) => {
    const type = Array.isArray(p.type)
      ? p.type.join(' | ')
      : typeof p.type === 'string'
        ? p.type
        : Array.isArray(p.enum)
          ? p.enum.map((e) => JSON.stringify(e)).join(' | ')
          : 'value';
    const desc = typeof p.description === 'string' ? `: ${p.description}` : '';
    return `${name} (${type}${required.includes(name) ? ', required' : ''})${desc}`;
  });
  return parts.length > 0 ? parts.join('; ') : 'no arguments';
}

/** The tools as the ReAct prompt lists them, and how to write an action line for each. */
export function describeTools(tools: ToolSpec[], textTool: ReactContext['textTool']): string {
  const lines = ['Tools:'];
  for (const t of tools) {
    lines.push(`- ${t.name}: ${t.description} Arguments: ${describeParams(t)}.`);
  }
  lines.push('', 'Write one action per reply, on the last line of the reply:');
  if (textTool) {
    lines.push(
      `- a command for ${textTool.name}, typed as plain text: "Action: <command>" or "> <command>"`,
    );
  }
  const named = tools.filter((t) => t.name !== textTool?.name);
  if (named.length > 0 || !textTool) {
    const example = named[0] ?? tools[0];
    lines.push(
      `- a tool call: "Action: <tool> {<arguments as JSON>}"${example ? `, e.g. Action: ${example.name} ${exampleArgs(example)}` : ''}`,
    );
  }
  return lines.join('\n');
}

function exampleArgs(tool: ToolSpec): string {
  const { all, required } = paramNames(tool);
  const names = required.length > 0 ? required : all.slice(0, 1);
  const args = Object.fromEntries(
    names.map((n) => {
      const type = paramType(tool, n);
      return [n, type === 'number' || type === 'integer' ? 1 : '…'];
    }),
  );
  return JSON.stringify(args);
}

/** The line a past tool call becomes when the conversation is re-told in ReAct text. */
export function actionLineOf(action: Action, textTool: ReactContext['textTool']): string {
  if (textTool && action.name === textTool.name) {
    const v = action.args[textTool.arg];
    if (typeof v === 'string' && Object.keys(action.args).length === 1) return `Action: ${v}`;
  }
  return `Action: ${action.name} ${JSON.stringify(action.args)}`;
}

export interface ThinkRule {
  /** 'step': a think costs one step of the budget (ReAct's ALFWorld runs); 'free': none. */
  cost: 'step' | 'free';
}

export function thinkInstruction(rule: ThinkRule): string {
  return `To think without acting, reply with one line "think: <your thoughts>"; it is answered "OK." and ${
    rule.cost === 'free' ? 'costs no step' : 'costs one step, like an action'
  }.`;
}

const PROMPTS_DIR = fileURLToPath(new URL('./prompts/', import.meta.url));
const fileCache = new Map<string, string | undefined>();

/** A prompt file's text without a leading `<!-- … -->` note (where the examples come from). */
function readPromptFile(file: string): string | undefined {
  if (!fileCache.has(file)) {
    const text = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
    fileCache.set(file, text?.replace(/^\s*<!--[\s\S]*?-->\s*/, '').trim());
  }
  return fileCache.get(file);
}

/**
 * The bridge's few-shot examples: `<dir>/<bridge>.txt` from the configured folder
 * (REACT_PROMPTS_DIR) when it has one, else the bundled prompts/<bridge>.txt, else none.
 */
export function fewShotExamples(bridge: string, dir?: string): string | undefined {
  if (!/^[\w-]+$/.test(bridge)) return undefined;
  for (const folder of [dir, PROMPTS_DIR]) {
    if (!folder) continue;
    const text = readPromptFile(path.join(folder, `${bridge}.txt`));
    if (text) return text;
  }
  return undefined;
}
