// Team-mode accounts: users with scrypt-hashed passwords, projects with per-project membership and
// roles, single-use invite links, server-side sessions (sessions.ts), stored share links
// (shares.ts), the sign-in rate limit (throttle.ts) and the audit trail. Same code for the tRPC
// router, the sign-in pages and the CLI.
import { randomBytes } from 'node:crypto';
import type { Config } from '../config.ts';
import type { Prisma } from '../db/generated/client.ts';
import type { Db } from '../db/index.ts';
import { isUniqueViolation } from '../db/queries.ts';
import {
  DomainError,
  ForbiddenError,
  InvalidInputError,
  NotFoundError,
  UnauthorizedError,
} from '../errors.ts';
import { type AuditEntry, writeAudit } from './audit.ts';
import { hashPassword, verifyPassword } from './password.ts';
import { Sessions } from './sessions.ts';
import { ShareLinks } from './shares.ts';
import { SignInThrottle } from './throttle.ts';
import { hashInviteToken } from './tokens.ts';

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
  /** The clock (tests move it to check expiry and back-off). */
  now?: () => number;
}

/** A slug or email another row already has. */
class TakenError extends DomainError {
  override readonly kind = 'conflict';
  override name = 'TakenError';
}

/** A change the current state refuses (the project's last admin). */
class ConflictError extends DomainError {
  override readonly kind = 'conflict';
  override name = 'ConflictError';
}

export interface AuditQuery {
  projectId?: string;
  cursor?: string;
  limit: number;
  /** A user id (or `anonymous`, `local`). */
  actor?: string;
  /** The action's first word (`runs`, `harnesses`, `auth` …). */
  kind?: string;
  from?: Date;
  /** Exclusive. */
  to?: Date;
}

/** The studio page of each audited object that has one (runs, harnesses, versions, rigs …). */
async function auditTargetHrefs(db: Db, ids: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const want = [...new Set(ids)];
  if (want.length === 0) return out;
  const inIds = { id: { in: want } };
  const [runs, episodes, harnesses, versions, rigs, candidates, banks] = await Promise.all([
    db.run.findMany({ where: inIds, select: { id: true } }),
    db.episode.findMany({ where: inIds, select: { id: true, runId: true } }),
    db.harness.findMany({ where: inIds, select: { id: true } }),
    db.harnessVersion.findMany({
      where: inIds,
      select: { id: true, harnessId: true, version: true },
    }),
    db.rig.findMany({ where: inIds, select: { id: true } }),
    db.candidate.findMany({ where: inIds, select: { id: true, rigId: true } }),
    db.skillBank.findMany({ where: inIds, select: { id: true } }),
  ]);
  for (const r of runs) out.set(r.id, `/runs/${r.id}`);
  for (const e of episodes) out.set(e.id, `/runs/${e.runId}/episodes/${e.id}`);
  for (const h of harnesses) out.set(h.id, `/harnesses/${h.id}`);
  for (const v of versions) out.set(v.id, `/harnesses/${v.harnessId}?version=${v.version}`);
  for (const r of rigs) out.set(r.id, `/rigs/${r.id}`);
  for (const c of candidates) out.set(c.id, `/rigs/${c.rigId}/candidates/${c.id}`);
  for (const b of banks) out.set(b.id, `/skills/${b.id}`);
  return out;
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
  readonly sessions: Sessions;
  readonly shares: ShareLinks;
  private readonly throttle: SignInThrottle;
  private readonly now: () => number;
  /** What an unknown email's password is checked against, so a miss costs a real scrypt too. */
  private dummyHash: Promise<string> | undefined;

  constructor(
    readonly db: Db,
    private readonly o: AuthOptions,
  ) {
    this.now = o.now ?? Date.now;
    const secret = () => this.secret();
    this.sessions = new Sessions(db, secret, o.sessionTtlHours, this.now);
    this.shares = new ShareLinks(db, secret, o.shareTtlHours, this.now);
    this.throttle = new SignInThrottle(db, this.now, (a) =>
      this.audit({ actor: 'anonymous', ...a }),
    );
  }

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
    const project = await this.db.project
      .create({ data: { name: o.name, slug }, select: { id: true, name: true, slug: true } })
      .catch((e: unknown) => {
        throw isUniqueViolation(e) ? new TakenError(`a project with slug '${slug}' exists`) : e;
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

  /**
   * A new project, made by an instance admin (the role on the account, not in a project), who
   * becomes its admin. Projects are the team's top-level boundary, so no project admin may add one.
   */
  async createProjectAs(by: string, o: { name: string; slug?: string | undefined }) {
    const user = await this.db.user.findUnique({ where: { id: by }, select: { role: true } });
    if (user?.role !== 'admin') {
      throw new ForbiddenError('only an instance admin may create projects');
    }
    const project = await this.createProject({
      name: o.name,
      ...(o.slug ? { slug: o.slug } : {}),
      by,
    });
    await this.addMember({ userId: by, projectId: project.id, role: 'admin', by });
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

  /**
   * Email + password -> a session (a Session row and its signed token), or UnauthorizedError with
   * the same message whether the email is unknown or the password wrong. An unknown email costs
   * the same scrypt as a known one; too many failures per email or address make the next attempt
   * wait (SignInThrottledError).
   */
  async signIn(
    email: string,
    password: string,
    from: { ip?: string | undefined } = {},
  ): Promise<{ token: string; userId: string; maxAgeSeconds: number }> {
    this.secret();
    const key = email.trim().toLowerCase();
    const ip = from.ip ?? 'unknown';
    await this.throttle.check(key, ip);
    const user = await this.db.user.findUnique({
      where: { email: key },
      select: { id: true, passwordHash: true },
    });
    const ok = await this.checkPassword(password, user?.passwordHash);
    await this.throttle.record(key, ip, ok);
    if (!user || !ok) throw new UnauthorizedError('wrong email or password');
    const session = await this.sessions.create(user.id, from.ip);
    await this.audit({ actor: user.id, action: 'auth.signIn', details: {} });
    return { token: session.token, userId: user.id, maxAgeSeconds: session.maxAgeSeconds };
  }

  /** scrypt against the stored hash, or against a dummy one when there is none (same cost). */
  private async checkPassword(password: string, stored: string | null | undefined) {
    if (stored) return verifyPassword(password, stored);
    this.dummyHash ??= hashPassword(randomBytes(16).toString('base64url'));
    await verifyPassword(password, await this.dummyHash);
    return false;
  }

  /** Sign-out: the session the token names stops working everywhere. */
  async signOut(token: string): Promise<void> {
    const userId = await this.sessions.revoke(token);
    if (userId) await this.audit({ actor: userId, action: 'auth.signOut', details: {} });
  }

  /** The user of a live session token (checked against its Session row). */
  sessionUserId(token: string): Promise<string | undefined> {
    return this.sessions.userOf(token);
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

  /**
   * Uses an invite once: creates the account (or joins an existing one, whose password must match)
   * and its membership. The invite is claimed in the same transaction as the account and the
   * membership, so a wrong password or a failure leaves it unused; a link raced twice makes one
   * account only.
   */
  async acceptInvite(o: {
    token: string;
    email: string;
    password: string;
    name?: string;
  }): Promise<{ userId: string; projectId: string | null }> {
    const d = this.db;
    const refused = () => new UnauthorizedError('this invite link is invalid, used or expired');
    const invite = await d.invite.findUnique({ where: { tokenHash: hashInviteToken(o.token) } });
    if (!invite || invite.usedAt || invite.expiresAt.getTime() < this.now()) throw refused();
    const email = o.email.trim().toLowerCase();
    if (invite.email && invite.email !== email) {
      throw new ForbiddenError(`this invite is for ${invite.email}`);
    }
    // Everything that can refuse the caller is checked before the invite is claimed.
    const existing = await d.user.findUnique({
      where: { email },
      select: { id: true, passwordHash: true },
    });
    let newHash: string | undefined;
    if (existing) {
      if (!(await this.checkPassword(o.password, existing.passwordHash))) {
        throw new UnauthorizedError('wrong email or password');
      }
    } else {
      if (o.password.length < 8)
        throw new InvalidInputError('a password needs at least 8 characters');
      newHash = await hashPassword(o.password);
    }
    try {
      return await d.$transaction(async (tx) => {
        const claimed = await tx.invite.updateMany({
          where: { id: invite.id, usedAt: null },
          data: { usedAt: new Date(this.now()) },
        });
        if (claimed.count !== 1) throw refused();
        const userId =
          existing?.id ??
          (
            await tx.user.create({
              data: { email, name: o.name ?? '', passwordHash: newHash ?? null },
              select: { id: true },
            })
          ).id;
        if (invite.projectId) {
          await tx.membership.upsert({
            where: { userId_projectId: { userId, projectId: invite.projectId } },
            create: { userId, projectId: invite.projectId, role: invite.role },
            update: { role: invite.role },
          });
        }
        await writeAudit(tx, {
          actor: userId,
          action: 'invite.accept',
          projectId: invite.projectId,
          details: { role: invite.role, by: invite.createdBy },
        });
        return { userId, projectId: invite.projectId };
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw new TakenError(`an account for ${email} already exists`);
      throw e;
    }
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

  async audit(o: AuditEntry): Promise<void> {
    await writeAudit(this.db, o);
  }

  /**
   * A page of the audit trail, newest first, with who by email and a link to each object. Filters:
   * one person (user id), one kind (the action's first word: `runs`, `harnesses`, `auth` …) and a
   * date range (inclusive days).
   */
  async listAudit(o: AuditQuery) {
    const d = this.db;
    const where: Prisma.AuditLogWhereInput = {
      ...(o.projectId ? { projectId: o.projectId } : {}),
      ...(o.actor ? { actor: o.actor } : {}),
      ...(o.kind ? { action: { startsWith: `${o.kind}.` } } : {}),
      ...(o.from || o.to
        ? { at: { ...(o.from ? { gte: o.from } : {}), ...(o.to ? { lt: o.to } : {}) } }
        : {}),
    };
    const rows = await d.auditLog.findMany({
      where,
      orderBy: { id: 'desc' },
      take: o.limit + 1,
      ...(o.cursor ? { cursor: { id: BigInt(o.cursor) }, skip: 1 } : {}),
    });
    const page = rows.slice(0, o.limit);
    const people = await this.peopleByIds(page.map((r) => r.actor));
    const hrefs = await auditTargetHrefs(
      d,
      page.flatMap((r) => (r.target ? [r.target] : [])),
    );
    const items = page.map((r) => ({
      ...r,
      id: r.id.toString(),
      actorEmail: people.get(r.actor)?.email ?? null,
      actorName: people.get(r.actor)?.name ?? null,
      targetHref: r.target ? (hrefs.get(r.target) ?? null) : null,
    }));
    const nextCursor = rows.length > o.limit ? (items.at(-1)?.id ?? null) : null;
    return { items, nextCursor };
  }

  /** What the audit filters offer: the people and the kinds of action recorded in the project. */
  async auditFacets(projectId: string | undefined) {
    const where = projectId ? { projectId } : {};
    const [actors, actions] = await Promise.all([
      this.db.auditLog.groupBy({ by: ['actor'], where }),
      this.db.auditLog.groupBy({ by: ['action'], where }),
    ]);
    const people = await this.peopleByIds(actors.map((a) => a.actor));
    return {
      people: actors
        .map((a) => ({
          id: a.actor,
          email: people.get(a.actor)?.email ?? null,
          name: people.get(a.actor)?.name ?? null,
        }))
        .sort((a, b) => (a.email ?? a.id).localeCompare(b.email ?? b.id)),
      kinds: [...new Set(actions.map((a) => a.action.split('.')[0] ?? a.action))].sort(),
    };
  }

  private async peopleByIds(ids: string[]) {
    const unique = [...new Set(ids)];
    const users = unique.length
      ? await this.db.user.findMany({
          where: { id: { in: unique } },
          select: { id: true, email: true, name: true },
        })
      : [];
    return new Map(users.map((u) => [u.id, u]));
  }

  /** The members of a project and its open invites (unused, unexpired). */
  async members(projectId: string) {
    const d = this.db;
    const [members, invites] = await Promise.all([
      d.membership.findMany({
        where: { projectId },
        orderBy: { createdAt: 'asc' },
        select: {
          role: true,
          createdAt: true,
          user: { select: { id: true, email: true, name: true } },
        },
      }),
      d.invite.findMany({
        where: { projectId, usedAt: null, expiresAt: { gt: new Date(this.now()) } },
        orderBy: { createdAt: 'desc' },
        select: { id: true, email: true, role: true, expiresAt: true, createdAt: true },
      }),
    ]);
    return {
      members: members.map((m) => ({
        userId: m.user.id,
        email: m.user.email,
        name: m.user.name,
        role: m.role,
        since: m.createdAt,
      })),
      invites,
    };
  }

  /**
   * Changes a member's role, or removes them (`role: null`). The project's last admin can be
   * neither demoted nor removed: the check and the change are one transaction.
   */
  async setMemberRole(o: { projectId: string; userId: string; role: TeamRole | null; by: string }) {
    await this.db.$transaction(async (tx) => {
      const m = await tx.membership.findUnique({
        where: { userId_projectId: { userId: o.userId, projectId: o.projectId } },
        select: { role: true, user: { select: { email: true } } },
      });
      if (!m) throw new NotFoundError(`member '${o.userId}' not found in this project`);
      if (m.role === 'admin' && o.role !== 'admin') {
        const admins = await tx.membership.count({
          where: { projectId: o.projectId, role: 'admin' },
        });
        if (admins <= 1) {
          throw new ConflictError(
            `${m.user.email} is the project's last admin: make someone else admin first`,
          );
        }
      }
      if (o.role === null) {
        await tx.membership.delete({
          where: { userId_projectId: { userId: o.userId, projectId: o.projectId } },
        });
      } else {
        await tx.membership.update({
          where: { userId_projectId: { userId: o.userId, projectId: o.projectId } },
          data: { role: o.role },
        });
      }
      await writeAudit(tx, {
        actor: o.by,
        action: o.role === null ? 'membership.remove' : 'membership.set',
        target: o.userId,
        projectId: o.projectId,
        details: { email: m.user.email, role: o.role, was: m.role },
      });
    });
  }

  /** Whether any account can administer (for the start log). */
  async hasAdmin(): Promise<boolean> {
    const d = this.db;
    if ((await d.user.count({ where: { role: 'admin' } })) > 0) return true;
    return (await d.membership.count({ where: { role: 'admin' } })) > 0;
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
