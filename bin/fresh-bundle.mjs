// Which CLI to run: the esbuild bundle in dist/cli/ (scripts/build-cli.mjs) when it is there and no
// source it was built from changed since, so a developer editing server/ never runs a stale bundle.
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The bundle's entry under `root` (a directory URL ending in `/`), or undefined: no bundle, a
 * source listed in dist/cli/inputs.json newer than the build or gone, or HARNESS_DEV=1. One stat
 * per source (≈ 300, a few ms).
 */
export function freshBundle(root, env = process.env) {
  if (env.HARNESS_DEV === '1') return undefined;
  try {
    const { builtAt, inputs } = JSON.parse(
      readFileSync(new URL('dist/cli/inputs.json', root), 'utf8'),
    );
    // Plain paths: a URL per source (parsed, then turned back into a path) cost more than the stat.
    const base = fileURLToPath(root);
    for (const input of inputs) {
      if (statSync(base + input).mtimeMs > builtAt) return undefined;
    }
    return new URL('dist/cli/main.mjs', root);
  } catch {
    return undefined;
  }
}
