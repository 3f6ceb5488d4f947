// Which host names the studio answers to. Without team mode nobody signs in, so a web page that
// gets its name re-pointed at 127.0.0.1 (DNS rebinding) could otherwise drive the local studio with
// the browser's help: the request then carries the attacker's name in Host (and Origin), which is
// refused here, for the API and the pages alike.
import type { IncomingMessage } from 'node:http';
import { networkInterfaces } from 'node:os';

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];
const ANY_ADDRESS = new Set(['0.0.0.0', '::', '[::]']);

function bracketed(address: string): string {
  return address.includes(':') && !address.startsWith('[') ? `[${address}]` : address;
}

/**
 * The names a request may use: loopback, the bound address (every interface's when bound to all),
 * and ALLOWED_HOSTS (comma-separated).
 */
export function allowedHosts(o: { host: string; allowed?: string | undefined }): Set<string> {
  const names = new Set(LOOPBACK);
  const bound = o.host.trim().toLowerCase();
  if (ANY_ADDRESS.has(bound)) {
    for (const list of Object.values(networkInterfaces())) {
      for (const a of list ?? []) names.add(bracketed(a.address.toLowerCase()));
    }
  } else if (bound) {
    names.add(bracketed(bound));
  }
  for (const name of (o.allowed ?? '').split(',')) {
    const n = name.trim().toLowerCase();
    if (n) names.add(bracketed(n));
  }
  return names;
}

/** The host name of a Host header or an origin's host part (`[::1]:3000` -> `[::1]`). */
function hostName(hostAndPort: string): string | undefined {
  try {
    return new URL(`http://${hostAndPort}`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * Why a request is refused for the name it used (421 Host, 403 Origin), or undefined. The API
 * checks Origin itself (it must equal Host, server/hardening/web.ts): `origin: false` skips it here.
 */
export function hostRefusal(
  req: IncomingMessage,
  allowed: ReadonlySet<string>,
  o: { origin: boolean } = { origin: true },
): { status: number; message: string } | undefined {
  const list = [...allowed].join(', ');
  const host = req.headers.host;
  const name = host ? hostName(host) : undefined;
  if (!name || !allowed.has(name)) {
    return {
      status: 421,
      message: `this studio answers only to ${list}, not to ${JSON.stringify(host ?? '')}; to reach it under another name, add the name to ALLOWED_HOSTS`,
    };
  }
  const origin = req.headers.origin;
  if (o.origin && origin && origin !== 'null') {
    let originHost: string | undefined;
    try {
      originHost = hostName(new URL(origin).host);
    } catch {
      originHost = undefined;
    }
    if (!originHost || !allowed.has(originHost)) {
      return {
        status: 403,
        message: `pages from ${JSON.stringify(origin)} may not use this studio (allowed hosts: ${list}; see ALLOWED_HOSTS)`,
      };
    }
  }
  return undefined;
}
