// Signed, expiring tokens (HMAC-SHA256 over a JSON payload): session cookies and shareable
// read-only links. Each names a database row (Session, ShareLink) that is checked on every use, so
// sign-out and revocation take effect at once; the signature only spares the database from forged
// or garbled tokens (the secret, AUTH_SECRET, is the only thing that can mint them).
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

export const SessionPayloadSchema = z.object({
  typ: z.literal('session'),
  /** User id. */
  sub: z.string().min(1),
  /** The Session row. */
  sid: z.string().min(1),
  /** Expiry, seconds since the epoch. */
  exp: z.number().int(),
});

export const ShareKindSchema = z.enum(['run', 'trajectory', 'comparison', 'harnessVersion', 'rig']);
export type ShareKind = z.infer<typeof ShareKindSchema>;

/** A share link's token names its ShareLink row; the scope (kind, ids) is read from the row. */
export const SharePayloadSchema = z.object({
  typ: z.literal('share'),
  lid: z.string().min(1),
  exp: z.number().int(),
});

/** What an open share link lets its visitor read: one run, trajectory, comparison, version or rig. */
export interface ShareScope {
  linkId: string;
  kind: ShareKind;
  /** The shared thing: a run, an episode (trajectory), two runs (comparison), a harness version or a rig. */
  ids: string[];
  expiresAt: Date;
}

export type SessionPayload = z.infer<typeof SessionPayloadSchema>;
export type SharePayload = z.infer<typeof SharePayloadSchema>;

function mac(secret: string, body: string): Buffer {
  return createHmac('sha256', secret).update(body).digest();
}

export function signToken(payload: SessionPayload | SharePayload, secret: string): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${mac(secret, body).toString('base64url')}`;
}

/** The payload when the signature holds and the token has not expired; undefined otherwise. */
export function verifyToken<T extends z.ZodType>(
  token: string,
  secret: string,
  schema: T,
  now = Date.now(),
): z.infer<T> | undefined {
  const [body, sig] = token.split('.');
  if (!body || !sig) return undefined;
  const expected = mac(secret, body);
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) return undefined;
  const exp = (parsed.data as { exp: number }).exp;
  return exp * 1000 > now ? parsed.data : undefined;
}

/** Invite tokens are random; only their hash is stored, so a database leak reveals no link. */
export function hashInviteToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
