// Prisma's schema engine (migrations, diff) through its wasm build and a driver adapter, because the
// native engine binary cannot be downloaded on these machines (STACK.md, "Prisma 7").
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { PrismaPg } from '@prisma/adapter-pg';
import {
  bindMigrationAwareSqlAdapterFactory,
  DriverAdapterError,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import type { SchemaEngine } from '@prisma/schema-engine-wasm';
import * as wasmBindings from '@prisma/schema-engine-wasm/schema_engine_bg';
import type pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { freshPGlite } from './pglite.ts';

let loaded: typeof wasmBindings | undefined;

/** wasm-bindgen's "bundler" output imports the .wasm as an ES module, which Node cannot; instantiate it by hand, once per process. */
function loadWasm(): typeof wasmBindings {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  const dir = path.dirname(require.resolve('@prisma/schema-engine-wasm'));
  const module = new WebAssembly.Module(readFileSync(path.join(dir, 'schema_engine_bg.wasm')));
  const imports: WebAssembly.ModuleImports = { ...wasmBindings };
  // The engine arms a 60 s timer that would keep short-lived processes (CLI, tests) alive; unref it.
  for (const name of Object.keys(imports)) {
    if (name.startsWith('__wbg_setTimeout_')) {
      imports[name] = (fn: () => void, ms: number) => setTimeout(fn, ms >>> 0).unref();
    }
  }
  const instance = new WebAssembly.Instance(module, { './schema_engine_bg.js': imports });
  wasmBindings.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as () => void)();
  loaded = wasmBindings;
  return loaded;
}

/** Factories whose resources outlive the adapters they hand out. */
interface ReleasableFactory extends SqlMigrationAwareDriverAdapterFactory {
  release(): Promise<void>;
}

/** PostgreSQL errors (pg and PGlite share the wire fields) as the engine expects them. */
function toAdapterError(e: unknown): unknown {
  if (typeof e !== 'object' || e === null || !('severity' in e)) return e;
  const f = e as {
    code?: string;
    severity?: string;
    message?: string;
    detail?: string;
    column?: string;
    hint?: string;
  };
  return new DriverAdapterError({
    kind: 'postgres',
    code: f.code ?? '',
    severity: f.severity ?? 'ERROR',
    message: f.message ?? String(e),
    detail: f.detail,
    column: f.column,
    hint: f.hint,
  });
}

/**
 * Both adapters mishandle migration scripts: adapter-pg splits them on every ';' (breaking function
 * bodies and comments), and pglite-prisma-adapter does not await `exec`, so a failing migration is
 * reported as applied. Run the whole script in one simple-protocol call and await it.
 */
function runScriptsWith(adapter: SqlDriverAdapter, run: (script: string) => Promise<unknown>) {
  adapter.executeScript = async (script: string) => {
    try {
      await run(script);
    } catch (e) {
      throw toAdapterError(e);
    }
  };
  return adapter;
}

/**
 * pglite-prisma-adapter opens its shadow database as an in-memory PGlite and never closes it; this
 * factory closes the shadow instances with their adapters (and in `release()` at the latest).
 */
export class PGliteMigrationFactory implements ReleasableFactory {
  readonly provider = 'postgres' as const;
  readonly adapterName: string;
  private readonly inner: PrismaPGlite;
  private readonly shadows: PGlite[] = [];

  /**
   * `shadowIsMain`: for a database that only serves the engine (diffs), replay migrations into it
   * rather than into a second instance; the engine empties a shadow database before using it.
   */
  constructor(
    private readonly client: PGlite,
    private readonly o: { shadowIsMain?: boolean } = {},
  ) {
    this.inner = new PrismaPGlite(client);
    this.adapterName = this.inner.adapterName;
  }

  async connect(): Promise<SqlDriverAdapter> {
    return runScriptsWith(await this.inner.connect(), (s) => this.client.exec(s));
  }

  async connectToShadowDb(): Promise<SqlDriverAdapter> {
    if (this.o.shadowIsMain) return this.connect();
    const { db: shadow } = await freshPGlite();
    this.shadows.push(shadow);
    const adapter = runScriptsWith(await new PrismaPGlite(shadow).connect(), (s) => shadow.exec(s));
    const dispose = adapter.dispose.bind(adapter);
    adapter.dispose = async () => {
      await dispose();
      if (!shadow.closed) await shadow.close();
    };
    return adapter;
  }

  async release(): Promise<void> {
    await Promise.all(this.shadows.splice(0).map((s) => (s.closed ? undefined : s.close())));
  }
}

/**
 * Applies migrations on a PostgreSQL server over one connection of its own. No shadow database:
 * adapter-pg's shadow support drops the database before closing its pool and cannot read the
 * `"char"` columns the engine's introspection uses, so migrations are authored on PGlite only.
 */
export class PgMigrationFactory implements ReleasableFactory {
  readonly provider = 'postgres' as const;
  readonly adapterName: string;
  private readonly pool: pg.Pool;
  private readonly inner: PrismaPg;

  constructor(url: string) {
    // Required here, not imported at the top: a process on the embedded database never loads pg.
    const require = createRequire(import.meta.url);
    const { Pool } = require('pg') as typeof pg;
    const { PrismaPg: Adapter } = require('@prisma/adapter-pg') as {
      PrismaPg: typeof PrismaPg;
    };
    // One connection, so the engine's advisory lock and its statements share a session.
    this.pool = new Pool({ connectionString: url, max: 1 });
    this.inner = new Adapter(this.pool);
    this.adapterName = this.inner.adapterName;
  }

  async connect(): Promise<SqlDriverAdapter> {
    return runScriptsWith(await this.inner.connect(), (s) => this.pool.query(s));
  }

  connectToShadowDb(): Promise<SqlDriverAdapter> {
    return Promise.reject(
      new Error(
        'new migrations are authored on PGlite (npm run db:new-migration), not on a server',
      ),
    );
  }

  release(): Promise<void> {
    return this.pool.end();
  }
}

/**
 * Records every adapter the engine opens so they can be disposed when the engine is freed: the wasm
 * engine does not dispose them itself, and an open pg pool would keep the process alive.
 */
class TrackingFactory implements SqlMigrationAwareDriverAdapterFactory {
  readonly provider: SqlMigrationAwareDriverAdapterFactory['provider'];
  readonly adapterName: string;
  private readonly open = new Set<SqlDriverAdapter>();

  constructor(private readonly inner: SqlMigrationAwareDriverAdapterFactory) {
    this.provider = inner.provider;
    this.adapterName = inner.adapterName;
  }

  connect(): Promise<SqlDriverAdapter> {
    return this.inner.connect().then((a) => this.track(a));
  }

  connectToShadowDb(): Promise<SqlDriverAdapter> {
    return this.inner.connectToShadowDb().then((a) => this.track(a));
  }

  private track(adapter: SqlDriverAdapter): SqlDriverAdapter {
    this.open.add(adapter);
    const dispose = adapter.dispose.bind(adapter);
    adapter.dispose = async () => {
      if (!this.open.delete(adapter)) return;
      await dispose();
    };
    return adapter;
  }

  async disposeAll(): Promise<void> {
    await Promise.allSettled([...this.open].map((a) => a.dispose()));
  }
}

export interface EngineHandle {
  engine: SchemaEngine;
  /** Frees the wasm engine and every adapter (and shadow database) it opened. */
  close(): Promise<void>;
}

export interface OpenEngineOptions {
  factory: SqlMigrationAwareDriverAdapterFactory;
  schemaPath: string;
  schemaText: string;
  log?: (line: string) => void;
}

export async function openSchemaEngine(o: OpenEngineOptions): Promise<EngineHandle> {
  const { SchemaEngine } = loadWasm();
  const tracking = new TrackingFactory(o.factory);
  const engine = await SchemaEngine.new(
    { datamodels: [[o.schemaPath, o.schemaText]] },
    (line: string) => o.log?.(line),
    bindMigrationAwareSqlAdapterFactory(tracking),
  ).catch(async (e: unknown) => {
    await tracking.disposeAll();
    if ('release' in o.factory) await (o.factory as ReleasableFactory).release();
    throw e;
  });
  return {
    engine,
    async close() {
      engine.free();
      await tracking.disposeAll();
      if ('release' in o.factory) await (o.factory as ReleasableFactory).release();
    },
  };
}
