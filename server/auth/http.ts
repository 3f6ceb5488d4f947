// Team mode's plain HTTP routes (no JavaScript needed): the sign-in form, sign-out, accepting an
// invite, and opening a share link (which sets a read-only cookie and redirects to the page).
// Pages other than these need a session or a share cookie; the API checks every call itself.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { stringProblem } from '../api/input-guards.ts';
import type { Db } from '../db/index.ts';
import { DomainError, InvalidInputError } from '../errors.ts';
import { PROJECT_COOKIE, parseCookies, SESSION_COOKIE, SHARE_COOKIE } from './context.ts';
import type { Accounts } from './service.ts';
import { SignInThrottledError } from './throttle.ts';
import type { ShareScope } from './tokens.ts';

const FORM_LIMIT = 16 * 1024;
const FORM_TOO_LARGE = `The form is larger than ${FORM_LIMIT / 1024} KB.`;

/** A form body past FORM_LIMIT: answered 413, never read to the end. */
class FormTooLargeError extends InvalidInputError {
  override name = 'FormTooLargeError';
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(res: ServerResponse, status: number, title: string, body: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} · EnvHarness Studio</title>
<style>body{font-family:system-ui,sans-serif;max-width:24rem;margin:4rem auto;padding:0 1rem}label{display:block;margin:.75rem 0 .25rem}input{width:100%;padding:.4rem}button{margin-top:1rem;padding:.4rem 1rem}.error{color:#b00020}</style>
</head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`);
}

function redirect(res: ServerResponse, location: string, cookies: string[] = []): void {
  res.statusCode = 303;
  if (cookies.length) res.setHeader('Set-Cookie', cookies);
  res.setHeader('Location', location);
  res.end();
}

function cookie(name: string, value: string, maxAgeSeconds: number): string {
  return `${name}=${encodeURIComponent(value)}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`;
}

/** The form's fields; every value must be clean text (no NUL, control characters, lone surrogates). */
async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (Number.isFinite(declared) && declared > FORM_LIMIT)
    throw new FormTooLargeError(FORM_TOO_LARGE);
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > FORM_LIMIT) throw new FormTooLargeError(FORM_TOO_LARGE);
    chunks.push(chunk);
  }
  const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
  for (const [name, value] of form) {
    const problem = stringProblem(value) ?? stringProblem(name);
    if (problem) throw new InvalidInputError(`the ${name} field ${problem}`);
  }
  return form;
}

const ORIGIN_BASE = 'http://studio.invalid';

/**
 * Only a same-origin path: `/runs?x=1` passes; `//evil`, `/\evil` (browsers read `\` as `/`),
 * `https://evil`, control characters and anything that resolves to another origin become `/`.
 */
export function safeNext(value: string | null): string {
  if (!value?.startsWith('/') || value.includes('\\') || stringProblem(value)) return '/';
  if (/[\s]/.test(value)) return '/';
  try {
    const url = new URL(value, ORIGIN_BASE);
    if (
      url.origin !== ORIGIN_BASE ||
      !url.pathname.startsWith('/') ||
      url.pathname.startsWith('//')
    )
      return '/';
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return '/';
  }
}

/**
 * Why a form post from a browser is refused as cross-site (the API's rule, server/hardening/web.ts):
 * Sec-Fetch-Site says cross-site, or an Origin that is opaque or not this host.
 */
function crossSite(req: IncomingMessage): boolean {
  if (req.headers['sec-fetch-site'] === 'cross-site') return true;
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  try {
    return origin === 'null' || new URL(origin).host !== req.headers.host;
  } catch {
    return true;
  }
}

/** The client's address as the socket sees it (no proxy header is trusted). */
function clientAddress(req: IncomingMessage): string {
  return req.socket.remoteAddress ?? 'unknown';
}

function signInForm(next: string, error?: string): string {
  return `${error ? `<p class="error" data-testid="signin-error">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/signin">
<input type="hidden" name="next" value="${escapeHtml(next)}">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required data-testid="signin-email">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required data-testid="signin-password">
<button type="submit" data-testid="signin-submit">Sign in</button></form>`;
}

/** Where a share link lands: the studio page of the shared thing. */
export async function sharePath(db: Db, share: Pick<ShareScope, 'kind' | 'ids'>): Promise<string> {
  switch (share.kind) {
    case 'run':
      return `/runs/${share.ids[0]}`;
    case 'comparison':
      return `/compare?runs=${share.ids.join('..')}`;
    case 'trajectory': {
      const ep = await db.episode.findUnique({
        where: { id: share.ids[0] },
        select: { runId: true },
      });
      return ep ? `/runs/${ep.runId}/episodes/${share.ids[0]}` : '/';
    }
    case 'harnessVersion':
      // A read-only page of the version (the harness page itself needs a member).
      return `/harnesses/versions/${share.ids[0]}`;
    case 'rig':
      return `/rigs/${share.ids[0]}`;
  }
}

async function signInRoute(
  accounts: Accounts,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
) {
  if (req.method !== 'POST') {
    page(res, 200, 'Sign in', signInForm(safeNext(url.searchParams.get('next'))));
    return true;
  }
  if (crossSite(req)) {
    page(res, 403, 'Sign in', '<p>Cross-site sign-in refused.</p>');
    return true;
  }
  const form = await readForm(req);
  const next = safeNext(form.get('next'));
  try {
    const { token, maxAgeSeconds } = await accounts.signIn(
      form.get('email') ?? '',
      form.get('password') ?? '',
      { ip: clientAddress(req) },
    );
    redirect(res, next, [
      cookie(SESSION_COOKIE, token, maxAgeSeconds),
      cookie(SHARE_COOKIE, '', 0),
    ]);
  } catch (e) {
    const message = e instanceof DomainError ? e.message : 'sign-in failed';
    if (e instanceof SignInThrottledError)
      res.setHeader('Retry-After', String(e.retryAfterSeconds));
    const status = e instanceof SignInThrottledError ? 429 : 401;
    page(res, status, 'Sign in', signInForm(next, message));
  }
  return true;
}

/** Sign-out: refused cross-site (a forged form must not end a session); revokes the session row. */
async function signOutRoute(accounts: Accounts, req: IncomingMessage, res: ServerResponse) {
  if (crossSite(req)) {
    page(res, 403, 'Sign out', '<p>Cross-site sign-out refused.</p>');
    return true;
  }
  const token = parseCookies(req.headers.cookie)[SESSION_COOKIE];
  if (token) await accounts.signOut(token);
  redirect(res, '/signin', [cookie(SESSION_COOKIE, '', 0), cookie(PROJECT_COOKIE, '', 0)]);
  return true;
}

/**
 * Sign-out from a link (the user menu's). A link followed from this studio, or typed, signs out at
 * once; one followed from another site only shows the sign-out button, so a foreign page cannot end
 * a session by linking here.
 */
async function signOutLink(accounts: Accounts, req: IncomingMessage, res: ServerResponse) {
  const site = req.headers['sec-fetch-site'];
  if (site === 'same-origin' || site === 'none') return signOutRoute(accounts, req, res);
  page(
    res,
    200,
    'Sign out',
    '<form method="post" action="/signout"><button type="submit" data-testid="signout-confirm">Sign out</button></form>',
  );
  return true;
}

const JOIN_FORM = `<form method="post"><label for="name">Name</label><input id="name" name="name">
<label for="email">Email</label><input id="email" name="email" type="email" required>
<label for="password">Password (8+ characters)</label><input id="password" name="password" type="password" minlength="8" required>
<button type="submit">Join</button></form>`;

async function inviteRoute(
  accounts: Accounts,
  req: IncomingMessage,
  res: ServerResponse,
  token: string,
) {
  if (req.method !== 'POST') {
    page(res, 200, 'Join the studio', JOIN_FORM);
    return true;
  }
  if (crossSite(req)) {
    page(res, 403, 'Join', '<p>Cross-site request refused.</p>');
    return true;
  }
  const form = await readForm(req);
  try {
    const email = form.get('email') ?? '';
    const password = form.get('password') ?? '';
    await accounts.acceptInvite({ token, email, password, name: form.get('name') ?? '' });
    const session = await accounts.signIn(email, password, { ip: clientAddress(req) });
    redirect(res, '/', [cookie(SESSION_COOKIE, session.token, session.maxAgeSeconds)]);
  } catch (e) {
    const message = e instanceof DomainError ? e.message : 'could not join';
    page(res, 400, 'Join', `<p class="error">${escapeHtml(message)}</p>`);
  }
  return true;
}

async function shareRoute(accounts: Accounts, res: ServerResponse, token: string) {
  const scope = await accounts.shares.open(token);
  if (!scope) {
    page(res, 410, 'Link expired', '<p>This share link is invalid, revoked or expired.</p>');
    return true;
  }
  const maxAge = (scope.expiresAt.getTime() - Date.now()) / 1000;
  redirect(res, await sharePath(accounts.db, scope), [cookie(SHARE_COOKIE, token, maxAge)]);
  return true;
}

/** Pages need someone: a session, or a share cookie (the API limits what a share may read). */
async function gatePage(
  accounts: Accounts,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<boolean> {
  const path = url.pathname;
  const isPage =
    req.method === 'GET' &&
    !path.startsWith('/_next/') &&
    !path.startsWith('/api/') &&
    !/\.[a-z0-9]+$/i.test(path);
  if (!isPage) return false;
  const cookies = parseCookies(req.headers.cookie);
  const session = cookies[SESSION_COOKIE];
  if (session && (await accounts.sessionUserId(session)) !== undefined) return false;
  const share = cookies[SHARE_COOKIE];
  if (share && (await accounts.shares.open(share))) return false;
  redirect(res, `/signin?next=${encodeURIComponent(url.pathname + url.search)}`);
  return true;
}

/**
 * Handles the auth routes and gates pages in team mode. Returns true when it answered the
 * request; false lets the caller hand it to Next (or tRPC, which authorises each call).
 */
export async function handleAuthRoute(
  accounts: Accounts,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<boolean> {
  if (!accounts.teamMode) return false;
  const url = new URL(req.url ?? '/', 'http://studio');
  try {
    return await authRoute(accounts, req, res, url);
  } catch (e) {
    // A bad form is the caller's mistake: say so, and never read an oversize body to its end.
    if (!(e instanceof DomainError) || res.headersSent) throw e;
    if (e instanceof FormTooLargeError) res.setHeader('Connection', 'close');
    const status = e instanceof FormTooLargeError ? 413 : 400;
    page(res, status, 'Request refused', `<p class="error">${escapeHtml(e.message)}</p>`);
    return true;
  }
}

async function authRoute(
  accounts: Accounts,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<boolean> {
  const path = url.pathname;
  if (path === '/signin') return signInRoute(accounts, req, res, url);
  if (path === '/signout' && req.method === 'POST') return signOutRoute(accounts, req, res);
  if (path === '/signout' && req.method === 'GET') return signOutLink(accounts, req, res);
  const invite = /^\/invite\/([\w-]+)$/.exec(path);
  if (invite?.[1]) return inviteRoute(accounts, req, res, invite[1]);
  const share = /^\/share\/([\w-]+\.[\w-]+)$/.exec(path);
  if (share?.[1]) return shareRoute(accounts, res, share[1]);
  return gatePage(accounts, req, res, url);
}
