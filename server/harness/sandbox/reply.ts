// The strings a hook crossing is made of (guest/runtime.js reads and writes the other side).
// Arguments: 'J' + JSON, or for the common shapes raw strings that need no JSON inside QuickJS
// (its JSON.parse / stringify cost more than the hook itself there): 'A' an action whose args are
// all strings, 'O' an observation { text }, 'R' a step result with such an observation.
// Replies: '' (returned nothing), 'S' (its primary argument, untouched), 'T' + a string, raw,
// 'V' + JSON of the value, 'K' + JSON of a value whose `info` is the untouched lazy info, 'P' +
// JSON of a value without info + \u0003 + JSON of the info fields that differ from the host's,
// 'Q' + JSON of those fields alone, for a step result otherwise as sent.
// The commonest shapes skip even the cutting apart: an action with one string argument and a step
// result with an observation { text } cross as guest strings of their own (actionStrings,
// resultStrings; guest __callA / __afterA), which may hold the separators, not NUL.
import type { Json } from '../../../bridges/core/types.ts';
import { HarnessCodeError } from '../../errors.ts';
import { formatBytes, MAX_HOOK_REPLY_BYTES } from './limits.ts';

/**
 * A string that crosses raw: no NUL (QuickJS reads a C string), none of the separators \u0001 /
 * \u0002, and no surrogate (a lone one has no UTF-8; JSON escapes it; pairs are rare enough
 * to take the JSON way too).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding the separators is the point
const NOT_RAW = /[\u0000-\u0002\uD800-\uDFFF]/;
/** The same for text that goes last, where \u0001 / \u0002 may stay. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding NUL is the point
const NOT_RAW_LAST = /[\u0000\uD800-\uDFFF]/;

function raw(s: string): boolean {
  return !NOT_RAW.test(s);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Exactly these own enumerable keys, in this order. */
function keysAre(o: object, keys: readonly string[]): boolean {
  let i = 0;
  for (const k in o) {
    if (!Object.hasOwn(o, k) || k !== keys[i]) return false;
    i++;
  }
  return i === keys.length;
}

/** An action as an argument part: 'A' name \u0002 key \u0002 value ... when its args are strings. */
export function actionPart(action: Json): string {
  if (isRecord(action) && keysAre(action, ['name', 'args'])) {
    const { name, args } = action;
    if (typeof name === 'string' && raw(name) && isRecord(args) && !('toJSON' in args)) {
      let out = `A${name}`;
      let ok = true;
      for (const key of Object.keys(args)) {
        const value = args[key];
        if (typeof value !== 'string' || key === '__proto__' || !raw(key) || !raw(value)) {
          ok = false;
          break;
        }
        out += `\u0002${key}\u0002${value}`;
      }
      if (ok) return out;
    }
  }
  return `J${JSON.stringify(action)}`;
}

/** A string a C string carries as it is: no NUL, no surrogate (see NOT_RAW). */
function cSafe(s: string): boolean {
  return !NOT_RAW_LAST.test(s);
}

/**
 * An action with exactly one argument, a string, as its own strings [name, key, value] (the
 * guest's __callA / __afterA build it from them), or undefined for any other shape.
 */
export function actionStrings(action: Json): [string, string, string] | undefined {
  if (!isRecord(action) || !keysAre(action, ['name', 'args'])) return undefined;
  const { name, args } = action;
  if (typeof name !== 'string' || !isRecord(args) || 'toJSON' in args) return undefined;
  let key: string | undefined;
  for (const k in args) {
    if (key !== undefined || !Object.hasOwn(args, k)) return undefined;
    key = k;
  }
  if (key === undefined || key === '__proto__') return undefined;
  const value = args[key];
  if (typeof value !== 'string' || !cSafe(name) || !cSafe(key) || !cSafe(value)) return undefined;
  return [name, key, value];
}

/** A step result without its info of the plain shape (an observation { text } only, a finite reward). */
function plainResult(
  rest: Json,
): { text: string; reward: number; terminated: boolean; truncated: boolean } | undefined {
  if (!isRecord(rest) || !keysAre(rest, ['observation', 'reward', 'terminated', 'truncated'])) {
    return undefined;
  }
  const { observation, reward, terminated, truncated } = rest;
  if (
    isRecord(observation) &&
    typeof observation.text === 'string' &&
    keysAre(observation, ['text']) &&
    typeof reward === 'number' &&
    Number.isFinite(reward) &&
    typeof terminated === 'boolean' &&
    typeof truncated === 'boolean'
  ) {
    return { text: observation.text, reward, terminated, truncated };
  }
  return undefined;
}

/**
 * A step result without its info, as resultPart's 'R' reads it, in strings of their own:
 * [JSON of the reward, terminated and truncated as 0/1, the observation's text]; else undefined.
 */
export function resultStrings(rest: Json): [string, string, string] | undefined {
  const r = plainResult(rest);
  if (!r || !cSafe(r.text)) return undefined;
  return [JSON.stringify(r.reward), `${r.terminated ? 1 : 0}${r.truncated ? 1 : 0}`, r.text];
}

/** An observation { text } (the only key) as 'O' + its raw text, else 'J' + JSON. */
export function observationPart(observation: Json): string {
  if (
    isRecord(observation) &&
    typeof observation.text === 'string' &&
    keysAre(observation, ['text']) &&
    raw(observation.text)
  ) {
    return `O${observation.text}`;
  }
  return `J${JSON.stringify(observation)}`;
}

/** Any argument as its part: an action or an observation of the common shapes raw, else JSON. */
export function argPart(arg: Json): string {
  if (isRecord(arg) && typeof arg.text === 'string') return observationPart(arg);
  return actionPart(arg);
}

/**
 * A step result without its info: 'R' + JSON of the reward, ',', terminated and truncated as 0/1,
 * \u0001, the raw text of its observation { text }; else 'J' + JSON. Raw text goes last: it may
 * hold \u0001 (the guest cuts at the first one).
 */
export function resultPart(rest: Json): string {
  const r = plainResult(rest);
  if (r && !NOT_RAW_LAST.test(r.text)) {
    return `R${JSON.stringify(r.reward)},${r.terminated ? 1 : 0}${r.truncated ? 1 : 0}\u0001${r.text}`;
  }
  return `J${JSON.stringify(rest)}`;
}

function capped(hook: string, json: string): void {
  // A UTF-16 length times 3 bounds the UTF-8 size: count bytes only for replies near the cap.
  if (json.length * 3 > MAX_HOOK_REPLY_BYTES) {
    const bytes = Buffer.byteLength(json, 'utf8');
    if (bytes > MAX_HOOK_REPLY_BYTES) {
      throw new HarnessCodeError(
        `hook ${hook} returned ${formatBytes(bytes)}; the limit is ${formatBytes(MAX_HOOK_REPLY_BYTES)}`,
        hook,
      );
    }
  }
}

/**
 * The reply's value, or undefined when the hook returned nothing or what it was sent. `sent` is
 * the primary argument as sent (undefined when the hook has none): its JSON is made only when the
 * guest could not tell (a 'V' / 'K' reply); a 'Q' reply is it with changes to its info.
 */
export function decodeReply(
  hook: string,
  text: string,
  sent: Json | undefined,
  lazyInfo: Record<string, Json> | undefined,
): Json | undefined {
  const kind = text[0];
  if (kind === undefined || kind === 'S') return undefined;
  if (kind === 'Q' && isRecord(sent)) {
    const json = text.slice(1);
    capped(hook, json);
    return { ...sent, info: JSON.parse(json) as Json };
  }
  if (kind === 'T') {
    const value = text.slice(1);
    // The cap is on the reply's JSON: escapes take at most 6 characters, 1 byte each.
    if (value.length * 6 > MAX_HOOK_REPLY_BYTES) capped(hook, JSON.stringify(value));
    return value;
  }
  const json = text.slice(1);
  if (kind === 'P') {
    capped(hook, json);
    const cut = json.indexOf('\u0003');
    const value = JSON.parse(json.slice(0, cut)) as Json;
    const info = JSON.parse(json.slice(cut + 1)) as Json;
    if (!isRecord(value)) return value;
    return { ...value, info };
  }
  if (sent !== undefined && json === JSON.stringify(sent)) return undefined;
  capped(hook, json);
  const value = JSON.parse(json) as Json;
  if (kind === 'K' && lazyInfo && isRecord(value)) return { ...value, info: lazyInfo };
  return value;
}
