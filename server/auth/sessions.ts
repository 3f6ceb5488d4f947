// Server-side sessions: a sign-in writes a Session row and the cookie carries a signed token naming
// it. Every request checks the row (not revoked, not expired), so signing out ends the session for
// every copy of the cookie at once.
import type { Db } from '../db/index.ts';
import { SessionPayloadSchema, signToken, verifyToken } from './tokens.ts';

export class Sessions {
  constructor(
    private readonly db: Db,
    private readonly secret: () => string,
    private readonly ttlHours: number,
    private readonly now: () => number,
  ) {}

  async create(
    userId: string,
    ip: string | undefined,
  ): Promise<{ token: string; sessionId: string; maxAgeSeconds: number }> {
    const maxAgeSeconds = this.ttlHours * 3600;
    const exp = Math.floor(this.now() / 1000) + maxAgeSeconds;
    const row = await this.db.session.create({
      data: { userId, expiresAt: new Date(exp * 1000), ip: ip ?? null },
      select: { id: true },
    });
    // Sessions expired a day ago are of no use, not even to the audit.
    await this.db.session.deleteMany({
      where: { expiresAt: { lt: new Date(this.now() - 86_400_000) } },
    });
    const token = signToken({ typ: 'session', sub: userId, sid: row.id, exp }, this.secret());
    return { token, sessionId: row.id, maxAgeSeconds };
  }

  /** The user of a live session: the signature holds and its row is neither revoked nor expired. */
  async userOf(token: string): Promise<string | undefined> {
    const payload = verifyToken(token, this.secret(), SessionPayloadSchema, this.now());
    if (!payload) return undefined;
    const row = await this.db.session.findUnique({
      where: { id: payload.sid },
      select: { userId: true, expiresAt: true, revokedAt: true },
    });
    const live =
      row !== null &&
      row.userId === payload.sub &&
      row.revokedAt === null &&
      row.expiresAt.getTime() > this.now();
    return live ? row.userId : undefined;
  }

  /** Ends the session the token names (sign-out); its user id, or undefined if none was live. */
  async revoke(token: string): Promise<string | undefined> {
    const payload = verifyToken(token, this.secret(), SessionPayloadSchema, this.now());
    if (!payload) return undefined;
    const done = await this.db.session.updateMany({
      where: { id: payload.sid, userId: payload.sub, revokedAt: null },
      data: { revokedAt: new Date(this.now()) },
    });
    return done.count === 1 ? payload.sub : undefined;
  }
}
