// Strings in, one string out, straight through the QuickJS FFI. quickjs-emscripten's handle API
// costs more than a small hook call itself: per call it builds typed-array views and Lifetimes for
// the argument list, encodes the string with a JavaScript loop, and asks the reply's type as a
// malloc'd string. Only the per-step crossings use this (HookSet.call / after): their strings hold
// no NUL and no lone surrogate (reply.ts), and the guest answers every such call with a string.
import type { QuickJSContext, QuickJSHandle } from 'quickjs-emscripten-core';

/** What the fast path uses of a QuickJSContext: its protected FFI, module and memory. */
interface ContextInternals {
  ctx: { value: number };
  module: {
    _malloc(bytes: number): number;
    _free(ptr: number): void;
    HEAPU8: Uint8Array;
    UTF8ToString(ptr: number): string;
  };
  ffi: {
    QTS_NewString(ctx: number, str: number): number;
    QTS_Call(ctx: number, fn: number, self: number, argc: number, argv: number): number;
    QTS_ResolveException(ctx: number, value: number): number;
    QTS_GetString(ctx: number, value: number): number;
    QTS_FreeCString(ctx: number, str: number): void;
    QTS_FreeValuePointer(ctx: number, value: number): void;
  };
  memory: { heapValueHandle(ptr: number): QuickJSHandle };
}

const encoder = new TextEncoder();

/** Kept guest strings per context (see FastCall.call). */
const MAX_KEPT = 64;

/**
 * Writes `text` as UTF-8 and a NUL at `at` (room: 3 bytes per UTF-16 unit, plus 1); returns the
 * bytes before the NUL. ASCII is copied by a loop: for the short strings of a crossing that costs
 * less than encodeInto and the view it needs.
 */
function writeUtf8(heap: Uint8Array, at: number, text: string): number {
  const n = text.length;
  let i = 0;
  for (; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) break;
    heap[at + i] = c;
  }
  if (i < n) i = encoder.encodeInto(text, heap.subarray(at, at + n * 3)).written;
  heap[at + i] = 0;
  return i;
}

function usable(context: QuickJSContext): ContextInternals | undefined {
  const c = context as unknown as Partial<ContextInternals>;
  const ok =
    typeof c.ctx?.value === 'number' &&
    typeof c.module?._malloc === 'function' &&
    typeof c.module.UTF8ToString === 'function' &&
    typeof c.ffi?.QTS_Call === 'function' &&
    typeof c.ffi.QTS_NewString === 'function' &&
    typeof c.ffi.QTS_GetString === 'function' &&
    typeof c.ffi.QTS_FreeCString === 'function' &&
    typeof c.ffi.QTS_FreeValuePointer === 'function' &&
    typeof c.ffi.QTS_ResolveException === 'function' &&
    typeof c.memory?.heapValueHandle === 'function';
  return ok ? (c as ContextInternals) : undefined;
}

export type FastReply = { text: string } | { error: QuickJSHandle };

export class FastCall {
  private argv = 0;
  /** Slots in argv. */
  private argc = 0;
  /** Per argument: its C string, then its guest string (reused arrays: no garbage per call). */
  private readonly starts: number[] = [];
  private readonly strs: number[] = [];
  /** Per argument: whether its guest string is freed after the call (not a kept one). */
  private readonly temporary: boolean[] = [];
  /**
   * Guest strings kept across calls, by text: arguments that recur (a hook's index, the state's
   * generation, an action's name and key, a reward, flags) cost no string and no free per call.
   */
  private readonly keptStrings = new Map<string, number>();

  private constructor(
    private readonly raw: ContextInternals,
    private readonly undefinedPtr: number,
  ) {}

  /** A fast path for `context`, or undefined when this quickjs-emscripten build differs. */
  static for(context: QuickJSContext): FastCall | undefined {
    const raw = usable(context);
    const undef = (context.undefined as unknown as { value?: unknown }).value;
    return raw && typeof undef === 'number' ? new FastCall(raw, undef) : undefined;
  }

  /** The C string of `text` in the wasm heap (free it), or 0 when there is no room. */
  private cString(text: string): number {
    const module = this.raw.module;
    const bytes = text.length * 3 + 1;
    const buffer = module._malloc(bytes);
    if (buffer === 0) return 0;
    // Read after malloc: growing the memory replaces the view.
    const heap = module.HEAPU8;
    const { written } = encoder.encodeInto(text, heap.subarray(buffer, buffer + bytes - 1));
    heap[buffer + written] = 0;
    return buffer;
  }

  /** A guest string of `text` (JSON: no NUL, no lone surrogate), or undefined when no room. */
  newString(text: string): QuickJSHandle | undefined {
    const buffer = this.cString(text);
    if (buffer === 0) return undefined;
    const str = this.raw.ffi.QTS_NewString(this.raw.ctx.value, buffer);
    this.raw.module._free(buffer);
    return this.raw.memory.heapValueHandle(str);
  }

  /**
   * fn(...texts) with this = undefined: the string it returned, or the handle of what it threw
   * (the caller disposes it). Undefined when the wasm heap has no room for the texts (the caller
   * takes the ordinary path, which reports that as the sandbox does). Several strings cost one
   * malloc for all their bytes: each becomes a guest string in C, which is cheaper than the guest
   * cutting one string apart with indexOf and slice (each a few hundred ns inside QuickJS).
   * `kept`: a bit per argument (1 << i) whose text recurs across calls; its guest string is made
   * once and kept (at most MAX_KEPT of them; then they are all freed and made again as needed).
   */
  call(fn: QuickJSHandle, texts: string | readonly string[], kept = 0): FastReply | undefined {
    const { module, ffi } = this.raw;
    const ctx = this.raw.ctx.value;
    const list = typeof texts === 'string' ? [texts] : texts;
    const argc = list.length;
    if (argc > this.argc) {
      if (this.argv !== 0) module._free(this.argv);
      this.argv = module._malloc(4 * argc);
      this.argc = this.argv === 0 ? 0 : argc;
    }
    if (this.argv === 0) return undefined;
    const keptStrings = this.keptStrings;
    if (kept !== 0 && keptStrings.size + argc > MAX_KEPT) this.forgetKept();
    const strs = this.strs;
    const temporary = this.temporary;
    let bytes = 0;
    for (let i = 0; i < argc; i++) {
      const known = (kept >> i) & 1 ? keptStrings.get(list[i]!) : undefined;
      strs[i] = known ?? 0;
      if (known === undefined) bytes += list[i]!.length * 3 + 1;
    }
    if (bytes > 0) {
      const buffer = module._malloc(bytes);
      if (buffer === 0) return undefined;
      // Read after malloc: growing the memory replaces the view.
      const heap = module.HEAPU8;
      const starts = this.starts;
      let at = buffer;
      for (let i = 0; i < argc; i++) {
        if (strs[i] !== 0) continue;
        starts[i] = at;
        at += writeUtf8(heap, at, list[i]!) + 1;
      }
      for (let i = 0; i < argc; i++) {
        const keep = ((kept >> i) & 1) === 1;
        // A text kept twice in one call is made once.
        if (strs[i] === 0 && keep) strs[i] = keptStrings.get(list[i]!) ?? 0;
        temporary[i] = strs[i] === 0 && !keep;
        if (strs[i] !== 0) continue;
        const str = ffi.QTS_NewString(ctx, starts[i]!);
        strs[i] = str;
        if (keep) keptStrings.set(list[i]!, str);
      }
      module._free(buffer);
    } else {
      for (let i = 0; i < argc; i++) temporary[i] = false;
    }
    const heap = module.HEAPU8;
    const argv = this.argv;
    for (let i = 0; i < argc; i++) {
      const str = strs[i]!;
      const p = argv + 4 * i;
      heap[p] = str & 0xff;
      heap[p + 1] = (str >>> 8) & 0xff;
      heap[p + 2] = (str >>> 16) & 0xff;
      heap[p + 3] = str >>> 24;
    }
    const result = ffi.QTS_Call(ctx, fn.value as unknown as number, this.undefinedPtr, argc, argv);
    for (let i = 0; i < argc; i++) if (temporary[i]) ffi.QTS_FreeValuePointer(ctx, strs[i]!);
    const error = ffi.QTS_ResolveException(ctx, result);
    if (error) {
      ffi.QTS_FreeValuePointer(ctx, result);
      return { error: this.raw.memory.heapValueHandle(error) };
    }
    const cstr = ffi.QTS_GetString(ctx, result);
    const reply = module.UTF8ToString(cstr);
    ffi.QTS_FreeCString(ctx, cstr);
    ffi.QTS_FreeValuePointer(ctx, result);
    return { text: reply };
  }

  private forgetKept(): void {
    const ctx = this.raw.ctx.value;
    for (const str of this.keptStrings.values()) this.raw.ffi.QTS_FreeValuePointer(ctx, str);
    this.keptStrings.clear();
  }

  /**
   * Frees the argument slot and the kept strings (not after a fatal error: the instance is
   * dropped whole then).
   */
  dispose(): void {
    this.forgetKept();
    if (this.argv !== 0) this.raw.module._free(this.argv);
    this.argv = 0;
    this.argc = 0;
  }
}
