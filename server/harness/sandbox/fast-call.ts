// One string in, one string out, straight through the QuickJS FFI. quickjs-emscripten's handle API
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
   * fn(text) with this = undefined: the string it returned, or the handle of what it threw (the
   * caller disposes it). Undefined when the wasm heap has no room for the text (the caller takes
   * the ordinary path, which reports that as the sandbox does).
   */
  call(fn: QuickJSHandle, text: string): FastReply | undefined {
    const { module, ffi } = this.raw;
    const ctx = this.raw.ctx.value;
    if (this.argv === 0) this.argv = module._malloc(4);
    const buffer = this.argv === 0 ? 0 : this.cString(text);
    if (buffer === 0) return undefined;
    const str = ffi.QTS_NewString(ctx, buffer);
    module._free(buffer);
    const heap = module.HEAPU8;
    const argv = this.argv;
    heap[argv] = str & 0xff;
    heap[argv + 1] = (str >>> 8) & 0xff;
    heap[argv + 2] = (str >>> 16) & 0xff;
    heap[argv + 3] = str >>> 24;
    const result = ffi.QTS_Call(ctx, fn.value as unknown as number, this.undefinedPtr, 1, argv);
    ffi.QTS_FreeValuePointer(ctx, str);
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

  /** Frees the argument slot (not after a fatal error: the instance is dropped whole then). */
  dispose(): void {
    if (this.argv !== 0) this.raw.module._free(this.argv);
    this.argv = 0;
  }
}
