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
function __configure(tableJson) {
  const table = JSON.parse(tableJson);
  for (const name of Object.keys(table)) {
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

// Failure replies start with \u0002, which no other reply does ('' / 'V' / 'K' / \u0001 / '{').
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
  __stateGen = -1;
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
function __lazyObject(fetch) {
  let fields = new Map();
  let keys;
  const field = (key) => {
    if (typeof key !== 'string') return undefined;
    if (!fields.has(key)) {
      const json = fetch(key);
      fields.set(key, json === undefined ? undefined : JSON.parse(json));
    }
    return fields.get(key);
  };
  const allKeys = () => {
    if (keys === undefined) keys = JSON.parse(fetch());
    return keys;
  };
  const proxy = new Proxy(
    {},
    {
      get: (_, key) => (key === 'toJSON' ? undefined : field(key)),
      has: (_, key) => allKeys().includes(key),
      ownKeys: () => allKeys(),
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
    clear: () => {
      fields = new Map();
      keys = undefined;
    },
  };
}
let __stateGen = -1;
const __state = __lazyObject((key) => __hostState(key));
// modifyTransition's result.info (admissible commands and the like) is lazy too.
const __info = __lazyObject((key) => __hostInfo(key));
let __current = '';
function __which() {
  return __current;
}
function __run(name, args, lazyInfo) {
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
// Replies: '' (returned nothing), 'V' + JSON of the value, or 'K' + JSON of a value whose info is
// the untouched lazy info (the host keeps its own copy). The host compares the JSON with what it
// sent, so returning the argument itself, or nothing after changing it in place, both work.
function __encode(name, value, lazyInfo) {
  if (value === undefined) return '';
  let keep = false;
  let out = value;
  if (lazyInfo && out !== null && typeof out === 'object' && out.info === __info.proxy) {
    const { info, ...rest } = out;
    out = rest;
    keep = true;
  }
  const json = JSON.stringify(out);
  if (json === undefined) throw new TypeError(`${name} returned a value that is not JSON`);
  return (keep ? 'K' : 'V') + json;
}
function __generation(gen) {
  if (gen !== __stateGen) {
    __stateGen = gen;
    __state.clear();
  }
}
function __call(argsJson) {
  __current = '';
  __loopId = -1;
  try {
    const args = JSON.parse(argsJson);
    const name = args.shift();
    __current = name;
    __generation(args.shift());
    const lazyInfo = args.shift();
    return __encode(name, __run(name, args, lazyInfo), lazyInfo);
  } catch (e) {
    return __failure(e);
  }
}
// The Contract's post-step hooks: modifyTransition then filterObservation (those defined) in one
// crossing; the replies are joined by \u0001, which JSON output never contains.
function __after(argsJson) {
  __current = '';
  __loopId = -1;
  try {
    return __afterStep(argsJson);
  } catch (e) {
    return __failure(e);
  }
}
function __afterStep(argsJson) {
  const [gen, action, result] = JSON.parse(argsJson);
  __generation(gen);
  let transition = '';
  let observation = '';
  let seen = result.observation;
  if (__hooks.modifyTransition) {
    const value = __run('modifyTransition', [action, result], true);
    transition = __encode('modifyTransition', value, true);
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
    observation = __encode('filterObservation', __run('filterObservation', [copy], false), false);
  }
  return `${transition}\u0001${observation}`;
}
