#!/usr/bin/env node
// Entry point of `npx harness`: the esbuild bundle in dist/cli/ when it is up to date with the
// sources (fresh-bundle.mjs), else the TypeScript sources through tsx (HARNESS_DEV=1: always).
import { setFlagsFromString } from 'node:v8';
import { freshBundle } from './fresh-bundle.mjs';
import { v8FlagsFor } from './wasm-tier.mjs';

// Before anything compiles WebAssembly (wasm-tier.mjs says why).
const flags = v8FlagsFor(process.argv[2]);
if (flags) setFlagsFromString(flags);

const root = new URL('../', import.meta.url);
let entry = freshBundle(root);
if (!entry) {
  const { register } = await import('tsx/esm/api');
  register();
  entry = new URL('server/cli/main.ts', root);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
