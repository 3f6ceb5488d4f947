// The QuickJS sandbox that runs user- and LLM-written hook code (Contract hooks, Chain `when`).
// Limits as measured in STACK.md: every SandboxHost owns its own wasm instance on a capped
// WebAssembly.Memory (setMemoryLimit does not bound emscripten builds), hook calls run under an
// interrupt deadline, the QuickJS stack is capped low enough that deep recursion fails inside the
// sandbox, and any fatal error throws the whole instance away. Long built-ins ('x'.repeat(1e7) in
// a loop) escape the interrupt handler: attachWatchdog() lets a worker-pool host kill the thread.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import releaseSyncVariant from '@jitl/quickjs-wasmfile-release-sync';
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSRuntime,
  type QuickJSWASMModule,
  shouldInterruptAfterDeadline,
} from 'quickjs-emscripten-core';
import type { Json } from '../../bridges/core/types.ts';
import { HarnessCodeError } from '../errors.ts';

export const HOOK_NAMES = ['filterAction', 'modifyTransition', 'filterObservation'] as const;
export type HookName = (typeof HOOK_NAMES)[number];

/** Position of the `state` argument of each hook (it is always the last one). */
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
  hookTimeoutMs: 200,
  memoryMiB: 64,
  maxStackBytes: 64 * 1024,
};

const USER_FILE = 'hooks.js';
const WASM_PAGE = 64 * 1024;

let compiledWasm: Promise<WebAssembly.Module> | undefined;

/** The .wasm is compiled once per thread and shared by every instance. */
function wasmModule(): Promise<WebAssembly.Module> {
  if (!compiledWasm) {
    const require = createRequire(import.meta.url);
    const path = require.resolve('@jitl/quickjs-wasmfile-release-sync/wasm');
    compiledWasm = readFile(path).then((bytes) => WebAssembly.compile(bytes));
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
export const WATCHED_NAMES = [...HOOK_NAMES, 'when', '(load)'] as const;
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
(() => {
  let s = (__seed >>> 0) || 0x9e3779b9;
  Math.random = () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s / 4294967296; };
})();
`;

function collector(names: readonly string[]): string {
  const entries = names
    .map((n) => `${n}: typeof ${n} === 'undefined' ? undefined : ${n}`)
    .join(', ');
  return `
const __hooks = { ${entries} };
const __usesState = {};
for (const [name, f] of Object.entries(__hooks)) {
  if (f === undefined) { delete __hooks[name]; continue; }
  if (typeof f !== 'function') throw new TypeError(name + ' must be a function, not ' + typeof f);
  const src = Function.prototype.toString.call(f);
  const open = src.indexOf('('), close = src.indexOf(')');
  const params = open >= 0 && close > open ? src.slice(open + 1, close) : '';
  __usesState[name] = f.length > __stateArg[name] || params.includes('=') || /\\barguments\\b/.test(src);
}
let __stateJson, __stateVal, __stateReady = false;
function __setState(json) { __stateJson = json; __stateReady = false; __stateVal = undefined; }
function __call(name, argsJson) {
  const args = JSON.parse(argsJson);
  if (__usesState[name]) {
    if (!__stateReady) { __stateVal = __stateJson === undefined ? undefined : JSON.parse(__stateJson); __stateReady = true; }
    args[__stateArg[name]] = __stateVal;
  }
  const out = __hooks[name].apply(undefined, args);
  if (out !== null && typeof out === 'object' && typeof out.then === 'function') {
    throw new TypeError(name + ' returned a Promise; hooks must be synchronous');
  }
  return out === undefined ? undefined : JSON.stringify(out);
}
JSON.stringify({ hooks: Object.keys(__hooks), usesState: __usesState });
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
  context: { hook?: string; phase: 'load' | 'call'; limits: SandboxLimits; columnShift?: number },
): { error: HarnessCodeError; fatal: boolean } {
  const name = err.name ?? 'Error';
  const message = err.message ?? String(err);
  const where = locate(err, USER_FILE);
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
  hooks: string[];
  usesState: Record<string, boolean>;
}

/**
 * One capped wasm instance, shared by the contracts of one harness stack across episodes
 * (a new instance costs ≈ 5 ms here, a new runtime ≈ 0.3 ms). Replaced after any fatal error.
 */
export class SandboxHost {
  private module: QuickJSWASMModule | undefined;
  private pending: Promise<QuickJSWASMModule> | undefined;
  private readonly live = new Set<HookSet>();
  readonly limits: SandboxLimits;

  constructor(limits: Partial<SandboxLimits> = {}) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
  }

  async ready(): Promise<void> {
    if (this.module) return;
    this.pending ??= newCappedModule(this.limits.memoryMiB);
    this.module = await this.pending;
    this.pending = undefined;
  }

  /** Drops the wasm instance (and every runtime on it); the next ready() builds a fresh one. */
  poison(): void {
    for (const set of this.live) set.abandon();
    this.live.clear();
    this.module = undefined;
  }

  /**
   * Loads hook code into a fresh runtime. Call ready() first. Throws HarnessCodeError on a
   * compile or load error.
   */
  load(
    code: string,
    options: { names: readonly string[]; seed?: number; columnShift?: number },
  ): HookSet {
    if (!this.module) throw new Error('SandboxHost.load before ready()');
    const set = new HookSet(this, this.module, code, options);
    this.live.add(set);
    return set;
  }

  forget(set: HookSet): void {
    this.live.delete(set);
  }

  dispose(): void {
    for (const set of [...this.live]) set.dispose();
    this.module = undefined;
  }
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
  private rt: QuickJSRuntime | undefined;
  private ctx: QuickJSContext | undefined;
  private callFn: QuickJSHandle | undefined;
  private setStateFn: QuickJSHandle | undefined;
  readonly info: CompiledHooks;
  private readonly columnShift: number;

  constructor(
    private readonly host: SandboxHost,
    module: QuickJSWASMModule,
    code: string,
    options: { names: readonly string[]; seed?: number; columnShift?: number },
  ) {
    this.columnShift = options.columnShift ?? 0;
    const limits = host.limits;
    try {
      this.rt = module.newRuntime();
      this.rt.setMaxStackSize(limits.maxStackBytes);
      this.ctx = this.rt.newContext();
      const ctx = this.ctx;
      const stateArg = Object.fromEntries(options.names.map((n) => [n, STATE_ARG[n] ?? 1]));
      this.evalOrThrow(
        `const __seed = ${Math.floor(options.seed ?? 0) >>> 0};\nconst __stateArg = ${JSON.stringify(stateArg)};\n${PRELUDE}`,
        '<prelude>',
      );
      this.evalOrThrow(prepareHookSource(code), USER_FILE);
      const out = this.evalOrThrow(collector(options.names), '<harness>');
      this.info = JSON.parse(out ?? '{}') as CompiledHooks;
      this.callFn = ctx.getProp(ctx.global, '__call');
      this.setStateFn = ctx.getProp(ctx.global, '__setState');
    } catch (e) {
      if (e instanceof LoadFailure && !e.fatal) this.dispose();
      else this.failed(e);
      throw e instanceof LoadFailure
        ? e.error
        : new HarnessCodeError(`hook code could not be loaded: ${String(e)}`);
    }
  }

  has(name: string): boolean {
    return this.info.hooks.includes(name);
  }

  usesState(name: string): boolean {
    return this.info.usesState[name] === true;
  }

  /** Sets the state view for the next calls (parsed inside the sandbox at most once). */
  setState(stateJson: string | undefined): void {
    const ctx = this.live();
    const arg = stateJson === undefined ? ctx.undefined : ctx.newString(stateJson);
    try {
      const r = ctx.callFunction(this.setStateFn!, ctx.undefined, arg);
      if (r.error) r.error.dispose();
      else r.value.dispose();
    } finally {
      if (stateJson !== undefined) arg.dispose();
    }
  }

  /** Calls a hook with JSON arguments; returns its JSON result (undefined when it returned nothing). */
  call(name: string, args: Json[]): Json | undefined {
    const ctx = this.live();
    const rt = this.rt!;
    const limits = this.host.limits;
    const nameH = ctx.newString(name);
    const argsH = ctx.newString(JSON.stringify(args));
    rt.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + limits.hookTimeoutMs));
    markStart(name);
    let result: ReturnType<QuickJSContext['callFunction']>;
    try {
      result = ctx.callFunction(this.callFn!, ctx.undefined, nameH, argsH);
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
      if (this.rt) rt.removeInterruptHandler();
    }
    nameH.dispose();
    argsH.dispose();
    if (result.error) {
      const dumped = ctx.dump(result.error) as DumpedError;
      result.error.dispose();
      const { error, fatal } = codeError(dumped, {
        hook: name,
        phase: 'call',
        limits,
        columnShift: this.columnShift,
      });
      if (fatal) this.failed(error);
      throw error;
    }
    const text = ctx.typeof(result.value) === 'string' ? ctx.getString(result.value) : undefined;
    result.value.dispose();
    return text === undefined ? undefined : (JSON.parse(text) as Json);
  }

  dispose(): void {
    this.host.forget(this);
    try {
      this.callFn?.dispose();
      this.setStateFn?.dispose();
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
    this.setStateFn = undefined;
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
    const rt = this.rt!;
    rt.setInterruptHandler(
      shouldInterruptAfterDeadline(Date.now() + this.host.limits.hookTimeoutMs),
    );
    markStart('(load)');
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
      rt.removeInterruptHandler();
    }
    if (r.error) {
      const dumped = ctx.dump(r.error) as DumpedError;
      r.error.dispose();
      const { error, fatal } = codeError(dumped, {
        phase: 'load',
        limits: this.host.limits,
        columnShift: this.columnShift,
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
export function whenSource(expression: string): { code: string; columnShift: number } {
  return { code: `${WHEN_PREFIX}${expression}\n); }`, columnShift: WHEN_PREFIX.length };
}

/** Compile-checks a Chain `when` expression. */
export async function compileWhen(expression: string): Promise<void> {
  checker ??= new SandboxHost();
  await checker.ready();
  const { code, columnShift } = whenSource(expression);
  const set = checker.load(code, { names: ['when'], columnShift });
  set.dispose();
}
