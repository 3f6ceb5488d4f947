// Team-mode accounts: users with scrypt-hashed passwords, projects with per-project membership and
// roles, single-use invite links, sessions and share links (signed tokens), and the audit trail.
// Same code for the tRPC router, the sign-in pages and the CLI.
import { randomBytes } from 'node:crypto';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import { ForbiddenError, InvalidInputError, NotFoundError, UnauthorizedError } from '../errors.ts';
import { type AuditEntry, writeAudit } from './audit.ts';
import { hashPassword, verifyPassword } from './password.ts';
import {
  hashInviteToken,
  SessionPayloadSchema,
  type ShareKind,
  type SharePayload,
  SharePayloadSchema,
  signToken,
  verifyToken,
} from './tokens.ts';

export type TeamRole = 'viewer' | 'researcher' | 'admin';
export const ROLE_RANK: Record<TeamRole, number> = { viewer: 0, researcher: 1, admin: 2 };

export interface AuthOptions {
  /** Team mode's signing secret (AUTH_SECRET); unset: the embedded single-user default. */
  secret?: string | undefined;
  sessionTtlHours: number;
  shareTtlHours: number;
  /** Team mode's first admin, created at start when no user exists yet. */
  adminEmail?: string | undefined;
  adminPassword?: string | undefined;
}

export function authOptions(c: Config): AuthOptions {
  return {
    secret: c.AUTH_SECRET,
    sessionTtlHours: c.SESSION_TTL_HOURS,
    shareTtlHours: c.SHARE_TTL_HOURS,
    adminEmail: c.ADMIN_EMAIL,
    adminPassword: c.ADMIN_PASSWORD,
  };
}

export interface TeamUser {
  id: string;
  email: string;
  name: string;
  role: TeamRole;
  memberships: { projectId: string; role: TeamRole; name: string; slug: string }[];
}

export class Accounts {
  constructor(
    readonly db: Db,
    private readonly o: AuthOptions,
  ) {}

  /** Team mode is on when a secret is configured; the embedded default stays single-user. */
  get teamMode(): boolean {
    return this.o.secret !== undefined;
  }

  private secret(): string {
    const s = this.o.secret;
    if (!s) throw new InvalidInputError('team mode is off: set AUTH_SECRET to use accounts');
    return s;
  }

  async createUser(o: {
    email: string;
    password: string;
    name?: string;
    role?: TeamRole;
  }): Promise<{ id: string; email: string; role: TeamRole }> {
    if (o.password.length < 8)
      throw new InvalidInputError('a password needs at least 8 characters');
    const email = o.email.trim().toLowerCase();
    const d = this.db;
    if (await d.user.findUnique({ where: { email }, select: { id: true } })) {
      throw new InvalidInputError(`an account for ${email} already exists`);
    }
    return d.user.create({
      data: {
        email,
        name: o.name ?? '',
        passwordHash: await hashPassword(o.password),
        role: o.role ?? 'researcher',
      },
      select: { id: true, email: true, role: true },
    });
  }

  async createProject(o: { name: string; slug?: string; by: string }) {
    const slug =
      (o.slug ?? o.name)
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '') || 'project';
    const d = this.db;
    const project = await d.project.create({
      data: { name: o.name, slug },
      select: { id: true, name: true, slug: true },
    });
    await this.audit({
      actor: o.by,
      action: 'project.create',
      target: project.id,
      projectId: project.id,
      details: { name: o.name },
    });
    return project;
  }

  async addMember(o: { userId: string; projectId: string; role: TeamRole; by: string }) {
    const d = this.db;
    await d.membership.upsert({
      where: { userId_projectId: { userId: o.userId, projectId: o.projectId } },
      create: { userId: o.userId, projectId: o.projectId, role: o.role },
      update: { role: o.role },
    });
    await this.audit({
      actor: o.by,
      action: 'membership.set',
      target: o.userId,
      projectId: o.projectId,
      details: { role: o.role },
    });
  }

  /** Email + password -> a signed session token, or UnauthorizedError (same message either way). */
  async signIn(
    email: string,
    password: string,
  ): Promise<{ token: string; userId: string; maxAgeSeconds: number }> {
    const d = this.db;
    const user = await d.user.findUnique({
      where: { email: email.trim().toLowerCase() },
      select: { id: true, passwordHash: true },
    });
    const ok = user?.passwordHash ? await verifyPassword(password, user.passwordHash) : false;
    if (!user || !ok) throw new UnauthorizedError('wrong email or password');
    const maxAgeSeconds = this.o.sessionTtlHours * 3600;
    const token = signToken(
      { typ: 'session', sub: user.id, exp: Math.floor(Date.now() / 1000) + maxAgeSeconds },
      this.secret(),
    );
    await this.audit({ actor: user.id, action: 'auth.signIn', details: {} });
    return { token, userId: user.id, maxAgeSeconds };
  }

  sessionUserId(token: string): string | undefined {
    return verifyToken(token, this.secret(), SessionPayloadSchema)?.sub;
  }

  async createInvite(o: {
    projectId: string;
    role: TeamRole;
    email?: string;
    by: string;
    ttlHours?: number;
  }): Promise<{ token: string; expiresAt: Date }> {
    const d = this.db;
    if (!(await d.project.findUnique({ where: { id: o.projectId }, select: { id: true } }))) {
      throw new NotFoundError(`project '${o.projectId}' not found`);
    }
    const token = randomBytes(24).toString('base64url');
    const expiresAt = new Date(Date.now() + (o.ttlHours ?? 72) * 3600_000);
    await d.invite.create({
      data: {
        tokenHash: hashInviteToken(token),
        projectId: o.projectId,
        role: o.role,
        email: o.email?.toLowerCase() ?? null,
        expiresAt,
        createdBy: o.by,
      },
    });
    await this.audit({
      actor: o.by,
      action: 'invite.create',
      projectId: o.projectId,
      details: { role: o.role, email: o.email ?? null },
    });
    return { token, expiresAt };
  }

  /** Uses an invite once: creates the account (or joins an existing one) and its membership. */
  async acceptInvite(o: {
    token: string;
    email: string;
    password: string;
    name?: string;
  }): Promise<{ userId: string; projectId: string | null }> {
    const d = this.db;
    const invite = await d.invite.findUnique({ where: { tokenHash: hashInviteToken(o.token) } });
    if (!invite || invite.usedAt || invite.expiresAt.getTime() < Date.now()) {
      throw new UnauthorizedError('this invite link is invalid, used or expired');
    }
    const email = o.email.trim().toLowerCase();
    if (invite.email && invite.email !== email) {
      throw new ForbiddenError(`this invite is for ${invite.email}`);
    }
    // Claim first (usedAt null -> now) so a link raced twice makes one account only.
    const claimed = await d.invite.updateMany({
      where: { id: invite.id, usedAt: null },
      data: { usedAt: new Date() },
    });
    if (claimed.count !== 1)
      throw new UnauthorizedError('this invite link is invalid, used or expired');
    const existing = await d.user.findUnique({
      where: { email },
      select: { id: true, passwordHash: true },
    });
    let userId: string;
    if (existing) {
      if (!existing.passwordHash || !(await verifyPassword(o.password, existing.passwordHash))) {
        throw new UnauthorizedError('wrong email or password');
      }
      userId = existing.id;
    } else {
      userId = (
        await this.createUser({
          email,
          password: o.password,
          name: o.name ?? '',
          role: 'researcher',
        })
      ).id;
    }
    if (invite.projectId) {
      await this.addMember({
        userId,
        projectId: invite.projectId,
        role: invite.role,
        by: invite.createdBy ?? userId,
      });
    }
    await this.audit({
      actor: userId,
      action: 'invite.accept',
      projectId: invite.projectId,
      details: { role: invite.role },
    });
    return { userId, projectId: invite.projectId };
  }

  async loadUser(userId: string): Promise<TeamUser | undefined> {
    const d = this.db;
    const u = await d.user.findUnique({
      where: { id: userId },
      select: {
        id: true,
        email: true,
        name: true,
        role: true,
        memberships: {
          select: { projectId: true, role: true, project: { select: { name: true, slug: true } } },
        },
      },
    });
    if (!u) return undefined;
    return {
      id: u.id,
      email: u.email,
      name: u.name,
      role: u.role,
      memberships: u.memberships.map((m) => ({
        projectId: m.projectId,
        role: m.role,
        name: m.project.name,
        slug: m.project.slug,
      })),
    };
  }

  createShareToken(o: { kind: ShareKind; ids: string[]; by: string; ttlHours?: number }): {
    token: string;
    expiresAt: Date;
  } {
    const exp = Math.floor(Date.now() / 1000) + (o.ttlHours ?? this.o.shareTtlHours) * 3600;
    const payload: SharePayload = { typ: 'share', kind: o.kind, ids: o.ids, by: o.by, exp };
    return { token: signToken(payload, this.secret()), expiresAt: new Date(exp * 1000) };
  }

  readShareToken(token: string): SharePayload | undefined {
    return verifyToken(token, this.secret(), SharePayloadSchema);
  }

  async audit(o: AuditEntry): Promise<void> {
    await writeAudit(this.db, o);
  }

  async listAudit(o: { projectId?: string; cursor?: string; limit: number }) {
    const d = this.db;
    const rows = await d.auditLog.findMany({
      where: o.projectId ? { projectId: o.projectId } : {},
      orderBy: { id: 'desc' },
      take: o.limit + 1,
      ...(o.cursor ? { cursor: { id: BigInt(o.cursor) }, skip: 1 } : {}),
    });
    const items = rows.slice(0, o.limit).map((r) => ({ ...r, id: r.id.toString() }));
    const nextCursor = rows.length > o.limit ? (items.at(-1)?.id ?? null) : null;
    return { items, nextCursor };
  }

  /** First start in team mode: the configured admin, so someone can sign in and invite the rest. */
  async ensureAdmin(): Promise<void> {
    const { adminEmail, adminPassword } = this.o;
    if (!this.teamMode || !adminEmail || !adminPassword) return;
    const d = this.db;
    if ((await d.user.count()) > 0) return;
    const admin = await this.createUser({
      email: adminEmail,
      password: adminPassword,
      role: 'admin',
    });
    const project = await this.createProject({ name: 'Default', slug: 'default', by: admin.id });
    await this.addMember({ userId: admin.id, projectId: project.id, role: 'admin', by: admin.id });
  }
}
