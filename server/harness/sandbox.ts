// The QuickJS sandbox that runs user- and LLM-written hook code (Contract hooks, Chain `when`).
// Limits as measured in STACK.md: every SandboxHost owns its own wasm instance on a capped
// WebAssembly.Memory (setMemoryLimit does not bound emscripten builds), hook calls run under an
// interrupt deadline, the QuickJS stack is capped low enough that deep recursion fails inside the
// sandbox, and any fatal error throws the whole instance away. Long built-ins ('x'.repeat(1e7) in
// a loop) escape the interrupt handler: attachWatchdog() lets a worker-pool host kill the thread.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import v8 from 'node:v8';
import releaseSyncVariant from '@jitl/quickjs-wasmfile-release-sync';
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSRuntime,
  type QuickJSWASMModule,
} from 'quickjs-emscripten-core';
import type { Json } from '../../bridges/core/types.ts';
import { HarnessCodeError } from '../errors.ts';

export const HOOK_NAMES = ['filterAction', 'modifyTransition', 'filterObservation'] as const;
export type HookName = (typeof HOOK_NAMES)[number];

/** Position of the `state` argument of each hook (it is always the last one). */
/** The argument a hook returns (possibly changed); returning it untouched means "unchanged". */
const PRIMARY_ARG: Record<string, number> = {
  filterAction: 0,
  modifyTransition: 1,
  filterObservation: 0,
  when: -1,
};

const STATE_ARG: Record<string, number> = {
  filterAction: 1,
  modifyTransition: 2,
  filterObservation: 1,
  when: 0,
};

export interface SandboxLimits {
  /** Interrupt deadline per hook call (and for the top-level code at load). */
  hookTimeoutMs: number;
  /** Cap of the wasm memory of one SandboxHost, in MiB. */
  memoryMiB: number;
  /** QuickJS stack cap. 64 KiB keeps deep recursion and deep JSON inside the sandbox on Node's main thread. */
  maxStackBytes: number;
}

export const DEFAULT_LIMITS: SandboxLimits = {
  hookTimeoutMs: 250,
  memoryMiB: 64,
  maxStackBytes: 64 * 1024,
};

/**
 * Cap of one hook reply (serialised JSON, UTF-8 bytes). The sandbox's memory cap alone lets a hook
 * hand the host a 16 MiB action or observation, which would then be copied into every Step row
 * and live event; real actions and observations are a few KiB.
 */
export const MAX_HOOK_REPLY_BYTES = 256 * 1024;

function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
  return `${Math.ceil(n / 1024)} KiB`;
}

const USER_FILE = 'hooks.js';
const WASM_PAGE = 64 * 1024;

let compiledWasm: Promise<WebAssembly.Module> | undefined;

/**
 * The .wasm is compiled once per thread and shared by every instance. It is compiled eagerly
 * with the optimising compiler: with V8's default lazy, baseline-first tiering a hook call
 * measured 50–300 µs on this (busy) machine until the background tier-up caught up, against
 * ≈ 5 µs optimised. Costs ≈ 0.3–0.8 s once per thread; the flags are restored right after.
 */
function wasmModule(): Promise<WebAssembly.Module> {
  if (!compiledWasm) {
    const require = createRequire(import.meta.url);
    const path = require.resolve('@jitl/quickjs-wasmfile-release-sync/wasm');
    compiledWasm = readFile(path).then(async (bytes) => {
      try {
        v8.setFlagsFromString('--no-liftoff');
        v8.setFlagsFromString('--no-wasm-lazy-compilation');
        return await WebAssembly.compile(bytes);
      } finally {
        v8.setFlagsFromString('--liftoff');
        v8.setFlagsFromString('--wasm-lazy-compilation');
      }
    });
  }
  return compiledWasm;
}

async function newCappedModule(memoryMiB: number): Promise<QuickJSWASMModule> {
  const maximum = Math.max(256, Math.floor((memoryMiB * 1024 * 1024) / WASM_PAGE));
  const wasmMemory = new WebAssembly.Memory({ initial: 256, maximum });
  return newQuickJSWASMModuleFromVariant(
    newVariant(releaseSyncVariant, { wasmMemory, wasmModule: await wasmModule() }),
  );
}

// ---------------------------------------------------------------------------------------------
// Watchdog: a worker marks "hook N started at t" in shared memory; the host kills overruns.

export const WATCHDOG_BYTES = 16;
export const WATCHED_NAMES = [
  ...HOOK_NAMES,
  'when',
  '(load)',
  'modifyTransition or filterObservation',
] as const;
let watchdog: { status: Int32Array; started: Float64Array } | undefined;

/** Called inside a worker thread with the SharedArrayBuffer the pool gave it. */
export function attachWatchdog(buffer: SharedArrayBuffer): void {
  watchdog = { status: new Int32Array(buffer, 0, 2), started: new Float64Array(buffer, 8, 1) };
}

/** Host side: which hook is running and since when (ms since epoch), or undefined when idle. */
export function readWatchdog(
  buffer: SharedArrayBuffer,
): { hook: string; startedAt: number } | undefined {
  const status = new Int32Array(buffer, 0, 2);
  const id = Atomics.load(status, 0);
  if (id === 0) return undefined;
  const startedAt = new Float64Array(buffer, 8, 1)[0] ?? 0;
  return { hook: WATCHED_NAMES[id - 1] ?? 'hook', startedAt };
}

function markStart(name: string): void {
  if (!watchdog) return;
  watchdog.started[0] = Date.now();
  Atomics.store(
    watchdog.status,
    0,
    WATCHED_NAMES.indexOf(name as never) + 1 || WATCHED_NAMES.length,
  );
}

/** A hook reply ('' / 'V' + JSON / 'K' + JSON, see __encode) -> undefined when unchanged. */
function decode(
  hook: string,
  text: string,
  sentJson: string | undefined,
  lazyInfo: Record<string, Json> | undefined,
): Json | undefined {
  if (text === '') return undefined;
  const json = text.slice(1);
  if (sentJson !== undefined && json === sentJson) return undefined;
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
  const value = JSON.parse(json) as Json;
  if (
    text[0] === 'K' &&
    lazyInfo &&
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value)
  ) {
    return { ...value, info: lazyInfo };
  }
  return value;
}

function markEnd(): void {
  if (watchdog) Atomics.store(watchdog.status, 0, 0);
}

// ---------------------------------------------------------------------------------------------
// Code preparation

/**
 * Hook code is a plain script of function declarations; the ES-module spelling
 * `export function filterAction(...)` is accepted too. `export ` is blanked with spaces (not
 * removed) so that line and column numbers in errors stay those of the user's text.
 */
export function prepareHookSource(code: string): string {
  return code.replace(
    /^([ \t]*)export([ \t]+)(?=(?:async[ \t]+)?function\b|const\b|let\b|var\b)/gm,
    (_m, indent: string, gap: string) => `${indent}      ${gap}`,
  );
}

const PRELUDE = `
globalThis.console = { log() {}, info() {}, warn() {}, error() {}, debug() {} };
let __rand = 0x9e3779b9;
Math.random = () => {
  __rand ^= __rand << 13; __rand >>>= 0; __rand ^= __rand >>> 17; __rand ^= __rand << 5; __rand >>>= 0;
  return __rand / 4294967296;
};
function __reseed(seed) { __rand = (seed >>> 0) || 0x9e3779b9; }
`;

/**
 * The user's code becomes the body of a factory, run once per episode: every episode gets fresh
 * top-level state without the cost of a new runtime. The prefix shares line 1 with the user's
 * first line so line numbers stay the user's (columns on line 1 are shifted back).
 */
const FACTORY_PREFIX = 'const __factory = function () {';

function factorySource(code: string, names: readonly string[]): string {
  const entries = names
    .map((n) => `${n}: typeof ${n} === 'undefined' ? undefined : ${n}`)
    .join(', ');
  return `${FACTORY_PREFIX}${prepareHookSource(code)}\n;return { ${entries} }; };`;
}

/**
 * After set-up, every built-in and the global object are frozen, so an episode cannot leave
 * anything behind for the next one (nor change JSON, Math.random or a prototype under the engine).
 */
const LOCKDOWN = `(() => {
  const seen = new Set();
  const harden = (o) => {
    if ((typeof o !== 'object' && typeof o !== 'function') || o === null || seen.has(o)) return;
    seen.add(o);
    Object.freeze(o);
    for (const key of Reflect.ownKeys(o)) {
      const d = Object.getOwnPropertyDescriptor(o, key);
      if (!d) continue;
      if ('value' in d) harden(d.value); else { harden(d.get); harden(d.set); }
    }
    harden(Object.getPrototypeOf(o));
  };
  harden(globalThis);
})();`;

function collector(): string {
  return `
let __hooks = {};
function __begin(seed) {
  __reseed(seed);
  __stateGen = -1;
  __state.clear();
  __current = '(load)';
  const made = __factory();
  const hooks = {};
  for (const name of Object.keys(made)) {
    const f = made[name];
    if (f === undefined) continue;
    if (typeof f !== 'function') throw new TypeError(name + ' must be a function, not ' + typeof f);
    hooks[name] = f;
  }
  __hooks = hooks;
  return JSON.stringify({ hooks: Object.keys(hooks) });
}
// The state view crosses the boundary lazily, one top-level field at a time: a hook that reads
// state.agent.holding on one command in ten pays for that field on that command only. One proxy
// serves every call; the host bumps a generation number whenever the state may have changed.
function __lazyObject(fetch) {
  let fields = new Map(), keys;
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
  const proxy = new Proxy({}, {
    get: (_, key) => (key === 'toJSON' ? undefined : field(key)),
    has: (_, key) => allKeys().includes(key),
    ownKeys: () => allKeys(),
    getOwnPropertyDescriptor: (_, key) =>
      allKeys().includes(key)
        ? { value: field(key), writable: false, enumerable: true, configurable: true }
        : undefined,
    set: () => false,
    deleteProperty: () => false,
  });
  return { proxy, clear: () => { fields = new Map(); keys = undefined; } };
}
let __stateGen = -1;
const __state = __lazyObject((key) => __hostState(key));
// modifyTransition's result.info (admissible commands and the like) is lazy too.
const __info = __lazyObject((key) => __hostInfo(key));
let __current = '';
function __which() { return __current; }
function __run(name, args, lazyInfo) {
  const primary = args[__primaryArg[name]];
  if (lazyInfo) { __info.clear(); primary.info = __info.proxy; }
  args[__stateArg[name]] = __state.proxy;
  __current = name;
  const out = __hooks[name].apply(undefined, args);
  if (out !== null && typeof out === 'object' && typeof out.then === 'function') {
    throw new TypeError(name + ' returned a Promise; hooks must be synchronous');
  }
  return out === undefined ? primary : out;
}
// Replies: '' (returned nothing), 'V' + JSON of the value, or 'K' + JSON of a value whose info is
// the untouched lazy info (the host keeps its own copy). The host compares the JSON with what it
// sent, so returning the argument itself, or nothing after changing it in place, both work.
function __encode(name, value, lazyInfo) {
  if (value === undefined) return '';
  let keep = false;
  if (lazyInfo && value !== null && typeof value === 'object' && value.info === __info.proxy) {
    const { info, ...rest } = value;
    value = rest;
    keep = true;
  }
  const json = JSON.stringify(value);
  if (json === undefined) throw new TypeError(name + ' returned a value that is not JSON');
  return (keep ? 'K' : 'V') + json;
}
function __generation(gen) {
  if (gen !== __stateGen) { __stateGen = gen; __state.clear(); }
}
function __call(name, argsJson) {
  const args = JSON.parse(argsJson);
  __generation(args.shift());
  const lazyInfo = args.shift();
  return __encode(name, __run(name, args, lazyInfo), lazyInfo);
}
// After the env step, modifyTransition and filterObservation run in one crossing; the replies
// are joined by \u0001, which JSON output never contains.
function __after(argsJson) {
  const [gen, action, result] = JSON.parse(argsJson);
  __generation(gen);
  let transition = '', observation = '';
  let seen = result.observation;
  if (__hooks.modifyTransition) {
    const value = __run('modifyTransition', [action, result], true);
    transition = __encode('modifyTransition', value, true);
    if (value !== null && typeof value === 'object' && value.observation !== undefined) {
      seen = typeof value.observation === 'string' ? { text: value.observation, data: result.observation.data } : value.observation;
    }
  }
  if (__hooks.filterObservation) {
    const copy = seen !== null && typeof seen === 'object'
      ? (seen.data === undefined ? { text: seen.text } : { text: seen.text, data: seen.data })
      : seen;
    observation = __encode('filterObservation', __run('filterObservation', [copy], false), false);
  }
  return transition + '\u0001' + observation;
}
`;
}

// ---------------------------------------------------------------------------------------------
// Errors

interface DumpedError {
  name?: string;
  message?: string;
  stack?: string;
  lineNumber?: number;
}

/** Hook code may throw anything (`throw null`, `throw 5`): only objects carry name and message. */
function asDumpedError(value: unknown): DumpedError {
  if (value !== null && typeof value === 'object') return value as DumpedError;
  return { name: 'Error', message: `threw a non-error value: ${String(value)}` };
}

const FATAL_MESSAGES = ['interrupted', 'out of memory', 'stack overflow'];

function locate(err: DumpedError, file: string): { line?: number; column?: number } {
  const re = new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:(\\d+)(?::(\\d+))?`);
  const m = re.exec(err.stack ?? '');
  if (m) return { line: Number(m[1]), column: m[2] ? Number(m[2]) : undefined };
  if (typeof err.lineNumber === 'number') return { line: err.lineNumber };
  return {};
}

/** A sandbox error with its location in the user's text ("line N, column M: ..."). */
function codeError(
  err: DumpedError,
  context: {
    hook?: string;
    phase: 'load' | 'call';
    limits: SandboxLimits;
    columnShift?: number;
    lines?: number;
  },
): { error: HarnessCodeError; fatal: boolean } {
  const name = err.name ?? 'Error';
  const message = err.message ?? String(err);
  const where = locate(err, USER_FILE);
  // An error past the user's last line (an unfinished expression) is reported at its end.
  if (context.lines !== undefined && where.line !== undefined && where.line > context.lines) {
    where.line = context.lines;
    where.column = undefined;
  }
  const column =
    where.column !== undefined && where.line === 1 && context.columnShift
      ? Math.max(1, where.column - context.columnShift)
      : where.column;
  const at =
    where.line !== undefined
      ? `line ${where.line}${column !== undefined ? `, column ${column}` : ''}: `
      : '';
  const subject =
    context.phase === 'load'
      ? 'hook code does not compile or failed while loading'
      : `hook ${context.hook} failed`;
  let text = `${subject}: ${at}${name}: ${message}`;
  const fatal = name === 'InternalError' && FATAL_MESSAGES.includes(message);
  if (fatal && message === 'interrupted') {
    text = `${context.phase === 'load' ? 'hook code' : `hook ${context.hook}`} ran longer than its ${context.limits.hookTimeoutMs} ms limit and was stopped (${at}interrupted); hooks must return quickly, without unbounded loops`;
  } else if (fatal && message === 'out of memory') {
    text = `${context.phase === 'load' ? 'hook code' : `hook ${context.hook}`} ran out of memory (limit ${context.limits.memoryMiB} MiB) at ${at.replace(/: $/, '') || 'an unknown place'}`;
  } else if (fatal && message === 'stack overflow') {
    text = `${context.phase === 'load' ? 'hook code' : `hook ${context.hook}`} overflowed the stack (recursion too deep) at ${at.replace(/: $/, '') || 'an unknown place'}`;
  }
  return { error: new HarnessCodeError(text, context.hook, where.line, column), fatal };
}

// ---------------------------------------------------------------------------------------------
// Host (one wasm instance) and HookSet (one runtime: one contract's hooks for one episode)

export interface CompiledHooks {
  /** The hooks the code defines (the others are identity). */
  hooks: string[];
}

/**
 * One capped wasm instance, shared by the contracts of one harness stack across episodes
 * (a new instance costs ≈ 5 ms here, a new runtime ≈ 0.3 ms). Replaced after any fatal error.
 */
/** Loaded hook sets a host keeps for reuse (each is one QuickJS runtime inside the 64 MiB cap). */
const MAX_IDLE_SETS = 8;

export class SandboxHost {
  private module: QuickJSWASMModule | undefined;
  private pending: Promise<QuickJSWASMModule> | undefined;
  private readonly live = new Set<HookSet>();
  /** Loaded sets by code, ready for the next episode or harness (oldest first). */
  private readonly idle: HookSet[] = [];
  readonly limits: SandboxLimits;

  constructor(limits: Partial<SandboxLimits> = {}) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
  }

  get usesDefaultLimits(): boolean {
    return (Object.keys(DEFAULT_LIMITS) as (keyof SandboxLimits)[]).every(
      (k) => this.limits[k] === DEFAULT_LIMITS[k],
    );
  }

  get healthy(): boolean {
    return this.module !== undefined;
  }

  async ready(): Promise<void> {
    if (this.module) return;
    this.pending ??= newCappedModule(this.limits.memoryMiB);
    this.module = await this.pending;
    this.pending = undefined;
  }

  /** Drops the wasm instance (and every runtime on it); the next ready() builds a fresh one. */
  poison(): void {
    for (const set of [...this.live, ...this.idle]) set.abandon();
    this.live.clear();
    this.idle.length = 0;
    this.module = undefined;
  }

  /**
   * Hook code ready to run: a loaded set for the same code is reused (its top-level code runs
   * again for the new episode), otherwise a new runtime is set up. Call ready() first. Throws
   * HarnessCodeError on a compile or load error.
   */
  load(
    code: string,
    options: { names: readonly string[]; seed?: number; columnShift?: number; lines?: number },
  ): HookSet {
    if (!this.module) throw new Error('SandboxHost.load before ready()');
    const key = HookSet.keyOf(code, options);
    const index = this.idle.findIndex((set) => set.key === key);
    if (index >= 0) {
      const [set] = this.idle.splice(index, 1);
      try {
        set!.begin(options.seed ?? 0);
      } catch (e) {
        if (set!.alive) this.idle.push(set!);
        throw e;
      }
      this.live.add(set!);
      return set!;
    }
    const set = new HookSet(this, this.module, code, options);
    this.live.add(set);
    return set;
  }

  /** A set its user is done with: kept for reuse while it is healthy. */
  recycle(set: HookSet): void {
    this.live.delete(set);
    if (!set.alive || !this.module) return;
    this.idle.push(set);
    while (this.idle.length > MAX_IDLE_SETS) this.idle.shift()!.destroy();
  }

  forget(set: HookSet): void {
    this.live.delete(set);
    const i = this.idle.indexOf(set);
    if (i >= 0) this.idle.splice(i, 1);
  }

  dispose(): void {
    for (const set of [...this.live, ...this.idle]) set.destroy();
    this.live.clear();
    this.idle.length = 0;
    this.module = undefined;
  }
}

// Hosts are reused across harnesses of a thread (a rollout worker creates one harness per
// episode): the wasm instance and the loaded hook code then cost nothing per episode.
const idleHosts: SandboxHost[] = [];
const MAX_IDLE_HOSTS = 2;

export function acquireSandboxHost(limits: Partial<SandboxLimits> = {}): SandboxHost {
  const fresh = new SandboxHost(limits);
  if (!fresh.usesDefaultLimits) return fresh;
  return idleHosts.pop() ?? fresh;
}

export function releaseSandboxHost(host: SandboxHost): void {
  if (!host.healthy || !host.usesDefaultLimits || idleHosts.length >= MAX_IDLE_HOSTS) {
    host.dispose();
    return;
  }
  if (!idleHosts.includes(host)) idleHosts.push(host);
}

class LoadFailure extends Error {
  constructor(
    readonly error: HarnessCodeError,
    readonly fatal: boolean,
  ) {
    super(error.message);
  }
}

export class HookSet {
  static keyOf(
    code: string,
    options: { names: readonly string[]; columnShift?: number; lines?: number },
  ): string {
    return `${options.names.join(',')}|${options.columnShift ?? 0}|${options.lines ?? ''}|${code}`;
  }

  readonly key: string;
  private rt: QuickJSRuntime | undefined;
  private ctx: QuickJSContext | undefined;
  private callFn: QuickJSHandle | undefined;
  private afterFn: QuickJSHandle | undefined;
  private beginFn: QuickJSHandle | undefined;
  private stateFn: QuickJSHandle | undefined;
  private infoFn: QuickJSHandle | undefined;
  private lazyInfo: Record<string, Json> | undefined;
  private stateProvider: (() => Json) | undefined;
  private stateValue: Json | undefined;
  private stateLoaded = false;
  private stateGen = 0;
  private deadline = Number.POSITIVE_INFINITY;
  info: CompiledHooks;
  private readonly columnShift: number;
  private readonly lines: number | undefined;

  constructor(
    private readonly host: SandboxHost,
    module: QuickJSWASMModule,
    code: string,
    options: { names: readonly string[]; seed?: number; columnShift?: number; lines?: number },
  ) {
    this.key = HookSet.keyOf(code, options);
    this.columnShift = FACTORY_PREFIX.length + (options.columnShift ?? 0);
    this.lines = options.lines ?? code.split('\n').length;
    const limits = host.limits;
    try {
      this.rt = module.newRuntime();
      this.rt.setMaxStackSize(limits.maxStackBytes);
      // One handler for the runtime's life; each call only moves the deadline.
      this.rt.setInterruptHandler(() => Date.now() > this.deadline);
      this.ctx = this.rt.newContext();
      const ctx = this.ctx;
      const stateArg = Object.fromEntries(options.names.map((n) => [n, STATE_ARG[n] ?? 1]));
      const primaryArg = Object.fromEntries(options.names.map((n) => [n, PRIMARY_ARG[n] ?? -1]));
      this.evalOrThrow(
        `const __stateArg = ${JSON.stringify(stateArg)};\nconst __primaryArg = ${JSON.stringify(primaryArg)};\n${PRELUDE}\n${collector()}`,
        '<prelude>',
      );
      this.stateFn = ctx.newFunction('__hostState', (keyHandle) => {
        if (!this.stateLoaded) {
          this.stateValue = this.stateProvider?.();
          this.stateLoaded = true;
        }
        const state = this.stateValue;
        const record =
          state !== null && typeof state === 'object' ? (state as Record<string, Json>) : {};
        if (!keyHandle || ctx.typeof(keyHandle) !== 'string') {
          return ctx.newString(JSON.stringify(Object.keys(record)));
        }
        const key = ctx.getString(keyHandle);
        const value = Object.hasOwn(record, key) ? record[key] : undefined;
        return value === undefined ? ctx.undefined : ctx.newString(JSON.stringify(value));
      });
      ctx.setProp(ctx.global, '__hostState', this.stateFn);
      this.infoFn = ctx.newFunction('__hostInfo', (keyHandle) => {
        const info = this.lazyInfo ?? {};
        if (!keyHandle || ctx.typeof(keyHandle) !== 'string') {
          return ctx.newString(JSON.stringify(Object.keys(info)));
        }
        const key = ctx.getString(keyHandle);
        const value = Object.hasOwn(info, key) ? info[key] : undefined;
        return value === undefined ? ctx.undefined : ctx.newString(JSON.stringify(value));
      });
      ctx.setProp(ctx.global, '__hostInfo', this.infoFn);
      this.evalOrThrow(factorySource(code, options.names), USER_FILE);
      this.evalOrThrow(LOCKDOWN, '<lockdown>');
      this.callFn = ctx.getProp(ctx.global, '__call');
      this.afterFn = ctx.getProp(ctx.global, '__after');
      this.beginFn = ctx.getProp(ctx.global, '__begin');
      this.info = this.beginOrThrow(options.seed ?? 0);
    } catch (e) {
      if (e instanceof HarnessCodeError) {
        // From the first begin(): a fatal one has already dropped the instance.
        if (this.ctx) this.destroy();
        throw e;
      }
      if (e instanceof LoadFailure && !e.fatal) this.destroy();
      else this.failed(e);
      throw e instanceof LoadFailure
        ? e.error
        : new HarnessCodeError(`hook code could not be loaded: ${String(e)}`);
    }
  }

  has(name: string): boolean {
    return this.info.hooks.includes(name);
  }

  /** False once disposed or lost to a fatal error. */
  get alive(): boolean {
    return this.ctx !== undefined;
  }

  /**
   * Starts an episode: runs the user's top-level code again (fresh module state) and reseeds
   * Math.random. Throws HarnessCodeError when the top-level code fails.
   */
  begin(seed: number): void {
    this.info = this.beginOrThrow(seed);
  }

  private beginOrThrow(seed: number): CompiledHooks {
    const ctx = this.live();
    const seedH = ctx.newNumber(Math.floor(seed) >>> 0);
    try {
      const text = this.invoke(this.beginFn!, '(load)', [], [seedH], 'load');
      return JSON.parse(text) as CompiledHooks;
    } finally {
      if (seedH.alive) seedH.dispose();
    }
  }

  /**
   * Where the state view comes from until the next call of this method: asked at most once, and
   * only if a hook reads `state`; then only the top-level fields the hook reads cross over.
   */
  provideState(provider: (() => Json) | undefined): void {
    this.stateProvider = provider;
    this.stateValue = undefined;
    this.stateLoaded = false;
    this.stateGen += 1;
  }

  /**
   * Calls a hook with JSON arguments; returns its JSON result, or undefined when it returned
   * nothing or its primary argument untouched. With `lazyInfo`, the primary argument's `info`
   * field is not serialised up front but fetched field by field if the hook reads it.
   */
  call(name: string, args: Json[], lazyInfo?: Record<string, Json>): Json | undefined {
    this.lazyInfo = lazyInfo;
    const index = PRIMARY_ARG[name] ?? -1;
    const primary = index >= 0 ? args[index] : undefined;
    const text = this.invoke(this.callFn!, name, [
      name,
      JSON.stringify([this.stateGen, lazyInfo !== undefined, ...args]),
    ]);
    return decode(
      name,
      text,
      primary === undefined ? undefined : JSON.stringify(primary),
      lazyInfo,
    );
  }

  /**
   * modifyTransition then filterObservation (those defined) in one crossing. `rest` is the step
   * result without its info, which crosses lazily. Returns undefined for what is unchanged.
   * `observationIn` computes, from the validated transition, the observation filterObservation saw.
   */
  after(
    action: Json,
    rest: Json,
    info: Record<string, Json>,
  ): { transition: Json | undefined; observation: (seen: Json) => Json | undefined } {
    this.lazyInfo = info;
    const label =
      this.has('modifyTransition') && this.has('filterObservation')
        ? 'modifyTransition or filterObservation'
        : this.has('modifyTransition')
          ? 'modifyTransition'
          : 'filterObservation';
    const text = this.invoke(this.afterFn!, label, [JSON.stringify([this.stateGen, action, rest])]);
    const cut = text.indexOf('\u0001');
    const t = text.slice(0, cut);
    const o = text.slice(cut + 1);
    return {
      transition: decode('modifyTransition', t, JSON.stringify(rest), info),
      observation: (seen: Json) => decode('filterObservation', o, JSON.stringify(seen), undefined),
    };
  }

  private invoke(
    fn: QuickJSHandle,
    name: string,
    strings: string[],
    extra: QuickJSHandle[] = [],
    phase: 'load' | 'call' = 'call',
  ): string {
    const ctx = this.live();
    const limits = this.host.limits;
    const handles = [...strings.map((str) => ctx.newString(str)), ...extra];
    this.deadline = Date.now() + limits.hookTimeoutMs;
    markStart(name);
    let result: ReturnType<QuickJSContext['callFunction']>;
    try {
      result = ctx.callFunction(fn, ctx.undefined, handles);
    } catch (e) {
      // A host-level RangeError (the wasm frames outgrew Node's own stack) or an abort.
      markEnd();
      this.failed(e);
      throw new HarnessCodeError(
        `hook ${name} crashed the sandbox (${e instanceof Error ? e.message : String(e)}); recursion or nesting is probably too deep`,
        name,
      );
    } finally {
      markEnd();
      this.deadline = Number.POSITIVE_INFINITY;
    }
    for (const h of handles) h.dispose();
    if (result.error) {
      const dumped = asDumpedError(ctx.dump(result.error));
      result.error.dispose();
      let hook = name;
      const fatal =
        dumped.name === 'InternalError' && FATAL_MESSAGES.includes(dumped.message ?? '');
      if (dumped.message !== 'out of memory') {
        // Which hook of a combined call failed (not after an out-of-memory: touch nothing then).
        try {
          const which = ctx.getProp(ctx.global, '__which');
          const current = ctx.callFunction(which, ctx.undefined);
          which.dispose();
          if (!current.error && ctx.typeof(current.value) === 'string') {
            hook = ctx.getString(current.value) || name;
          }
          (current.error ?? current.value).dispose();
        } catch {
          // keep the call's name
        }
      }
      const { error } = codeError(dumped, {
        hook: phase === 'load' || hook === '(load)' ? undefined : hook,
        phase: phase === 'load' || hook === '(load)' ? 'load' : 'call',
        limits,
        columnShift: this.columnShift,
        lines: this.lines,
      });
      if (fatal) this.failed(error);
      throw error;
    }
    const text = ctx.typeof(result.value) === 'string' ? ctx.getString(result.value) : '';
    result.value.dispose();
    return text;
  }

  /** Done with it: the host keeps it for the next user of the same code. */
  dispose(): void {
    this.host.recycle(this);
  }

  /** Frees the runtime. */
  destroy(): void {
    this.host.forget(this);
    try {
      this.callFn?.dispose();
      this.afterFn?.dispose();
      this.beginFn?.dispose();
      this.stateFn?.dispose();
      this.infoFn?.dispose();
      this.ctx?.dispose();
      this.rt?.dispose();
    } catch {
      // A runtime that hit a fatal error may not dispose cleanly: drop the whole instance.
      this.host.poison();
    }
    this.abandon();
  }

  /** Forgets the handles without touching the (possibly broken) wasm instance. */
  abandon(): void {
    this.callFn = undefined;
    this.afterFn = undefined;
    this.beginFn = undefined;
    this.stateFn = undefined;
    this.infoFn = undefined;
    this.ctx = undefined;
    this.rt = undefined;
  }

  private live(): QuickJSContext {
    if (!this.ctx) {
      throw new HarnessCodeError(
        'the hook sandbox was shut down after an earlier fatal error in this episode; reset first',
      );
    }
    return this.ctx;
  }

  private failed(_e: unknown): void {
    // Out-of-memory, interrupt and stack errors can leave QuickJS inconsistent: never reuse it.
    this.host.forget(this);
    this.abandon();
    this.host.poison();
  }

  private evalOrThrow(code: string, file: string): string | undefined {
    const ctx = this.ctx!;
    // The engine's own scripts are bounded and need no deadline (a busy machine must not fail
    // them); the user's file only defines the factory here, its top-level code runs in begin().
    if (file === USER_FILE) {
      this.deadline = Date.now() + this.host.limits.hookTimeoutMs;
      markStart('(load)');
    }
    let r: ReturnType<QuickJSContext['evalCode']>;
    try {
      r = ctx.evalCode(code, file, { type: 'global', strict: true });
    } catch (e) {
      throw new LoadFailure(
        new HarnessCodeError(
          `hook code crashed the sandbox while loading (${e instanceof Error ? e.message : String(e)})`,
        ),
        true,
      );
    } finally {
      markEnd();
      this.deadline = Number.POSITIVE_INFINITY;
    }
    if (r.error) {
      const dumped = asDumpedError(ctx.dump(r.error));
      r.error.dispose();
      const { error, fatal } = codeError(dumped, {
        phase: 'load',
        limits: this.host.limits,
        columnShift: this.columnShift,
        lines: this.lines,
      });
      throw new LoadFailure(error, fatal);
    }
    const out = ctx.typeof(r.value) === 'string' ? ctx.getString(r.value) : undefined;
    r.value.dispose();
    return out;
  }
}

let checker: SandboxHost | undefined;

/**
 * Compile-checks Contract hook code (the studio editor and EnvRigger call this to show
 * "line N: message"). Resolves with the hooks the code defines; rejects with HarnessCodeError.
 */
export async function compileHooks(code: string): Promise<CompiledHooks> {
  checker ??= new SandboxHost();
  await checker.ready();
  const set = checker.load(code, { names: HOOK_NAMES });
  const info = set.info;
  set.dispose();
  return info;
}

const WHEN_PREFIX = 'function when(state) { return (';

/** Wraps a Chain `switch` condition so that errors point at the user's expression. */
export function whenSource(expression: string): {
  code: string;
  columnShift: number;
  lines: number;
} {
  return {
    code: `${WHEN_PREFIX}${expression}\n); }`,
    columnShift: WHEN_PREFIX.length,
    lines: expression.split('\n').length,
  };
}

/** Compile-checks a Chain `when` expression. */
export async function compileWhen(expression: string): Promise<void> {
  checker ??= new SandboxHost();
  await checker.ready();
  const { code, columnShift, lines } = whenSource(expression);
  const set = checker.load(code, { names: ['when'], columnShift, lines });
  set.dispose();
}
