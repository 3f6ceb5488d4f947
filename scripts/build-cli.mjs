#!/usr/bin/env node
// Builds the CLI and the worker-thread entries into dist/cli/ with esbuild, so `harness` starts
// without compiling TypeScript (bin/harness.mjs falls back to tsx when the bundle is missing or
// older than a source). Runs on `npm ci` (prepare) and `npm run build:cli`.
//
// - Packages stay external: node loads them from node_modules as it does under tsx (wasm files,
//   Prisma's runtime, native modules, playwright keep their own loading) — but for INLINED ones
//   (zod, Prisma's CommonJS client runtime), bundled because they are many small modules or
//   CommonJS Node would lex whole to import; `npm ci` / `npm install` rebuild the bundle
//   (prepare), so a new version of one is never left out.
// - Code splitting: the commands stay lazy chunks, and the main entry and the worker entries share
//   their common chunks.
// - `import.meta.url` in a source file becomes that source file's URL, so files read beside the
//   sources (sandbox guest code, prompts, task data, schemas) are found as they are under tsx.
// - dist/cli/inputs.json lists the sources the bundle was built from, for the freshness check.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'dist/cli');

/**
 * Worker-thread modules, bundled as their own entries: an IsolatedPool started from the bundle runs
 * `<name>.mjs` from here instead of registering tsx in every thread (server/harness/worker-pool.ts).
 * The name is the source path with `/` as `_`, which is how the pool finds them.
 */
export const WORKER_MODULES = [
  'server/harness/worker-entry.ts',
  'server/rollouts/worker-handlers.ts',
  'server/cli/episode-worker.ts',
  'server/serve/session-worker.ts',
  'server/api/studio-handlers.ts',
  'server/harnesses/validate-worker.ts',
  'server/lint/worker.ts',
];

export function bundledName(source) {
  return source.replace(/\.ts$/, '').replaceAll('/', '_');
}

/** `import.meta.url` of a source file, as seen from a file in dist/cli/. */
const sourceUrl = {
  name: 'source-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const relative = path.relative(OUT, args.path).split(path.sep).join('/');
      const url = `new URL(${JSON.stringify(relative)}, import.meta.url).href`;
      return { contents: text.replaceAll('import.meta.url', url), loader: 'ts' };
    });
  },
};

/**
 * Packages bundled into the CLI instead of loaded from node_modules: plain JavaScript with no files
 * of their own to find, and many modules each (zod: 95 files, its locales included), which Node's
 * ESM loader would resolve, read and link one by one at every start.
 */
const INLINED = new Set(['zod']);
/** Single modules bundled in: Prisma's runtime is CommonJS, which Node lexes whole (208 KB) to import. */
const INLINED_MODULES = new Set(['@prisma/client/runtime/client', '@prisma/client-runtime-utils']);

/**
 * zod's `locales` namespace (its error messages in 49 languages, 366 KB) holds only English here:
 * zod registers English itself, and nothing in this project picks another locale
 * (`z.config(z.locales.xx())`), so the others would only be parsed at every start.
 */
const englishOnlyZodLocales = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => {
      if (!args.importer.includes(`${path.sep}node_modules${path.sep}zod${path.sep}`))
        return undefined;
      return {
        path: path.join(path.dirname(args.importer), '../locales/en-only.js'),
        namespace: 'zod-locales',
      };
    });
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: "export { default as en } from './en.js';\n",
      resolveDir: path.dirname(args.path),
      loader: 'js',
    }));
  },
};

/** Prisma's query compiler, as the binary the generated client otherwise decodes from base64. */
const QUERY_COMPILER = 'query_compiler_fast_bg.postgresql.wasm';
const QUERY_COMPILER_BASE64 = `@prisma/client/runtime/${QUERY_COMPILER}-base64.mjs`;
const BASE64_LOADER = `    const { wasm } = await import("${QUERY_COMPILER_BASE64}")
    return await decodeBase64AsWasm(wasm)`;
const BINARY_LOADER = `    return await __queryCompilerModule()`;
const EARLY_COMPILE = `
let __queryCompiler
function __queryCompilerModule() {
  __queryCompiler ??= import('node:fs/promises').then(async ({ readFile }) =>
    WebAssembly.compile(await readFile(new URL('./${QUERY_COMPILER}', import.meta.url))))
  return __queryCompiler
}
void __queryCompilerModule().catch(() => undefined)
`;

/**
 * The generated client gets Prisma's query compiler from a 4.5 MB JavaScript module holding it as
 * base64, decoded and compiled on the main thread (≈ 70 ms of CPU per process). In the bundle it is
 * read from dist/cli/ as the binary (written by buildCli) and compiled off the main thread. A
 * generated client whose loader reads otherwise is bundled unchanged.
 */
const binaryQueryCompiler = {
  name: 'binary-query-compiler',
  setup(b) {
    b.onLoad(
      { filter: /server[\\/]db[\\/]generated[\\/]internal[\\/]class\.ts$/ },
      async (args) => {
        const text = await readFile(args.path, 'utf8');
        if (!text.includes(BASE64_LOADER) || text.includes('import.meta.url')) return undefined;
        return {
          contents: text.replace(BASE64_LOADER, BINARY_LOADER) + EARLY_COMPILE,
          loader: 'ts',
        };
      },
    );
  },
};

/** Every other package stays external (see the header). */
const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./#]/ }, (args) => {
      const parts = args.path.split('/');
      const name = args.path.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
      if (INLINED.has(name) || INLINED_MODULES.has(args.path)) return undefined;
      return { path: args.path, external: true };
    });
  },
};

export async function buildCli() {
  const started = performance.now();
  // Sources saved while esbuild reads them are newer than this, so the bundle counts as stale.
  const builtAt = Date.now();
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const entryPoints = { main: 'server/cli/main.ts' };
  for (const source of WORKER_MODULES) entryPoints[bundledName(source)] = source;
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints,
    outdir: OUT,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunk-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    metafile: true,
    logLevel: 'warning',
    // Tells worker-pool.ts that the worker modules above exist as bundles beside it.
    define: { __HARNESS_BUNDLE__: 'true' },
    // CommonJS bundled in requires Node's built-ins: give it a require.
    banner: {
      js: "import { createRequire as __harnessRequire } from 'node:module'; const require = __harnessRequire(import.meta.url);",
    },
    plugins: [englishOnlyZodLocales, binaryQueryCompiler, externalPackages, sourceUrl],
  });
  const { wasm } = await import(QUERY_COMPILER_BASE64);
  writeFileSync(path.join(OUT, QUERY_COMPILER), Buffer.from(wasm, 'base64'));
  // This script and package.json (its `imports` map) shape the bundle too.
  const inputs = [
    'scripts/build-cli.mjs',
    'package.json',
    ...Object.keys(result.metafile.inputs).filter((p) => !p.includes('node_modules/')),
  ];
  writeFileSync(path.join(OUT, 'inputs.json'), `${JSON.stringify({ builtAt, inputs })}\n`);
  return { ms: performance.now() - started, inputs: inputs.length };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const { ms, inputs } = await buildCli();
  console.log(`harness: CLI bundle built in dist/cli (${inputs} sources, ${ms.toFixed(0)} ms)`);
}
