// Signed, expiring tokens (HMAC-SHA256 over a JSON payload): session cookies and shareable
// read-only links. Stateless: the secret (AUTH_SECRET) is the only thing that can mint them.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

export const SessionPayloadSchema = z.object({
  typ: z.literal('session'),
  /** User id. */
  sub: z.string().min(1),
  /** Expiry, seconds since the epoch. */
  exp: z.number().int(),
});

export const ShareKindSchema = z.enum(['run', 'trajectory', 'comparison', 'harnessVersion']);
export type ShareKind = z.infer<typeof ShareKindSchema>;

export const SharePayloadSchema = z.object({
  typ: z.literal('share'),
  kind: ShareKindSchema,
  /** The shared thing: a run, an episode (trajectory), two runs (comparison) or a harness version. */
  ids: z.array(z.string().min(1)).min(1).max(2),
  /** Who made the link (audit). */
  by: z.string(),
  exp: z.number().int(),
});

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
