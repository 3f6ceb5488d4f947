// Read-only share links, stored: each link is a ShareLink row (what it opens, its project, who made
// it, expiry, revocation) and its token is a signed reference to the row. Opening a link reads the
// row, so a revoked or expired link opens nothing, and the scope comes from the row, not the token.
import type { Db } from '../db/index.ts';
import { NotFoundError } from '../errors.ts';
import {
  type ShareKind,
  SharePayloadSchema,
  type ShareScope,
  signToken,
  verifyToken,
} from './tokens.ts';

const LINK_SELECT = {
  id: true,
  kind: true,
  ids: true,
  projectId: true,
  createdBy: true,
  createdAt: true,
  expiresAt: true,
  revokedAt: true,
  revokedBy: true,
} as const;

export interface ShareLinkView {
  id: string;
  kind: ShareKind;
  ids: string[];
  projectId: string | null;
  createdBy: string;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  revokedBy: string | null;
  /** Neither revoked nor expired. */
  active: boolean;
  /** The link itself while it is active (so it can be copied again), else null. */
  path: string | null;
}

export class ShareLinks {
  constructor(
    private readonly db: Db,
    private readonly secret: () => string,
    private readonly defaultTtlHours: number,
    private readonly now: () => number,
  ) {}

  /** The token of a row: deterministic, so a listed link can be copied again. */
  private tokenOf(id: string, expiresAt: Date): string {
    const exp = Math.floor(expiresAt.getTime() / 1000);
    return signToken({ typ: 'share', lid: id, exp }, this.secret());
  }

  private view(row: Omit<ShareLinkView, 'active' | 'path'>): ShareLinkView {
    const active = row.revokedAt === null && row.expiresAt.getTime() > this.now();
    return {
      ...row,
      active,
      path: active ? `/share/${this.tokenOf(row.id, row.expiresAt)}` : null,
    };
  }

  async create(o: {
    kind: ShareKind;
    ids: string[];
    by: string;
    projectId: string | null;
    ttlHours?: number | undefined;
  }): Promise<{ id: string; token: string; expiresAt: Date }> {
    const exp = Math.floor(this.now() / 1000) + (o.ttlHours ?? this.defaultTtlHours) * 3600;
    const row = await this.db.shareLink.create({
      data: {
        kind: o.kind,
        ids: o.ids,
        projectId: o.projectId,
        createdBy: o.by,
        expiresAt: new Date(exp * 1000),
      },
      select: { id: true, expiresAt: true },
    });
    return { id: row.id, token: this.tokenOf(row.id, row.expiresAt), expiresAt: row.expiresAt };
  }

  /** What an open link lets its visitor read; undefined when forged, expired or revoked. */
  async open(token: string): Promise<ShareScope | undefined> {
    const payload = verifyToken(token, this.secret(), SharePayloadSchema, this.now());
    if (!payload) return undefined;
    const row = await this.db.shareLink.findUnique({ where: { id: payload.lid } });
    if (!row || row.revokedAt !== null || row.expiresAt.getTime() <= this.now()) return undefined;
    return { linkId: row.id, kind: row.kind, ids: row.ids, expiresAt: row.expiresAt };
  }

  /** A project's links, newest first (revoked and expired ones too: the list is also a record). */
  async list(projectId: string | null, limit = 200): Promise<ShareLinkView[]> {
    const rows = await this.db.shareLink.findMany({
      where: { projectId },
      orderBy: { createdAt: 'desc' },
      take: limit,
      select: LINK_SELECT,
    });
    return rows.map((r) => this.view(r));
  }

  /** Revokes a link (idempotent: a revoked link keeps its first revocation). */
  async revoke(id: string, by: string): Promise<ShareLinkView> {
    await this.db.shareLink.updateMany({
      where: { id, revokedAt: null },
      data: { revokedAt: new Date(this.now()), revokedBy: by },
    });
    const row = await this.db.shareLink.findUnique({ where: { id }, select: LINK_SELECT });
    if (!row) throw new NotFoundError(`shareLink '${id}' not found`);
    return this.view(row);
  }
}
