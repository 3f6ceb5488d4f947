// Guest code: the engine side of every hook runtime. The host (hook-set.ts) calls __configure once
// with the hook argument table, __begin per episode, __call per hook call, __after for the
// Contract's two post-step hooks in one crossing, and __which after an error. The user's code is a
// factory (__factory, defined after this script) re-run by __begin for fresh per-episode state.
//
// __begin, __call and __after never throw what the user threw: a thrown value may be a Proxy or an
// object whose getters, toString or Symbol.toPrimitive loop, and reading it is running user code.
// They read it here, inside the call, under the host's deadline and watchdog, and answer with a
// failure reply of plain strings (__failure). Only an uncatchable error (the deadline's interrupt)
// or one raised while describing (out of memory) reaches the host, and those are QuickJS's own.

// Per hook name: which argument the hook returns (possibly changed; -1 none) and where the lazy
// state view goes. Data from the host (contract.ts / chain.ts own the table), set once.
const __primaryArg = {};
const __stateArg = {};
// The hook names in table order: a call names its hook by index.
let __names = [];
function __configure(tableJson) {
  const table = JSON.parse(tableJson);
  __names = Object.keys(table);
  for (const name of __names) {
    __primaryArg[name] = table[name].primary;
    __stateArg[name] = table[name].state;
  }
}

// The loop instrumentation (loops.ts) wraps every loop of the user's code: __loopEnter /
// __loopLeave around it (in a finally, which an interrupt skips), __loopTick(id) at the top of its
// body. After an interrupt the host asks __loopAt which loop was running: QuickJS's own backtrace
// often names the first line of the function instead.
let __loopId = -1;
function __loopTick(id) {
  __loopId = id;
}
function __loopEnter() {
  return __loopId;
}
function __loopLeave(previous) {
  __loopId = previous;
}
function __loopAt() {
  return __loopId;
}

// Failure replies start with \u0002, which no other reply does ('' / 'S' / 'T' / 'V' / 'K' / 'P' /
// \u0001 / '{').
const __MAX_TEXT = 65536;
function __text(value) {
  if (typeof value !== 'string') return undefined;
  return value.length > __MAX_TEXT ? value.slice(0, __MAX_TEXT) : value;
}
function __describe(e) {
  if (e === null || (typeof e !== 'object' && typeof e !== 'function')) {
    // String() of a primitive runs no user code.
    const text = String(e);
    return {
      name: 'Error',
      message: `threw a non-error value: ${__text(text)}`,
      messageLength: text.length + 25,
    };
  }
  const message = e.message;
  const out = { name: __text(e.name), message: __text(message), stack: __text(e.stack) };
  if (typeof message === 'string') out.messageLength = message.length;
  if (typeof e.lineNumber === 'number') out.lineNumber = e.lineNumber;
  if (out.message === undefined) {
    let shown;
    try {
      shown = typeof e === 'function' ? 'a function' : __text(JSON.stringify(e))?.slice(0, 200);
    } catch {
      shown = undefined;
    }
    out.name = 'Error';
    out.message = `threw a non-error value: ${shown ?? 'an object that cannot be shown'}`;
  }
  return out;
}
function __failure(e) {
  let out;
  try {
    out = __describe(e);
  } catch {
    out = { name: 'Error', message: 'threw a value that could not be read' };
  }
  out.hook = __current;
  return `\u0002${JSON.stringify(out)}`;
}

let __hooks = {};
function __begin(seed) {
  try {
    return __beginEpisode(seed);
  } catch (e) {
    return __failure(e);
  }
}
function __beginEpisode(seed) {
  __loopId = -1;
  __reseed(seed);
  __stateGen = '';
  __state.clear();
  __current = '(load)';
  const made = __factory();
  const hooks = {};
  for (const name of Object.keys(made)) {
    const f = made[name];
    if (f === undefined) continue;
    if (typeof f !== 'function') throw new TypeError(`${name} must be a function, not ${typeof f}`);
    hooks[name] = f;
  }
  __hooks = hooks;
  return JSON.stringify({ hooks: Object.keys(hooks) });
}

// The state view crosses the boundary lazily, one top-level field at a time: a hook that reads
// state.agent.holding on one command in ten pays for that field on that command only. One proxy
// serves every call; the host bumps a generation number whenever the state may have changed.
// Listing the keys (a spread, Object.keys, JSON.stringify — each then reads every field) fetches
// every field in one crossing: `fetch(1)` answers JSON key \u0001 JSON value pairs, joined by
// \u0001 (an empty value: undefined). `sent(key)` is the JSON the host sent for a field.
function __lazyObject(fetch) {
  let fields = new Map();
  let sent = new Map();
  let keys;
  let complete = false;
  // Whether anything was fetched since the last clear (cheaper to ask than a Map's size).
  let used = false;
  const load = (key, json) => {
    used = true;
    const value = json === undefined ? undefined : JSON.parse(json);
    // An array keeps a shallow copy (native slice): see __sameAsSent.
    const copy = Array.isArray(value) ? value.slice() : undefined;
    sent.set(key, json === undefined ? undefined : { json, value, copy });
    fields.set(key, value);
  };
  const field = (key) => {
    if (typeof key !== 'string') return undefined;
    if (!fields.has(key)) load(key, fetch(key));
    return fields.get(key);
  };
  const allKeys = () => {
    if (keys === undefined) {
      used = true;
      keys = JSON.parse(fetch());
    }
    return keys;
  };
  const everything = () => {
    if (complete) return keys;
    used = true;
    const parts = fetch(1).split('\u0001');
    const listed = [];
    for (let i = 0; i + 1 < parts.length; i += 2) {
      const key = JSON.parse(parts[i]);
      listed.push(key);
      if (!fields.has(key)) load(key, parts[i + 1] === '' ? undefined : parts[i + 1]);
    }
    keys = listed;
    complete = true;
    return keys;
  };
  const proxy = new Proxy(
    {},
    {
      get: (_, key) => (key === 'toJSON' ? undefined : field(key)),
      has: (_, key) => allKeys().includes(key),
      ownKeys: () => everything(),
      getOwnPropertyDescriptor: (_, key) =>
        allKeys().includes(key)
          ? { value: field(key), writable: false, enumerable: true, configurable: true }
          : undefined,
      set: () => false,
      deleteProperty: () => false,
    },
  );
  return {
    proxy,
    /** Whether `value` has the JSON the host sent for `key` (see __sameAsSent). */
    asSent: (key, value) => {
      const was = sent.get(key);
      return was !== undefined && __sameAsSent(value, was);
    },
    // Allocating is what costs inside QuickJS: only a used view is emptied.
    clear: () => {
      if (!used) return;
      used = false;
      fields = new Map();
      sent = new Map();
      keys = undefined;
      complete = false;
    },
  };
}
let __stateGen = '';
const __state = __lazyObject((key) => __hostState(key));
// modifyTransition's result.info (admissible commands and the like) is lazy too.
const __info = __lazyObject((key) => __hostInfo(key));
let __current = '';
function __which() {
  return __current;
}
// The hook `name` with its arguments in their places and the state view in its own; `primary`
// is what it returns when it returns nothing. Called directly, not through an array and apply:
// each allocation costs inside QuickJS.
function __run(name, primary, lazyInfo, a, b) {
  if (lazyInfo) {
    __info.clear();
    primary.info = __info.proxy;
  }
  const state = __state.proxy;
  const at = __stateArg[name];
  const f = __hooks[name];
  __current = name;
  const out =
    at === 0
      ? f(state, a, b)
      : at === 1
        ? f(a, state, b)
        : at === 2
          ? f(a, b, state)
          : f.apply(undefined, __withState([a, b], at));
  // An async hook returns a Promise of its own, never the argument it was given: that needs no
  // look for a `then` (a lookup that misses costs a walk up the prototype chain).
  if (out === undefined || out === primary) return primary;
  if (out !== null && typeof out === 'object' && typeof out.then === 'function') {
    throw new TypeError(`${name} returned a Promise; hooks must be synchronous`);
  }
  return out;
}
function __withState(args, at) {
  args[at] = __state.proxy;
  return args;
}
// A hook called with an array of arguments (the host's 'M' part).
function __runMany(name, args, lazyInfo) {
  const primary = args[__primaryArg[name]];
  if (lazyInfo) {
    __info.clear();
    primary.info = __info.proxy;
  }
  args[__stateArg[name]] = __state.proxy;
  __current = name;
  const out = __hooks[name].apply(undefined, args);
  if (out !== null && typeof out === 'object' && typeof out.then === 'function') {
    throw new TypeError(`${name} returned a Promise; hooks must be synchronous`);
  }
  return out === undefined ? primary : out;
}

// Arguments (host: reply.ts). A part's first character says how to read the rest: 'J' JSON; 'A'
// an action whose args are all strings: name, key, value, ... joined by \u0002; 'O' an observation
// { text } whose text is the rest, raw. What was sent is kept (in these globals: no object per
// call), so that the reply can say "unchanged" ('S') without any JSON: inside QuickJS,
// JSON.stringify of a small step result costs more than everything else in a crossing.
const __OP = Object.prototype;
const __protoOf = Object.getPrototypeOf;
const __keysOf = Object.keys;
let __sentKind = '';
let __sentBody = '';
let __sentValue;
let __sentName = '';
let __sentKeys;
let __sentValues;
// The one argument, when there is exactly one (__sentKeys undefined then).
let __sentKey = '';
let __sentArg = '';
function __arg(part) {
  const kind = part[0];
  __sentKind = kind;
  __sentBody = part.slice(1);
  if (kind === 'O') __sentValue = { text: __sentBody };
  else if (kind === 'A') __sentValue = __action(__sentBody);
  else __sentValue = JSON.parse(__sentBody);
  return __sentValue;
}
function __action(body) {
  let at = body.indexOf('\u0002');
  const args = {};
  const name = at < 0 ? body : body.slice(0, at);
  __sentName = name;
  __sentKeys = undefined;
  __sentArg = undefined;
  // One argument (a text command), the common case: no lists.
  if (at >= 0) {
    const k = body.indexOf('\u0002', at + 1);
    const v = body.indexOf('\u0002', k + 1);
    __sentKey = body.slice(at + 1, k);
    __sentArg = body.slice(k + 1, v < 0 ? body.length : v);
    args[__sentKey] = __sentArg;
    at = v;
  }
  if (at >= 0) {
    const keys = [__sentKey];
    const values = [__sentArg];
    while (at >= 0) {
      const k = body.indexOf('\u0002', at + 1);
      const v = body.indexOf('\u0002', k + 1);
      const key = body.slice(at + 1, k);
      const value = body.slice(k + 1, v < 0 ? body.length : v);
      args[key] = value;
      keys.push(key);
      values.push(value);
      at = v;
    }
    __sentKeys = keys;
    __sentValues = values;
  } else if (__sentArg === undefined) {
    __sentKeys = [];
    __sentValues = [];
  }
  return { name, args };
}
// An action with one argument whose name and value came as strings of their own (__callA /
// __afterA): no cutting apart inside QuickJS.
function __action1(name, key, value) {
  const args = {};
  args[key] = value;
  __sentKind = 'A';
  __sentName = name;
  __sentKeys = undefined;
  __sentKey = key;
  __sentArg = value;
  return { name, args };
}
// True when `value` means to the host what the argument as sent ('A' / 'O') means. An action: its
// JSON is the same (the same own keys in the same order holding the same strings, on plain objects:
// no toJSON anywhere); the host reads it strictly. An observation: the same text and no data, on
// a plain object without a toJSON; the host keeps only those two fields of an observation
// (contract.ts toObservation), so other keys need no listing (Object.keys allocates: the dearest
// check inside QuickJS). A plain object's toJSON can only be its own (Object.prototype is frozen
// without one), and one that is not a function JSON ignores: reading it is the whole check.
function __untouched(value) {
  if (value === null || typeof value !== 'object' || __protoOf(value) !== __OP) return false;
  if (__sentKind === 'O') {
    return value.text === __sentBody && value.data === undefined && value.toJSON === undefined;
  }
  if (__sentKind !== 'A') return false;
  const args = value.args;
  if (value.name !== __sentName || args === null || typeof args !== 'object') return false;
  if (__protoOf(args) !== __OP) return false;
  const keys = __keysOf(value);
  if (keys.length !== 2 || keys[0] !== 'name' || keys[1] !== 'args') return false;
  const names = __keysOf(args);
  const sentKeys = __sentKeys;
  if (sentKeys === undefined) {
    return names.length === 1 && names[0] === __sentKey && args[__sentKey] === __sentArg;
  }
  const sentValues = __sentValues;
  if (names.length !== sentKeys.length) return false;
  for (let i = 0; i < names.length; i++) {
    if (names[i] !== sentKeys[i] || args[names[i]] !== sentValues[i]) return false;
  }
  return true;
}

// Replies: '' (returned nothing), 'S' (returned or left its primary argument as sent), 'Q' + JSON
// of the info fields that differ from what was sent, for a step result otherwise as sent, 'T' + a
// returned string, raw, 'V' + JSON of the value, 'K' + JSON of a value whose info is the
// untouched lazy info (the host keeps its own copy), or 'P' + JSON of the value without info,
// \u0003, JSON of the info fields that differ from what the host sent (the host merges them, as it
// merges any returned info). The host compares a 'V' / 'K' reply's JSON with what it sent, so
// returning the argument itself, or nothing after changing it in place, both work.
function __encode(name, value, lazyInfo, asSent) {
  if (value === undefined) return '';
  if (asSent && __sentKind !== 'J' && __untouched(value)) return 'S';
  // Every primary argument is an object: a string reply is a new value, and needs no JSON
  // (unless it holds what a C string cannot: NUL, a lone surrogate).
  if (typeof value === 'string' && value.indexOf('\u0000') < 0 && value.isWellFormed()) {
    return `T${value}`;
  }
  let keep = false;
  let out = value;
  if (lazyInfo && out !== null && typeof out === 'object') {
    const info = out.info;
    if (info === __info.proxy) {
      const { info: _, ...rest } = out;
      out = rest;
      keep = true;
    } else if (__plain(out) && __plain(info)) {
      // The step result as sent but for its info: only the info's changes cross back.
      if (__resultUntouched(out, true)) return `Q${JSON.stringify(__infoPatch(info))}`;
      const { info: _, ...rest } = out;
      const json = JSON.stringify(rest);
      if (json === undefined) throw new TypeError(`${name} returned a value that is not JSON`);
      return `P${json}\u0003${JSON.stringify(__infoPatch(info))}`;
    }
  }
  const json = JSON.stringify(out);
  if (json === undefined) throw new TypeError(`${name} returned a value that is not JSON`);
  if (asSent && __sentKind === 'J' && !keep && json === __sentBody) return 'S';
  return (keep ? 'K' : 'V') + json;
}
// A plain object whose JSON is its own fields' (no toJSON of its own or inherited).
function __plain(o) {
  return (
    o !== null && typeof o === 'object' && __protoOf(o) === __OP && !Object.hasOwn(o, 'toJSON')
  );
}
// Whether a fetched field still has the JSON the host sent, without a JSON.stringify (tens of µs
// inside QuickJS for a step's list of admissible commands): a primitive compares by ===; the very
// array that was sent (plain, no own toJSON) element by element against the copy taken when it
// was fetched, while its elements are primitives; anything else by its JSON.
const __AP = Array.prototype;
function __sameAsSent(value, was) {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) {
    return value === was.value;
  }
  const copy = was.copy;
  if (
    value === was.value &&
    copy !== undefined &&
    __protoOf(value) === __AP &&
    !Object.hasOwn(value, 'toJSON') &&
    value.length === copy.length
  ) {
    let i = 0;
    for (; i < copy.length; i++) {
      const v = value[i];
      if (v !== copy[i] || (v !== null && typeof v === 'object')) break;
    }
    if (i === copy.length) return true;
    if (value[i] !== copy[i]) return false;
  }
  return JSON.stringify(value) === was.json;
}
// The fields of a returned info that are not, by JSON, what the host sent for them (in order).
function __infoPatch(info) {
  const patch = {};
  for (const key of __keysOf(info)) {
    const value = info[key];
    if (__info.asSent(key, value)) continue;
    Object.defineProperty(patch, key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }
  return patch;
}
function __generation(gen) {
  if (gen !== __stateGen) {
    __stateGen = gen;
    __state.clear();
  }
}
// The hook's index in the argument table (one character, '0' + i), lazy info ('0' / '1'), the
// generation, then [\u0001 the one argument's part]. A hook with several arguments gets them as
// 'M' + JSON of the array (compared by the host).
function __call(message) {
  __current = '';
  __loopId = -1;
  __sentResult = undefined;
  try {
    const name = __names[message.charCodeAt(0) - 48];
    __current = name;
    const lazyInfo = message[1] === '1';
    const cut = message.indexOf('\u0001');
    __generation(cut < 0 ? message.slice(2) : message.slice(2, cut));
    if (cut < 0) return __encode(name, __run(name, undefined, lazyInfo), lazyInfo, false);
    if (message[cut + 1] === 'M') {
      const args = JSON.parse(message.slice(cut + 2));
      return __encode(name, __runMany(name, args, lazyInfo), lazyInfo, false);
    }
    const arg = __arg(message.slice(cut + 1));
    // 'S' only for a hook that returns its argument (else its reply is the answer itself).
    const own = __primaryArg[name] === 0;
    const value = __run(name, own ? arg : undefined, lazyInfo, arg);
    return __encode(name, value, lazyInfo, own);
  } catch (e) {
    return __failure(e);
  }
}
// __call for the common argument, an action with one string argument, given as its own strings
// (host: hook-set.ts): the hook's index in the table ('0' + i), the generation, the action's name,
// its argument's key and value.
function __callA(hook, gen, name, key, value) {
  __current = '';
  __loopId = -1;
  __sentResult = undefined;
  try {
    const hookName = __names[hook.charCodeAt(0) - 48];
    __current = hookName;
    __generation(gen);
    const arg = __action1(name, key, value);
    const own = __primaryArg[hookName] === 0;
    return __encode(hookName, __run(hookName, own ? arg : undefined, false, arg), false, own);
  } catch (e) {
    return __failure(e);
  }
}
// The Contract's post-step hooks: modifyTransition then filterObservation (those defined) in one
// crossing; the replies are joined by \u0001, which no transition reply contains.
function __after(message) {
  __current = '';
  __loopId = -1;
  try {
    return __afterStep(message);
  } catch (e) {
    return __failure(e);
  }
}
// __after for the common arguments, given as strings of their own: the generation, the action's
// name, its one argument's key and value, the reward's JSON, terminated and truncated as 0/1, the
// observation's text.
function __afterA(gen, name, key, value, reward, flags, text) {
  __current = '';
  __loopId = -1;
  try {
    __generation(gen);
    const action = __action1(name, key, value);
    __sentText = text;
    __sentObservation = { text };
    // The common values compare as they are: reading a character or a number costs more.
    __sentReward = reward === '0' ? 0 : +reward;
    __sentTerminated = flags === '00' ? false : flags[0] === '1';
    __sentTruncated = flags === '00' ? false : flags[1] === '1';
    __info.clear();
    __sentResult = {
      observation: __sentObservation,
      reward: __sentReward,
      terminated: __sentTerminated,
      truncated: __sentTruncated,
      info: __info.proxy,
    };
    return __afterHooks(action, __sentResult);
  } catch (e) {
    return __failure(e);
  }
}
// generation \u0001 the action's part \u0001 the result without info: 'J' + JSON, or 'R' + JSON of
// the reward, ',', terminated and truncated as 0/1, \u0001, the text of an observation { text }.
// What an 'R' part sent is kept here (no object per step: allocation is what costs in QuickJS).
let __sentResult;
let __sentObservation;
let __sentText;
let __sentReward;
let __sentTerminated;
let __sentTruncated;
function __result(part) {
  if (part[0] !== 'R') {
    __sentResult = undefined;
    return JSON.parse(part.slice(1));
  }
  const comma = part.indexOf(',');
  __sentText = part.slice(comma + 4);
  __sentObservation = { text: __sentText };
  // A JSON number (reply.ts): unary plus reads it as JSON.parse would, for less.
  __sentReward = +part.slice(1, comma);
  __sentTerminated = part[comma + 1] === '1';
  __sentTruncated = part[comma + 2] === '1';
  __info.clear();
  __sentResult = {
    observation: __sentObservation,
    reward: __sentReward,
    terminated: __sentTerminated,
    truncated: __sentTruncated,
    info: __info.proxy,
  };
  return __sentResult;
}
// The step result of an 'R' part untouched, as the host reads a transition (contract.ts
// applyTransition): the same object, the lazy info, the same reward and flags, the very
// observation sent with its text and no data; none of them with a toJSON of its own. Other keys,
// on the result or its observation, the host drops: they need no listing (see __untouched).
// With `anyInfo`: the same but for its info, in a new object or not (`{ ...result, info }`).
function __resultUntouched(value, anyInfo) {
  if (__sentResult === undefined || (value !== __sentResult && !anyInfo)) return false;
  if (value === null || typeof value !== 'object' || __protoOf(value) !== __OP) return false;
  if (
    (!anyInfo && value.info !== __info.proxy) ||
    value.reward !== __sentReward ||
    value.terminated !== __sentTerminated ||
    value.truncated !== __sentTruncated ||
    value.toJSON !== undefined
  ) {
    return false;
  }
  const o = value.observation;
  return (
    o === __sentObservation &&
    __protoOf(o) === __OP &&
    o.text === __sentText &&
    o.data === undefined &&
    o.toJSON === undefined
  );
}
function __afterStep(message) {
  const a = message.indexOf('\u0001');
  const b = message.indexOf('\u0001', a + 1);
  __generation(message.slice(0, a));
  const action =
    message[a + 1] === 'A'
      ? __action(message.slice(a + 2, b))
      : JSON.parse(message.slice(a + 2, b));
  return __afterHooks(action, __result(message.slice(b + 1)));
}
function __afterHooks(action, result) {
  let transition = '';
  let observation = '';
  let seen = result.observation;
  if (__hooks.modifyTransition) {
    // A result of the common shape comes with the lazy info in place (__afterA, __result).
    const lazyInfo = result.info !== __info.proxy;
    const value = __run('modifyTransition', result, lazyInfo, action, result);
    transition = __resultUntouched(value)
      ? 'S'
      : __encode('modifyTransition', value, true, undefined);
    if (value !== null && typeof value === 'object' && value.observation !== undefined) {
      seen =
        typeof value.observation === 'string'
          ? { text: value.observation, data: result.observation.data }
          : value.observation;
    }
  }
  if (__hooks.filterObservation) {
    const copy =
      seen !== null && typeof seen === 'object'
        ? seen.data === undefined
          ? { text: seen.text }
          : { text: seen.text, data: seen.data }
        : seen;
    // An observation { text } with a string text is 'S' when untouched; else the host compares.
    const plain =
      copy !== null &&
      typeof copy === 'object' &&
      copy.data === undefined &&
      typeof copy.text === 'string';
    __sentKind = plain ? 'O' : 'V';
    __sentBody = plain ? copy.text : '';
    const value = __run('filterObservation', copy, false, copy);
    observation = __encode('filterObservation', value, false, plain);
  }
  // Both unchanged, the common reply, is a constant: no string to build.
  if (transition === 'S' && observation === 'S') return 'S\u0001S';
  return `${transition}\u0001${observation}`;
}
