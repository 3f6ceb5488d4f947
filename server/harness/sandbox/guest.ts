// The guest JavaScript (guest/*.js, real files that Biome lints) and how the user's hook code is
// wrapped around it. The files are read once, when this module loads.
import { readFileSync } from 'node:fs';

function guestFile(name: string): string {
  return readFileSync(new URL(`./guest/${name}`, import.meta.url), 'utf8');
}

/** Silent console, seeded Math.random (`__reseed`). */
export const PRELUDE = guestFile('prelude.js');
/** The engine inside the runtime: `__configure`, `__begin`, `__call`, `__after`, `__which`. */
export const RUNTIME = guestFile('runtime.js');
/** Freezes every built-in and the global object once the user's code is defined. */
export const LOCKDOWN = guestFile('lockdown.js');

/** The file name the user's code is evaluated under: errors are located by it. */
export const USER_FILE = 'hooks.js';

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

/**
 * The user's code becomes the body of a factory, run once per episode: every episode gets fresh
 * top-level state without the cost of a new runtime. The prefix shares line 1 with the user's
 * first line so line numbers stay the user's (columns on line 1 are shifted back).
 */
export const FACTORY_PREFIX = 'const __factory = function () {';

/** `body`: the user's code as prepareHookSource and instrumentLoops (loops.ts) left it. */
export function factorySource(body: string, names: readonly string[]): string {
  const entries = names
    .map((n) => `${n}: typeof ${n} === 'undefined' ? undefined : ${n}`)
    .join(', ');
  return `${FACTORY_PREFIX}${body}\n;return { ${entries} }; };`;
}
