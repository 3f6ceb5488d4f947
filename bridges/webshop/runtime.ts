// The heavy runtime shared by every webshop episode of a process: one Chromium (launched lazily
// through playwright-core), a bounded pool of browser contexts (one per episode, always closed), and
// the shop server. Both close when the last environment has been closed for `idleMs` (a grace
// period, so back-to-back episodes do not relaunch the browser), on shutdownWebshopRuntime(), or
// with the process.
import { existsSync } from 'node:fs';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { type BridgeAvailability, EnvInfraError } from '../core/types.ts';
import { SESSION_COOKIE, type ShopServer, startShopServer } from './server.ts';
import type { Goal } from './tasks.ts';

export interface WebshopRuntimeOptions {
  /** Debian's Chromium by default (STACK.md). */
  executablePath: string;
  /** Close browser and server this long after the last environment closed. */
  idleMs: number;
  /** Episodes with a live browser context at once; more wait for a free slot. */
  maxContexts: number;
  /** Per browser operation (navigation, click, read). */
  timeoutMs: number;
}

const options: WebshopRuntimeOptions = {
  executablePath: '/usr/bin/chromium',
  idleMs: 2000,
  maxContexts: 8,
  timeoutMs: 20_000,
};

/** Settings for the runtime (from server/config.ts or tests); bridges read no environment. */
export function configureWebshop(o: Partial<WebshopRuntimeOptions>): void {
  Object.assign(options, o);
}

export function webshopOptions(): Readonly<WebshopRuntimeOptions> {
  return options;
}

/** The one command that installs the browser this bridge drives (Debian / Ubuntu). */
export const CHROMIUM_FIX = 'apt-get install -y chromium';

/** The bridge runs only where its Chromium is installed. */
export function webshopAvailability(): BridgeAvailability {
  const path = options.executablePath;
  if (existsSync(path)) return { available: true };
  return {
    available: false,
    reason: `Chromium is not installed (no browser at ${path})`,
    fix: CHROMIUM_FIX,
  };
}

/** A marker on the browser's command line, so tests can find (and count) this process's browser. */
export const BROWSER_MARKER = `--envharness-webshop=${process.pid}`;

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  BROWSER_MARKER,
];

export interface Episode {
  context: BrowserContext;
  page: Page;
  baseUrl: string;
  sessionId: string;
}

let browser: Promise<Browser> | undefined;
let server: Promise<ShopServer> | undefined;
let leases = 0;
let idleTimer: NodeJS.Timeout | undefined;
let activeContexts = 0;
const waiting: (() => void)[] = [];
let launches = 0;
/**
 * One fresh context + page made ahead of time: opening a page starts a renderer process, the bulk of
 * a reset's cost. Each spare serves exactly one episode and is closed with it, like any other.
 */
let spare: { from: Promise<Browser>; made: Promise<Fresh> } | undefined;

export type Fresh = { context: BrowserContext; page: Page };

async function freshPage(from: Promise<Browser>): Promise<Fresh> {
  const b = await from;
  const context = await b.newContext({ serviceWorkers: 'block' });
  try {
    context.setDefaultTimeout(options.timeoutMs);
    return { context, page: await context.newPage() };
  } catch (error) {
    await context.close().catch(() => undefined);
    throw error;
  }
}

function discard(made: Promise<Fresh>): void {
  void made.then((x) => x.context.close()).catch(() => undefined);
}

/**
 * A page within the time limit. Calls into a browser that is being killed may never settle: a late
 * page is closed when it arrives instead of being waited for.
 */
function bounded(made: Promise<Fresh>): Promise<Fresh> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      discard(made);
      reject(new Error(`no browser page within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
  });
  return Promise.race([made, timeout]).finally(() => clearTimeout(timer));
}

function prepareSpare(): void {
  if (spare || leases === 0) return;
  const from = getBrowser();
  const made = freshPage(from);
  made.catch(() => undefined);
  spare = { from, made };
}

async function takePage(): Promise<Fresh> {
  const ready = spare;
  spare = undefined;
  // A spare of a browser that has since died or been replaced is dropped unawaited.
  if (ready && ready.from === browser) {
    const got = await bounded(ready.made).catch(() => undefined);
    if (got?.context.browser()?.isConnected() && !got.page.isClosed()) return got;
    if (got) void got.context.close().catch(() => undefined);
  } else if (ready) {
    discard(ready.made);
  }
  return bounded(freshPage(getBrowser()));
}

function getBrowser(): Promise<Browser> {
  const availability = webshopAvailability();
  if (!availability.available) {
    // Said at once, not as Playwright's "executable doesn't exist" deep inside a check.
    return Promise.reject(
      new EnvInfraError(`webshop: ${availability.reason}; install it with: ${availability.fix}`),
    );
  }
  if (!browser) {
    launches += 1;
    const launching = chromium
      .launch({ executablePath: options.executablePath, headless: true, args: CHROMIUM_ARGS })
      .then((b) => {
        // A crashed or killed browser is forgotten: the next episode launches a new one.
        b.on('disconnected', () => {
          if (browser === launching) browser = undefined;
        });
        return b;
      });
    browser = launching;
    launching.catch(() => {
      if (browser === launching) browser = undefined;
    });
  }
  return browser;
}

function getServer(): Promise<ShopServer> {
  if (!server) {
    const starting = startShopServer();
    server = starting;
    starting.catch(() => {
      if (server === starting) server = undefined;
    });
  }
  return server;
}

/** An environment holds a lease from its first reset until close(). */
export function acquireLease(): void {
  leases += 1;
  clearTimeout(idleTimer);
  idleTimer = undefined;
}

export function releaseLease(): void {
  leases = Math.max(0, leases - 1);
  if (leases > 0) return;
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    idleTimer = undefined;
    if (leases === 0) void shutdownWebshopRuntime();
  }, options.idleMs);
  idleTimer.unref();
}

async function takeSlot(): Promise<void> {
  if (activeContexts < options.maxContexts) {
    activeContexts += 1;
    return;
  }
  await new Promise<void>((resolve) => waiting.push(resolve));
}

function freeSlot(): void {
  const next = waiting.shift();
  if (next) next();
  else activeContexts = Math.max(0, activeContexts - 1);
}

const live = new Set<Episode>();

/** Pages of the episodes open now (diagnostics and crash tests; never handed to agents). */
export function livePages(): Page[] {
  return [...live].map((e) => e.page);
}

/**
 * A fresh context + page of the shared browser for another bridge's episode (webarena), holding one
 * context slot until closeBrowserPage. The caller holds a lease (acquireLease) from its first reset
 * to its close, as webshop's environments do. Failures are infra errors.
 */
export async function openBrowserPage(what: string): Promise<Fresh> {
  await takeSlot();
  try {
    const fresh = await takePage();
    prepareSpare();
    return fresh;
  } catch (error) {
    freeSlot();
    throw new EnvInfraError(`${what}: could not open a browser page: ${message(error)}`, {
      cause: error,
    });
  }
}

/** Closes a context from openBrowserPage and frees its slot (bounded, never throws). */
export async function closeBrowserPage(fresh: { context: BrowserContext }): Promise<void> {
  try {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      fresh.context.close(),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, options.timeoutMs);
      }),
    ]).finally(() => clearTimeout(timer));
  } catch {
    // A context of a crashed browser is already gone.
  } finally {
    freeSlot();
  }
}

/** A fresh context + page for one episode, with the session cookie set. Failures are infra errors. */
export async function openEpisode(goal: Goal): Promise<Episode> {
  await takeSlot();
  let context: BrowserContext | undefined;
  let sessionId: string | undefined;
  let shop: ShopServer | undefined;
  try {
    shop = await getServer();
    const fresh = await takePage();
    context = fresh.context;
    prepareSpare();
    sessionId = shop.openSession(goal);
    await context.addCookies([{ name: SESSION_COOKIE, value: sessionId, url: shop.url }]);
    const episode = { context, page: fresh.page, baseUrl: shop.url, sessionId };
    live.add(episode);
    return episode;
  } catch (error) {
    if (sessionId) shop?.closeSession(sessionId);
    await context?.close().catch(() => undefined);
    freeSlot();
    throw new EnvInfraError(`webshop: could not open a browser page: ${message(error)}`, {
      cause: error,
    });
  }
}

/** Closes the episode's context (idempotent per episode object; never throws). */
export async function closeEpisode(episode: Episode): Promise<void> {
  live.delete(episode);
  try {
    // Bounded: a close sent to a browser that is being killed may never be answered.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      episode.context.close(),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, options.timeoutMs);
      }),
    ]).finally(() => clearTimeout(timer));
  } catch {
    // A context of a crashed browser is already gone.
  } finally {
    const shop = await server?.catch(() => undefined);
    shop?.closeSession(episode.sessionId);
    freeSlot();
  }
}

/** Closes the browser and the server now (tests, shutdown hooks). Later episodes start them again. */
export async function shutdownWebshopRuntime(): Promise<void> {
  clearTimeout(idleTimer);
  idleTimer = undefined;
  const b = browser;
  const s = server;
  const sp = spare;
  browser = undefined;
  server = undefined;
  spare = undefined;
  if (sp) discard(sp.made);
  await Promise.all([
    b?.then((x) => x.close()).catch(() => undefined),
    s?.then((x) => x.close()).catch(() => undefined),
  ]);
}

export function runtimeStats(): {
  leases: number;
  activeContexts: number;
  browserRunning: boolean;
  serverRunning: boolean;
  spareReady: boolean;
  launches: number;
} {
  return {
    spareReady: spare !== undefined,
    leases,
    activeContexts,
    browserRunning: browser !== undefined,
    serverRunning: server !== undefined,
    launches,
  };
}

export function message(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0]! : String(error);
}
