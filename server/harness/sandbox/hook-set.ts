// HookSet: one QuickJS runtime with one piece of hook code loaded — a Contract's hooks or a Chain's
// `when` — reused across episodes (begin() re-runs the user's top-level code). Calls cross the
// boundary as strings (reply.ts): a one-argument action and a plain step result as strings of their
// own, any other argument as one string; one string comes back. The state view and a step's info
// cross lazily.
import type {
  QuickJSContext,
  QuickJSHandle,
  QuickJSRuntime,
  QuickJSWASMModule,
} from 'quickjs-emscripten-core';
import type { Json } from '../../../bridges/core/types.ts';
import { HarnessCodeError } from '../../errors.ts';
import { codeError, type DumpedError, isFatal, LoadFailure, readThrown } from './errors.ts';
import { FastCall } from './fast-call.ts';
import {
  FACTORY_PREFIX,
  factorySource,
  LOCKDOWN,
  PRELUDE,
  prepareHookSource,
  RUNTIME,
  USER_FILE,
} from './guest.ts';
import type { SandboxLimits } from './limits.ts';
import { type InstrumentedCode, instrumentLoops, type Position } from './loops.ts';
import {
  actionPart,
  actionStrings,
  argPart,
  decodeReply,
  resultPart,
  resultStrings,
} from './reply.ts';
import { markEnd, markStart } from './watchdog.ts';

/** A guest failure reply (guest/runtime.js __failure): \u0002 + JSON of a described thrown value. */
const FAILURE = '\u0002';

/**
 * The arguments of __callA (hook index, generation, action name, key, value) and __afterA
 * (generation, action name, key, value, reward, flags, text) whose text recurs across calls (the
 * generation does while no hook reads the state view): their guest strings are kept
 * (FastCall.call).
 */
const KEPT_CALL_A = 0b01111;
const KEPT_AFTER_A = 0b0110111;

const NO_HANDLES: readonly QuickJSHandle[] = [];

/** What a guest crossing gave back, read inside the limits. */
type Crossing = { text: string } | { thrown: DumpedError; hook: string | undefined; loop: number };

/**
 * Where a hook's arguments go. `primary`: the argument the hook returns, possibly changed
 * (returning nothing, or it untouched, means "unchanged"); -1 when the return value is the answer.
 * `state`: the position of the lazy, read-only state view. The component that owns the hooks
 * declares them (contract.ts CONTRACT_HOOKS, chain.ts WHEN_HOOK).
 */
export interface HookSignature {
  primary: number;
  state: number;
}
export type HookSignatures = Readonly<Record<string, HookSignature>>;

export interface LoadOptions {
  /** The hooks the code may define, with their argument table. */
  hooks: HookSignatures;
  /** Seeds Math.random for the first episode. */
  seed?: number;
  /** Columns of a wrapper before the user's text on line 1 (a Chain `when` expression). */
  columnShift?: number;
  /** The user's line count, when the code is wrapped. */
  lines?: number;
}

export interface CompiledHooks {
  /** The hooks the code defines (the others are identity). */
  hooks: string[];
}

/** What a HookSet needs of the SandboxHost that made it (host.ts). */
export interface HookSetOwner {
  readonly limits: SandboxLimits;
  /** The set's user is done with it: keep it for reuse while it is healthy. */
  recycle(set: HookSet): void;
  /** The set is gone: stop tracking it. */
  forget(set: HookSet): void;
  /** The wasm instance may be broken: drop it and every runtime on it. */
  poison(): void;
}

export class HookSet {
  static keyOf(code: string, options: LoadOptions): string {
    return `${JSON.stringify(options.hooks)}|${options.columnShift ?? 0}|${options.lines ?? ''}|${code}`;
  }

  readonly key: string;
  private rt: QuickJSRuntime | undefined;
  private ctx: QuickJSContext | undefined;
  private callFn: QuickJSHandle | undefined;
  private afterFn: QuickJSHandle | undefined;
  /** __call / __after for the common arguments, each part a string of its own. */
  private callAFn: QuickJSHandle | undefined;
  private afterAFn: QuickJSHandle | undefined;
  private beginFn: QuickJSHandle | undefined;
  private stateFn: QuickJSHandle | undefined;
  private infoFn: QuickJSHandle | undefined;
  /** The per-step crossings' path through the FFI (fast-call.ts). */
  private fast: FastCall | undefined;
  private lazyInfo: Record<string, Json> | undefined;
  private stateProvider: (() => Json) | undefined;
  private stateAt: ((key: string) => Json | undefined) | undefined;
  private stateValue: Json | undefined;
  private stateLoaded = false;
  /**
   * The state view's generation as the guest sees it (its cache of fetched fields is dropped when
   * it changes), and whether the guest fetched a field since it last changed: a view nobody read
   * leaves nothing to drop, so the generation and its guest string stay as they are.
   */
  private stateGen = 0;
  private stateGenText = '0';
  private stateFetched = false;
  /** The argument lists of __callA and __afterA, filled per call (FastCall copies them at once). */
  private readonly callAArgs = ['', '', '', '', ''];
  private readonly afterAArgs = ['', '', '', '', '', '', ''];
  private deadline = Number.POSITIVE_INFINITY;
  info: CompiledHooks;
  private readonly signatures: HookSignatures;
  /** The hook names in table order (the guest's __names): a call names its hook by index. */
  private readonly names: string[];
  /** Columns of a wrapper around the user's text on line 1 (a Chain `when`). */
  private readonly wrapperShift: number;
  private readonly lines: number | undefined;
  private readonly source: InstrumentedCode;

  constructor(
    private readonly host: HookSetOwner,
    module: QuickJSWASMModule,
    code: string,
    options: LoadOptions,
  ) {
    this.key = HookSet.keyOf(code, options);
    this.signatures = options.hooks;
    this.names = Object.keys(options.hooks);
    this.wrapperShift = options.columnShift ?? 0;
    this.lines = options.lines ?? code.split('\n').length;
    this.source = instrumentLoops(prepareHookSource(code));
    const limits = host.limits;
    try {
      this.rt = module.newRuntime();
      this.rt.setMaxStackSize(limits.maxStackBytes);
      // One handler for the runtime's life; each call only moves the deadline.
      this.rt.setInterruptHandler(() => Date.now() > this.deadline);
      this.ctx = this.rt.newContext();
      this.evalOrThrow(`${PRELUDE}\n${RUNTIME}`, '<prelude>');
      this.configure(options.hooks);
      this.installHostFunctions(this.ctx);
      this.evalOrThrow(factorySource(this.source.code, Object.keys(options.hooks)), USER_FILE);
      this.evalOrThrow(LOCKDOWN, '<lockdown>');
      this.callFn = this.ctx.getProp(this.ctx.global, '__call');
      this.afterFn = this.ctx.getProp(this.ctx.global, '__after');
      this.callAFn = this.ctx.getProp(this.ctx.global, '__callA');
      this.afterAFn = this.ctx.getProp(this.ctx.global, '__afterA');
      this.beginFn = this.ctx.getProp(this.ctx.global, '__begin');
      this.fast = FastCall.for(this.ctx);
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

  /** Hands the guest its argument table (data, not spliced source). */
  private configure(hooks: HookSignatures): void {
    const ctx = this.ctx!;
    const fn = ctx.getProp(ctx.global, '__configure');
    const table = ctx.newString(JSON.stringify(hooks));
    try {
      const r = ctx.callFunction(fn, ctx.undefined, table);
      if (r.error) {
        const dumped = readThrown(ctx, r.error);
        r.error.dispose();
        throw new LoadFailure(
          new HarnessCodeError(`the hook sandbox could not be set up: ${dumped.message}`),
          true,
        );
      }
      r.value.dispose();
    } finally {
      table.dispose();
      fn.dispose();
    }
  }

  /**
   * The only two host functions the guest sees: one field of the state view, one of the info.
   * With a string: that field's JSON (undefined when absent); with a number: every field, as JSON
   * key \u0001 JSON value pairs joined by \u0001 (an empty value: undefined); with nothing: the
   * keys' JSON (guest/runtime.js __lazyObject).
   */
  private installHostFunctions(ctx: QuickJSContext): void {
    // JSON holds no NUL and no lone surrogate: it may take the FFI path (fast-call.ts).
    const text = (s: string) => this.fast?.newString(s) ?? ctx.newString(s);
    const json = (value: Json | undefined) =>
      value === undefined ? ctx.undefined : text(JSON.stringify(value));
    const field = (record: Record<string, Json>, type: string, keyHandle: QuickJSHandle) => {
      if (type === 'string') {
        const key = ctx.getString(keyHandle);
        return json(Object.hasOwn(record, key) ? record[key] : undefined);
      }
      if (type === 'number') {
        const parts: string[] = [];
        for (const key of Object.keys(record)) {
          parts.push(JSON.stringify(key), JSON.stringify(record[key]) ?? '');
        }
        return text(parts.join('\u0001'));
      }
      return text(JSON.stringify(Object.keys(record)));
    };
    const typeOf = (h: QuickJSHandle | undefined) => (h ? ctx.typeof(h) : 'undefined');
    this.stateFn = ctx.newFunction('__hostState', (keyHandle) => {
      this.stateFetched = true;
      const type = typeOf(keyHandle);
      // One field of a view that can be read narrowly: the bridge need not build the world.
      if (type === 'string' && !this.stateLoaded && this.stateAt) {
        return json(this.stateAt(ctx.getString(keyHandle)));
      }
      if (!this.stateLoaded) {
        this.stateValue = this.stateProvider?.();
        this.stateLoaded = true;
      }
      const state = this.stateValue;
      const record =
        state !== null && typeof state === 'object' ? (state as Record<string, Json>) : {};
      return field(record, type, keyHandle);
    });
    ctx.setProp(ctx.global, '__hostState', this.stateFn);
    this.infoFn = ctx.newFunction('__hostInfo', (keyHandle) =>
      field(this.lazyInfo ?? {}, typeOf(keyHandle), keyHandle),
    );
    ctx.setProp(ctx.global, '__hostInfo', this.infoFn);
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
   * only if a hook reads `state`; then only the top-level fields the hook reads cross over. `at`
   * reads one top-level field without the whole view (as `jsonAt(view, [key])` would), for views
   * that can be read narrowly (HarnessLayer.getEnvStateAt).
   */
  provideState(provider: (() => Json) | undefined, at?: (key: string) => Json | undefined): void {
    this.stateProvider = provider;
    this.stateAt = at;
    this.stateValue = undefined;
    this.stateLoaded = false;
    if (this.stateFetched) {
      this.stateGen += 1;
      this.stateGenText = String(this.stateGen);
      this.stateFetched = false;
    }
  }

  /**
   * Calls a hook with JSON arguments; returns its JSON result, or undefined when it returned
   * nothing or its primary argument untouched. With `lazyInfo`, the primary argument's `info`
   * field is not serialised up front but fetched field by field if the hook reads it.
   */
  call(name: string, args: Json[], lazyInfo?: Record<string, Json>): Json | undefined {
    this.lazyInfo = lazyInfo;
    const index = this.signatures[name]?.primary ?? -1;
    const primary = index >= 0 ? args[index] : undefined;
    // One string crosses (each handle costs a malloc and a copy): the hook's index in the table,
    // lazy info, generation, then the one argument as its part (reply.ts), or several as 'M' + JSON.
    const at = this.names.indexOf(name);
    if (at < 0) throw new Error(`${name} is not a hook of this set`);
    const hook = String.fromCharCode(48 + at);
    const strings =
      this.fast && args.length === 1 && !lazyInfo ? actionStrings(args[0]!) : undefined;
    if (strings) {
      const list = this.callAArgs;
      list[0] = hook;
      list[1] = this.stateGenText;
      list[2] = strings[0];
      list[3] = strings[1];
      list[4] = strings[2];
      const text = this.invoke(this.callAFn!, name, list, NO_HANDLES, 'call', true, KEPT_CALL_A);
      return decodeReply(name, text, primary, undefined);
    }
    let message = `${hook}${lazyInfo === undefined ? 0 : 1}${this.stateGenText}`;
    if (args.length === 1) message += `\u0001${argPart(args[0]!)}`;
    else if (args.length > 1) message += `\u0001M${JSON.stringify(args)}`;
    const text = this.invoke(this.callFn!, name, [message], NO_HANDLES, 'call', true);
    return decodeReply(name, text, primary, lazyInfo);
  }

  /**
   * The Contract's modifyTransition then filterObservation (those defined) in one crossing.
   * `rest` is the step result without its info, which crosses lazily. Returns undefined for what
   * is unchanged; `observation` takes the observation filterObservation saw (from the validated
   * transition).
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
    const a = this.fast ? actionStrings(action) : undefined;
    const r = a ? resultStrings(rest) : undefined;
    let text: string;
    if (a && r) {
      const list = this.afterAArgs;
      list[0] = this.stateGenText;
      list[1] = a[0];
      list[2] = a[1];
      list[3] = a[2];
      list[4] = r[0];
      list[5] = r[1];
      list[6] = r[2];
      text = this.invoke(this.afterAFn!, label, list, NO_HANDLES, 'call', true, KEPT_AFTER_A);
    } else {
      const message = `${this.stateGenText}\u0001${actionPart(action)}\u0001${resultPart(rest)}`;
      text = this.invoke(this.afterFn!, label, [message], NO_HANDLES, 'call', true);
    }
    // The transition's reply never holds \u0001; the observation's ('T', raw) may.
    const cut = text.indexOf('\u0001');
    const t = text.slice(0, cut);
    const o = text.slice(cut + 1);
    return {
      transition: decodeReply('modifyTransition', t, rest, info),
      // A method, not an arrow property: tsx/esbuild's keepNames would rename it on every call.
      observation(seen: Json) {
        return decodeReply('filterObservation', o, seen, undefined);
      },
    };
  }

  /**
   * Runs guest code for `name` with the interrupt deadline armed and the watchdog marked; both
   * are cleared when it returns or throws. Everything that can run guest code — the call, and
   * reading what it returned or threw — goes inside `run`.
   */
  private underLimits<T>(name: string, run: () => T): T {
    this.rearm();
    markStart(name);
    try {
      return run();
    } finally {
      markEnd();
      this.deadline = Number.POSITIVE_INFINITY;
    }
  }

  /** A fresh deadline inside underLimits(), e.g. to read an error after the deadline interrupted. */
  private rearm(): void {
    this.deadline = Date.now() + this.host.limits.hookTimeoutMs;
  }

  private invoke(
    fn: QuickJSHandle,
    name: string,
    strings: readonly string[],
    extra: readonly QuickJSHandle[] = NO_HANDLES,
    phase: 'load' | 'call' = 'call',
    /** The strings hold no NUL and no lone surrogate (reply.ts): they may take the FFI path. */
    plain = false,
    /** On that path, the arguments whose text recurs across calls (FastCall.call). */
    kept = 0,
  ): string {
    const ctx = this.live();
    let handles: readonly QuickJSHandle[] = NO_HANDLES;
    let crossing: Crossing;
    try {
      crossing = this.underLimits(name, () => {
        const fast = plain && extra.length === 0 ? this.fast : undefined;
        const reply = fast?.call(fn, strings, kept);
        if (reply) return 'text' in reply ? reply : this.thrown(ctx, reply.error);
        const made = [...strings.map((str) => ctx.newString(str)), ...extra];
        handles = made;
        return this.read(ctx, ctx.callFunction(fn, ctx.undefined, made));
      });
    } catch (e) {
      // A host-level RangeError (the wasm frames outgrew Node's own stack) or an abort.
      this.failed(e);
      throw new HarnessCodeError(
        `hook ${name} crashed the sandbox (${e instanceof Error ? e.message : String(e)}); recursion or nesting is probably too deep`,
        name,
      );
    }
    for (const h of handles) h.dispose();
    if ('thrown' in crossing) {
      throw this.callError(crossing.thrown, crossing.hook ?? name, phase, crossing.loop);
    }
    if (!crossing.text.startsWith(FAILURE)) return crossing.text;
    const failure = JSON.parse(crossing.text.slice(FAILURE.length)) as DumpedError & {
      hook?: string;
    };
    throw this.callError(failure, failure.hook || name, phase);
  }

  /**
   * What a call returned (a string: a reply or a failure reply) or threw. Runs inside
   * underLimits(): a thrown value here is QuickJS's own (an interrupt, out of memory), read
   * field by field, never converted by guest code (see guest/runtime.js).
   */
  private read(ctx: QuickJSContext, result: ReturnType<QuickJSContext['callFunction']>): Crossing {
    if (!result.error) {
      const text = ctx.typeof(result.value) === 'string' ? ctx.getString(result.value) : '';
      result.value.dispose();
      return { text };
    }
    return this.thrown(ctx, result.error);
  }

  /** What a call threw (QuickJS's own: see read()); disposes the handle. */
  private thrown(ctx: QuickJSContext, error: QuickJSHandle): Crossing {
    this.rearm();
    const thrown = readThrown(ctx, error);
    error.dispose();
    // Which hook of a combined call failed, and in which loop (not after an out-of-memory:
    // touch nothing then).
    if (thrown.message === 'out of memory') return { thrown, hook: undefined, loop: -1 };
    const hook = this.ask(ctx, '__which');
    const loop = thrown.message === 'interrupted' ? Number(this.ask(ctx, '__loopAt') ?? -1) : -1;
    return { thrown, hook: typeof hook === 'string' ? hook || undefined : undefined, loop };
  }

  /**
   * The HarnessCodeError for a value a hook threw, read by read() or described by the guest.
   * `loop`: the loop an interrupted hook was running (guest __loopAt), -1 when none.
   */
  private callError(
    dumped: DumpedError,
    hook: string,
    phase: 'load' | 'call',
    loop = -1,
  ): HarnessCodeError {
    const load = phase === 'load' || hook === '(load)';
    const { error } = codeError(dumped, {
      ...(load ? {} : { hook }),
      phase: load ? 'load' : 'call',
      limits: this.host.limits,
      toUser: (where) => this.toUser(where, loop),
      lines: this.lines,
    });
    if (isFatal(dumped)) this.failed(error);
    return error;
  }

  /**
   * A position in the evaluated file as one in the user's text: the factory prefix, the loop
   * instrumentation, and the wrapper of a Chain `when`. With `loop` (an interrupt), the loop
   * that was running unless QuickJS's own position is more precise (loops.ts interruptAt).
   */
  private toUser(where: Position | undefined, loop: number): Position | undefined {
    const onFirst = (p: Position, shift: number): Position =>
      p.column !== undefined && p.line === 1 && shift
        ? { line: 1, column: Math.max(1, p.column - shift) }
        : p;
    const inCode = where && this.source.toOriginal(onFirst(where, FACTORY_PREFIX.length));
    const located = loop >= 0 ? this.source.interruptAt(inCode, loop) : inCode;
    return located && onFirst(located, this.wrapperShift);
  }

  /** A string or number from one of the engine's own guest functions (`__which`, `__loopAt`). */
  private ask(ctx: QuickJSContext, fn: '__which' | '__loopAt'): string | number | undefined {
    try {
      const handle = ctx.getProp(ctx.global, fn);
      const r = ctx.callFunction(handle, ctx.undefined);
      handle.dispose();
      let out: string | number | undefined;
      if (!r.error) {
        const type = ctx.typeof(r.value);
        if (type === 'string') out = ctx.getString(r.value);
        else if (type === 'number') out = ctx.getNumber(r.value);
      }
      (r.error ?? r.value).dispose();
      return out;
    } catch {
      return undefined;
    }
  }

  /** Done with it: the host keeps it for the next user of the same code. */
  dispose(): void {
    this.host.recycle(this);
  }

  /** Frees the runtime. */
  destroy(): void {
    this.host.forget(this);
    try {
      this.fast?.dispose();
      this.callFn?.dispose();
      this.afterFn?.dispose();
      this.callAFn?.dispose();
      this.afterAFn?.dispose();
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
    this.fast = undefined;
    this.callFn = undefined;
    this.afterFn = undefined;
    this.callAFn = undefined;
    this.afterAFn = undefined;
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

  private evalOrThrow(code: string, file: string): void {
    const ctx = this.ctx!;
    // The engine's own scripts are bounded and need no deadline (a busy machine must not fail
    // them); the user's file only defines the factory here, its top-level code runs in begin().
    const run = (): DumpedError | undefined => {
      const r = ctx.evalCode(code, file, { type: 'global', strict: true });
      if (!r.error) {
        r.value.dispose();
        return undefined;
      }
      const thrown = readThrown(ctx, r.error);
      r.error.dispose();
      return thrown;
    };
    let thrown: DumpedError | undefined;
    try {
      thrown = file === USER_FILE ? this.underLimits('(load)', run) : run();
    } catch (e) {
      throw new LoadFailure(
        new HarnessCodeError(
          `hook code crashed the sandbox while loading (${e instanceof Error ? e.message : String(e)})`,
        ),
        true,
      );
    }
    if (!thrown) return;
    const { error, fatal } = codeError(thrown, {
      phase: 'load',
      limits: this.host.limits,
      toUser: (where) => this.toUser(where, -1),
      lines: this.lines,
    });
    throw new LoadFailure(error, fatal);
  }
}
