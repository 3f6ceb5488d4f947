// Fresh in-memory PGlite instances, fast. A new PGlite runs initdb (seconds on a busy machine); a
// copy of an already initialised cluster loads in about a second — PostgreSQL's template-database
// idea. Templates are cached in memory and, keyed by PGlite version (and migrations), in the OS temp
// folder so every test process and tool reuses them. Used for test databases and shadow databases.
// A new data folder is a file copy of a template folder (made once from the archive): PGlite's own
// loading of an archive writes the cluster through its emulated file system, ≈ 0.5 s of CPU.
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';

const require = createRequire(import.meta.url);
const PGLITE_VERSION = (
  JSON.parse(
    readFileSync(
      path.join(path.dirname(require.resolve('@electric-sql/pglite')), '../package.json'),
      'utf8',
    ),
  ) as { version: string }
).version;

const memory = new Map<string, Promise<Blob | undefined>>();

/**
 * How every PGlite here starts: PostgreSQL's 128 MB of shared buffers live in the wasm heap, which
 * never shrinks, and cost a CLI process ≈ 100 MB of RSS for databases this small; 32 MB keep the
 * hot pages and the rest is read through the OS's file cache.
 */
export const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'];

/** PGlite's postgres (wasm) and file bundle, as read and compiled ahead of a start (prewarmPGlite). */
let assets: Promise<Pick<PGliteOptions, 'pgliteWasmModule' | 'fsBundle'>> | undefined;

/**
 * Starts reading PGlite's postgres and file bundle and compiling the wasm (off the main thread), so
 * that a PGlite started later with `startOptions()` finds them ready; a process that will open an
 * embedded database calls it before loading the rest of the database modules.
 */
export function prewarmPGlite(): void {
  assets ??= (async () => {
    const dist = path.dirname(require.resolve('@electric-sql/pglite'));
    const [wasm, data] = await Promise.all([
      readFile(path.join(dist, 'pglite.wasm')),
      readFile(path.join(dist, 'pglite.data')),
    ]);
    const bundle =
      data.byteOffset === 0 && data.byteLength === data.buffer.byteLength
        ? data.buffer
        : data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
    // PGlite only asks the bundle for its bytes: handed over as read, not copied into a Blob and
    // out again (12 MB more of peak RSS).
    const fsBundle = { arrayBuffer: () => Promise.resolve(bundle) } as unknown as Blob;
    return { pgliteWasmModule: await WebAssembly.compile(wasm), fsBundle };
  })();
  // A failure leaves PGlite to read its files itself.
  assets.catch(() => undefined);
}

/**
 * The options every PGlite here starts with, plus the prewarmed files when there are any. They go
 * to one start only: postgres' file system keeps views into the bundle it is given, so every later
 * instance reads its own, as PGlite does without them.
 */
export async function startOptions(): Promise<PGliteOptions> {
  const prewarmed = assets;
  assets = undefined;
  const ready = await prewarmed?.catch(() => undefined);
  return { startParams: PGLITE_START_PARAMS, ...ready };
}

function cachePath(key: string): string {
  const digest = createHash('sha256')
    .update(`${PGLITE_VERSION}\n${key}`)
    .digest('hex')
    .slice(0, 16);
  return path.join(os.tmpdir(), `envharness-pglite-${digest}`);
}

const cacheFile = (key: string): string => `${cachePath(key)}.tar.gz`;
/** The template as a closed data folder, for new data folders (copied with the OS's file calls). */
const cacheDir = (key: string): string => `${cachePath(key)}.d`;

/** The template's folder: unpacked from its archive by a PGlite that then shuts down cleanly. */
async function writeTemplateDir(key: string, dump: Blob): Promise<void> {
  const dir = cacheDir(key);
  const tmp = `${dir}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    const db = new PGlite(tmp, { loadDataDir: dump, startParams: PGLITE_START_PARAMS });
    await db.waitReady;
    await db.close();
    // Renamed when complete, so a concurrent reader never copies half a cluster.
    renameSync(tmp, dir);
  } catch {
    // Another process renamed its copy first, or the temp folder is unwritable: the cache is an
    // optimisation only.
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** A new data folder `dataDir` copied from the template's folder; undefined when there is none. */
async function fromTemplateDir(key: string, dataDir: string): Promise<PGlite | undefined> {
  const dir = cacheDir(key);
  if (!existsSync(dir)) return undefined;
  try {
    cpSync(dir, dataDir, { recursive: true });
    const db = new PGlite(dataDir, await startOptions());
    await db.waitReady;
    return db;
  } catch {
    rmSync(dataDir, { recursive: true, force: true });
    return undefined;
  }
}

function readTemplate(key: string): Blob | undefined {
  const file = cacheFile(key);
  if (!existsSync(file)) return undefined;
  try {
    return new Blob([readFileSync(file)]);
  } catch {
    return undefined;
  }
}

async function writeTemplate(key: string, db: PGlite): Promise<Blob> {
  const dump = await db.dumpDataDir('gzip');
  const file = cacheFile(key);
  // Write then rename, so a concurrent reader never sees half a file.
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
    renameSync(tmp, file);
  } catch {
    // The cache is an optimisation only; an unwritable temp folder costs time, not correctness.
  }
  return dump;
}

export interface Template {
  key: string;
  prepare: (db: PGlite) => Promise<void>;
}

/**
 * A new PGlite, in memory or in a new folder `dataDir`. With a `template`, it starts as a copy of the
 * cluster that `prepare` produced the first time that key was seen (e.g. migrations applied);
 * `prepare` runs only then, on the instance that is returned (`fromTemplate: false`).
 */
export async function freshPGlite(
  template?: Template,
  dataDir?: string,
): Promise<{ db: PGlite; fromTemplate: boolean }> {
  const key = template ? `migrated:${template.key}` : 'empty';
  if (dataDir) {
    const copied = await fromTemplateDir(key, dataDir);
    if (copied) return { db: copied, fromTemplate: true };
  }
  let cached = memory.get(key);
  if (!cached) {
    cached = Promise.resolve(readTemplate(key));
    memory.set(key, cached);
  }
  const blob = await cached.catch(() => undefined);
  if (blob) {
    if (dataDir) {
      // The first new folder from this archive on this machine: unpack the folder template once.
      await writeTemplateDir(key, blob);
      const copied = await fromTemplateDir(key, dataDir);
      if (copied) return { db: copied, fromTemplate: true };
    }
    try {
      const db = new PGlite({ dataDir, loadDataDir: blob, startParams: PGLITE_START_PARAMS });
      await db.waitReady;
      return { db, fromTemplate: true };
    } catch {
      memory.delete(key);
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    }
  }
  let base: PGlite;
  if (dataDir) base = new PGlite(dataDir, { startParams: PGLITE_START_PARAMS });
  else if (template) base = (await freshPGlite()).db;
  else base = new PGlite({ startParams: PGLITE_START_PARAMS });
  await base.waitReady;
  try {
    if (template) await template.prepare(base);
    const dump = writeTemplate(key, base);
    memory.set(key, dump);
    // The next new data folder is then a plain copy.
    if (dataDir) await writeTemplateDir(key, await dump);
    else await dump;
  } catch (e) {
    await base.close();
    throw e;
  }
  return { db: base, fromTemplate: false };
}
