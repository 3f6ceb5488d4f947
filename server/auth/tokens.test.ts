import { describe, expect, it } from 'vitest';
import { ShareKind } from '../db/index.ts';
import {
  SessionPayloadSchema,
  ShareKindSchema,
  SharePayloadSchema,
  signToken,
  verifyToken,
} from './tokens.ts';

const SECRET = 'tokens-test-secret-0123456789abcdefghijk';

describe('signed tokens', () => {
  it('name a row and expire; a changed body or another secret is refused', () => {
    const exp = Math.floor(Date.now() / 1000) + 60;
    const token = signToken({ typ: 'session', sub: 'u1', sid: 's1', exp }, SECRET);
    expect(verifyToken(token, SECRET, SessionPayloadSchema)).toEqual({
      typ: 'session',
      sub: 'u1',
      sid: 's1',
      exp,
    });
    expect(verifyToken(token, `${SECRET}x`, SessionPayloadSchema)).toBeUndefined();
    expect(verifyToken(token, SECRET, SessionPayloadSchema, (exp + 1) * 1000)).toBeUndefined();
    const [, sig] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ typ: 'session', sub: 'u2', sid: 's1', exp }));
    expect(
      verifyToken(`${forged.toString('base64url')}.${sig}`, SECRET, SessionPayloadSchema),
    ).toBeUndefined();
    // A session token is not a share link, and a token without a row id is neither.
    expect(verifyToken(token, SECRET, SharePayloadSchema)).toBeUndefined();
    const stateless = signToken({ typ: 'session', sub: 'u1', exp } as never, SECRET);
    expect(verifyToken(stateless, SECRET, SessionPayloadSchema)).toBeUndefined();
  });

  it('share kinds are the database enum', () => {
    expect([...ShareKindSchema.options].sort()).toEqual(Object.values(ShareKind).sort());
  });
});
