#!/usr/bin/env node
// Entry point of `npx harness`. Runs the esbuild bundle in dist/cli/ (scripts/build-cli.mjs) when
// it is there and no source it was built from changed since; otherwise registers tsx and runs the
// TypeScript sources, so a developer editing server/ never runs a stale bundle. HARNESS_DEV=1
// always runs the sources.
import { readFileSync, statSync } from 'node:fs';

const root = new URL('../', import.meta.url);
const bundle = new URL('dist/cli/main.mjs', root);

/** The bundle, when every source it lists is no newer than the build (one stat per source). */
function freshBundle() {
  if (process.env.HARNESS_DEV === '1') return undefined;
  try {
    const { builtAt, inputs } = JSON.parse(
      readFileSync(new URL('dist/cli/inputs.json', root), 'utf8'),
    );
    for (const input of inputs) {
      if (statSync(new URL(input, root)).mtimeMs > builtAt) return undefined;
    }
    return bundle;
  } catch {
    // No bundle, or a source it was built from is gone.
    return undefined;
  }
}

const fresh = freshBundle();
let entry = fresh;
if (!fresh) {
  const { register } = await import('tsx/esm/api');
  register();
  entry = new URL('server/cli/main.ts', root);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
