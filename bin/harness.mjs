#!/usr/bin/env node
// Entry point of `npx harness`: the esbuild bundle in dist/cli/ when it is up to date with the
// sources (fresh-bundle.mjs), else the TypeScript sources through tsx (HARNESS_DEV=1: always).
import { freshBundle } from './fresh-bundle.mjs';

const root = new URL('../', import.meta.url);
let entry = freshBundle(root);
if (!entry) {
  const { register } = await import('tsx/esm/api');
  register();
  entry = new URL('server/cli/main.ts', root);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
