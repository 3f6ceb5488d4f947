// The webarena bridge's runtime: the two site servers (one pair per process, started lazily) and the
// browser it shares with webshop (bridges/webshop/runtime.ts: one Chromium per process or worker
// thread, one context per episode, always closed). Settings come from the caller, never from env.
import { type BridgeAvailability, EnvInfraError } from '../core/types.ts';
import {
  acquireLease,
  closeBrowserPage,
  type Fresh,
  message,
  openBrowserPage,
  releaseLease,
  webshopAvailability,
  webshopOptions,
} from '../webshop/runtime.ts';
import type { FuzzyJudge } from './evaluators.ts';
import {
  DISPLAY_ORIGIN,
  SESSION_COOKIE,
  SITES,
  type Site,
  type SiteServers,
  startSiteServers,
} from './server.ts';
import type { SiteStore } from './store.ts';

export interface WebarenaSettings {
  /** WebArena's max_obs_length, counted in word pieces; 0 = no limit. */
  maxObsTokens: number;
  /** WebArena's current_viewport_only. */
  viewportOnly: boolean;
  viewport: { width: number; height: number };
  /** The LLM judge for fuzzy_match; without one such answers are "not scorable". */
  fuzzyJudge?: FuzzyJudge;
}

const settings: WebarenaSettings = {
  maxObsTokens: 1920,
  viewportOnly: true,
  viewport: { width: 1280, height: 720 },
};

export function configureWebarena(o: Partial<WebarenaSettings>): void {
  Object.assign(settings, o);
}

export function webarenaSettings(): Readonly<WebarenaSettings> {
  return settings;
}

/** The browser is webshop's; so is the availability check and its fix. */
export function webarenaAvailability(): BridgeAvailability {
  return webshopAvailability();
}

let servers: Promise<SiteServers> | undefined;

function getServers(): Promise<SiteServers> {
  if (!servers) {
    const starting = startSiteServers();
    servers = starting;
    starting.catch(() => {
      if (servers === starting) servers = undefined;
    });
  }
  return servers;
}

export interface WebarenaEpisode extends Fresh {
  origins: Record<Site, string>;
  sessionId: string;
  store: SiteStore;
}

export { acquireLease, releaseLease };

/** A fresh browser context with a new site session (a new store built from the seed). */
export async function openWebarenaEpisode(): Promise<WebarenaEpisode> {
  let s: SiteServers;
  try {
    s = await getServers();
  } catch (error) {
    throw new EnvInfraError(`webarena: the sites did not start: ${message(error)}`, {
      cause: error,
    });
  }
  const fresh = await openBrowserPage('webarena');
  const { id, store } = s.openSession();
  try {
    await fresh.context.addCookies([{ name: SESSION_COOKIE, value: id, url: s.origins.forum }]);
    await fresh.page.setViewportSize(settings.viewport);
    return { ...fresh, origins: s.origins, sessionId: id, store };
  } catch (error) {
    s.closeSession(id);
    await closeBrowserPage(fresh);
    throw new EnvInfraError(`webarena: could not prepare the browser page: ${message(error)}`, {
      cause: error,
    });
  }
}

export async function closeWebarenaEpisode(e: WebarenaEpisode): Promise<void> {
  await closeBrowserPage(e);
  const s = await servers?.catch(() => undefined);
  s?.closeSession(e.sessionId);
}

export function browserTimeoutMs(): number {
  return webshopOptions().timeoutMs;
}

/** Closes the site servers (tests, shutdown). The browser is webshop's (shutdownWebshopRuntime). */
export async function shutdownWebarenaSites(): Promise<void> {
  const s = servers;
  servers = undefined;
  await s?.then((x) => x.close()).catch(() => undefined);
}

/** The real URL for a URL an agent typed (display origin), or undefined when it is not a site's. */
export function toRealUrl(url: string, origins: Record<Site, string>): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  for (const site of SITES) {
    const shown = new URL(DISPLAY_ORIGIN[site]);
    if (u.protocol === shown.protocol && u.host === shown.host)
      return `${origins[site]}${u.pathname}${u.search}${u.hash}`;
  }
  return undefined;
}

/** The URL an agent sees for a real one (loopback port replaced by the site's display origin). */
export function toDisplayUrl(
  url: string,
  origins: Record<Site, string>,
): { url: string; site: Site | 'none' } {
  for (const site of SITES)
    if (url === origins[site] || url.startsWith(`${origins[site]}/`))
      return { url: `${DISPLAY_ORIGIN[site]}${url.slice(origins[site].length)}`, site };
  return { url, site: 'none' };
}
