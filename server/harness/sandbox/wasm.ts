// One capped wasm instance per SandboxHost (STACK.md): `runtime.setMemoryLimit` does not bound
// emscripten builds, a capped WebAssembly.Memory does. The .wasm is compiled once per thread and
// shared by every instance.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import v8 from 'node:v8';
import releaseSyncVariant from '@jitl/quickjs-wasmfile-release-sync';
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSWASMModule,
} from 'quickjs-emscripten-core';

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

/** A QuickJS module on its own WebAssembly.Memory of at most `memoryMiB` (at least 16 MiB). */
export async function newCappedModule(memoryMiB: number): Promise<QuickJSWASMModule> {
  const maximum = Math.max(256, Math.floor((memoryMiB * 1024 * 1024) / WASM_PAGE));
  const wasmMemory = new WebAssembly.Memory({ initial: 256, maximum });
  return newQuickJSWASMModuleFromVariant(
    newVariant(releaseSyncVariant, { wasmMemory, wasmModule: await wasmModule() }),
  );
}
