// Team-mode accounts: users with scrypt-hashed passwords, projects with per-project membership and
// roles, single-use invite links, sessions and share links (signed tokens), and the audit trail.
// Same code for the tRPC router, the sign-in pages and the CLI.
import { randomBytes } from 'node:crypto';
import { config } from '../config.ts';
import type { PrismaClient } from '../db/index.ts';
import { ForbiddenError, InvalidInputError, NotFoundError, UnauthorizedError } from '../errors.ts';
import { rolloutDb } from '../rollouts/db.ts';
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

/** Team mode is on when a secret is configured; the embedded default stays single-user. */
export function teamMode(): boolean {
  return config().AUTH_SECRET !== undefined;
}

function secret(): string {
  const s = config().AUTH_SECRET;
  if (!s) throw new InvalidInputError('team mode is off: set AUTH_SECRET to use accounts');
  return s;
}

const db = (): Promise<PrismaClient> => rolloutDb();

export async function createUser(o: {
  email: string;
  password: string;
  name?: string;
  role?: TeamRole;
}): Promise<{ id: string; email: string; role: TeamRole }> {
  if (o.password.length < 8) throw new InvalidInputError('a password needs at least 8 characters');
  const email = o.email.trim().toLowerCase();
  const d = await db();
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

export async function createProject(o: { name: string; slug?: string; by: string }) {
  const slug =
    (o.slug ?? o.name)
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'project';
  const d = await db();
  const project = await d.project.create({
    data: { name: o.name, slug },
    select: { id: true, name: true, slug: true },
  });
  await audit({
    actor: o.by,
    action: 'project.create',
    target: project.id,
    projectId: project.id,
    details: { name: o.name },
  });
  return project;
}

export async function addMember(o: {
  userId: string;
  projectId: string;
  role: TeamRole;
  by: string;
}) {
  const d = await db();
  await d.membership.upsert({
    where: { userId_projectId: { userId: o.userId, projectId: o.projectId } },
    create: { userId: o.userId, projectId: o.projectId, role: o.role },
    update: { role: o.role },
  });
  await audit({
    actor: o.by,
    action: 'membership.set',
    target: o.userId,
    projectId: o.projectId,
    details: { role: o.role },
  });
}

/** Email + password -> a signed session token, or UnauthorizedError (same message either way). */
export async function signIn(
  email: string,
  password: string,
): Promise<{ token: string; userId: string; maxAgeSeconds: number }> {
  const d = await db();
  const user = await d.user.findUnique({
    where: { email: email.trim().toLowerCase() },
    select: { id: true, passwordHash: true },
  });
  const ok = user?.passwordHash ? await verifyPassword(password, user.passwordHash) : false;
  if (!user || !ok) throw new UnauthorizedError('wrong email or password');
  const maxAgeSeconds = config().SESSION_TTL_HOURS * 3600;
  const token = signToken(
    { typ: 'session', sub: user.id, exp: Math.floor(Date.now() / 1000) + maxAgeSeconds },
    secret(),
  );
  await audit({ actor: user.id, action: 'auth.signIn', details: {} });
  return { token, userId: user.id, maxAgeSeconds };
}

export function sessionUserId(token: string): string | undefined {
  return verifyToken(token, secret(), SessionPayloadSchema)?.sub;
}

export async function createInvite(o: {
  projectId: string;
  role: TeamRole;
  email?: string;
  by: string;
  ttlHours?: number;
}): Promise<{ token: string; expiresAt: Date }> {
  const d = await db();
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
  await audit({
    actor: o.by,
    action: 'invite.create',
    projectId: o.projectId,
    details: { role: o.role, email: o.email ?? null },
  });
  return { token, expiresAt };
}

/** Uses an invite once: creates the account (or joins an existing one) and its membership. */
export async function acceptInvite(o: {
  token: string;
  email: string;
  password: string;
  name?: string;
}): Promise<{ userId: string; projectId: string | null }> {
  const d = await db();
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
      await createUser({ email, password: o.password, name: o.name ?? '', role: 'researcher' })
    ).id;
  }
  if (invite.projectId) {
    await addMember({
      userId,
      projectId: invite.projectId,
      role: invite.role,
      by: invite.createdBy ?? userId,
    });
  }
  await audit({
    actor: userId,
    action: 'invite.accept',
    projectId: invite.projectId,
    details: { role: invite.role },
  });
  return { userId, projectId: invite.projectId };
}

export interface TeamUser {
  id: string;
  email: string;
  name: string;
  role: TeamRole;
  memberships: { projectId: string; role: TeamRole; name: string; slug: string }[];
}

export async function loadUser(userId: string): Promise<TeamUser | undefined> {
  const d = await db();
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

export function createShareToken(o: {
  kind: ShareKind;
  ids: string[];
  by: string;
  ttlHours?: number;
}): {
  token: string;
  expiresAt: Date;
} {
  const exp = Math.floor(Date.now() / 1000) + (o.ttlHours ?? config().SHARE_TTL_HOURS) * 3600;
  const payload: SharePayload = { typ: 'share', kind: o.kind, ids: o.ids, by: o.by, exp };
  return { token: signToken(payload, secret()), expiresAt: new Date(exp * 1000) };
}

export function readShareToken(token: string): SharePayload | undefined {
  return verifyToken(token, secret(), SharePayloadSchema);
}

export async function audit(o: {
  actor: string;
  action: string;
  target?: string | null;
  projectId?: string | null;
  details: Record<string, unknown>;
}): Promise<void> {
  const d = await db();
  await d.auditLog.create({
    data: {
      actor: o.actor,
      action: o.action,
      target: o.target ?? null,
      projectId: o.projectId ?? null,
      details: JSON.parse(JSON.stringify(o.details)),
    },
  });
}

export async function listAudit(o: { projectId?: string; cursor?: string; limit: number }) {
  const d = await db();
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
export async function ensureAdmin(): Promise<void> {
  const { ADMIN_EMAIL, ADMIN_PASSWORD } = config();
  if (!teamMode() || !ADMIN_EMAIL || !ADMIN_PASSWORD) return;
  const d = await db();
  if ((await d.user.count()) > 0) return;
  const admin = await createUser({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD, role: 'admin' });
  const project = await createProject({ name: 'Default', slug: 'default', by: admin.id });
  await addMember({ userId: admin.id, projectId: project.id, role: 'admin', by: admin.id });
}
