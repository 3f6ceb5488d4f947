// Authorisation for every tRPC procedure and subscription (the middleware in server/api/trpc.ts
// calls authorize()). Team mode only: the embedded default has one local user who may do anything.
//   - anonymous callers are refused (UNAUTHORIZED), except the sign-in helpers in PUBLIC_PATHS;
//   - the caller must be a member of the active project, with the role the call needs
//     (queries and subscriptions: viewer; mutations: researcher; ADMIN_PATHS: admin);
//   - a resource named in the input (run, episode, harness, version, rig, candidate, bank,
//     comparison, project) must belong to the active project;
//   - a share-link visitor (no account) may only read the one shared thing.
import type { PrismaClient } from '../db/index.ts';
import { ForbiddenError, UnauthorizedError } from '../errors.ts';
import { rolloutDb } from '../rollouts/db.ts';
import { audit, ROLE_RANK, type TeamRole } from './service.ts';
import type { SharePayload } from './tokens.ts';

export interface AuthState {
  signedIn: boolean;
  userId?: string;
  /** The active project (request header / cookie, else the caller's first membership). */
  projectId?: string;
  /** The caller's role in the active project; undefined when not a member. */
  projectRole?: TeamRole;
  share?: SharePayload;
}

/** Callable without an account: who am I, and nothing else. */
export const PUBLIC_PATHS = new Set(['auth.me']);
export const ADMIN_PATHS = new Set(['auth.createInvite', 'auth.setMember', 'auth.createProject']);
/** What a shared page needs besides the shared thing itself: the static catalogue. */
const CATALOGUE_PATHS = new Set(['bridges.list', 'tasks.list', 'tasks.byId', 'policies.list']);

export function requiredRole(path: string, type: string): TeamRole {
  if (ADMIN_PATHS.has(path)) return 'admin';
  return type === 'mutation' ? 'researcher' : 'viewer';
}

type ResourceKind =
  | 'run'
  | 'episode'
  | 'harness'
  | 'harnessVersion'
  | 'rig'
  | 'candidate'
  | 'bank'
  | 'comparison'
  | 'project';

/** What a bare `id` names, per procedure. */
const ID_KIND: Record<string, ResourceKind> = {
  'runs.byId': 'run',
  'runs.cancel': 'run',
  'runs.episode': 'episode',
  'harnesses.byId': 'harness',
  'harnesses.version': 'harnessVersion',
  'skills.bank': 'bank',
  'skills.comparison': 'comparison',
  'rigs.byId': 'rig',
};

const KEY_KIND: Record<string, ResourceKind> = {
  runId: 'run',
  episodeId: 'episode',
  harnessId: 'harness',
  harnessVersionId: 'harnessVersion',
  rigId: 'rig',
  candidateId: 'candidate',
  bankId: 'bank',
  projectId: 'project',
};

export function resourcesOf(path: string, input: unknown): { kind: ResourceKind; id: string }[] {
  if (input === null || typeof input !== 'object') return [];
  const record = input as Record<string, unknown>;
  const out: { kind: ResourceKind; id: string }[] = [];
  const idKind = ID_KIND[path];
  if (idKind && typeof record.id === 'string') out.push({ kind: idKind, id: record.id });
  for (const [key, kind] of Object.entries(KEY_KIND)) {
    const value = record[key];
    if (typeof value === 'string' && value !== '') out.push({ kind, id: value });
  }
  return out;
}

/** The resource's project: a project id, null (made before team mode: shared), undefined (absent). */
export async function projectOf(
  db: PrismaClient,
  r: { kind: ResourceKind; id: string },
): Promise<string | null | undefined> {
  switch (r.kind) {
    case 'project':
      return r.id;
    case 'run':
      return (await db.run.findUnique({ where: { id: r.id }, select: { projectId: true } }))
        ?.projectId;
    case 'episode':
      return (
        await db.episode.findUnique({
          where: { id: r.id },
          select: { run: { select: { projectId: true } } },
        })
      )?.run.projectId;
    case 'harness':
      return (await db.harness.findUnique({ where: { id: r.id }, select: { projectId: true } }))
        ?.projectId;
    case 'harnessVersion':
      return (
        await db.harnessVersion.findUnique({
          where: { id: r.id },
          select: { harness: { select: { projectId: true } } },
        })
      )?.harness.projectId;
    case 'rig':
      return (await db.rig.findUnique({ where: { id: r.id }, select: { projectId: true } }))
        ?.projectId;
    case 'candidate':
      return (
        await db.candidate.findUnique({
          where: { id: r.id },
          select: { rig: { select: { projectId: true } } },
        })
      )?.rig.projectId;
    case 'bank':
      return (await db.skillBank.findUnique({ where: { id: r.id }, select: { projectId: true } }))
        ?.projectId;
    case 'comparison':
      return (await db.comparison.findUnique({ where: { id: r.id }, select: { projectId: true } }))
        ?.projectId;
  }
}

/** The run an episode belongs to (share links name runs; trajectories are episodes). */
async function runOfEpisode(db: PrismaClient, episodeId: string): Promise<string | undefined> {
  return (await db.episode.findUnique({ where: { id: episodeId }, select: { runId: true } }))
    ?.runId;
}

async function shareCovers(
  db: PrismaClient,
  share: SharePayload,
  r: { kind: ResourceKind; id: string },
): Promise<boolean> {
  switch (share.kind) {
    case 'run':
    case 'comparison':
      if (r.kind === 'run') return share.ids.includes(r.id);
      if (r.kind === 'episode') return share.ids.includes((await runOfEpisode(db, r.id)) ?? '');
      return false;
    case 'trajectory':
      if (r.kind === 'episode') return share.ids.includes(r.id);
      // The trajectory page shows its run's header.
      if (r.kind === 'run') {
        for (const ep of share.ids) if ((await runOfEpisode(db, ep)) === r.id) return true;
      }
      return false;
    case 'harnessVersion':
      return r.kind === 'harnessVersion' && share.ids.includes(r.id);
  }
}

/** Read-only procedures a shared page may call, given the shared thing. */
const SHARE_READS = new Set([
  'runs.byId',
  'runs.episodes',
  'runs.episode',
  'runs.steps',
  'runs.stepFlags',
  'runs.stateAt',
  'runs.events',
  'runs.live',
  'harnesses.version',
]);

export async function authorize(o: {
  auth: AuthState | undefined;
  path: string;
  type: string;
  input: unknown;
  db?: PrismaClient;
}): Promise<void> {
  const { auth, path, type } = o;
  if (!auth) return;
  if (PUBLIC_PATHS.has(path)) return;
  const db = o.db ?? (await rolloutDb());
  const resources = resourcesOf(path, o.input);

  if (!auth.signedIn) {
    if (!auth.share) throw new UnauthorizedError('sign in to use the studio');
    if (CATALOGUE_PATHS.has(path) && type === 'query') return;
    if (!SHARE_READS.has(path) || resources.length === 0) {
      throw new ForbiddenError('a share link opens one thing read-only; sign in for more');
    }
    for (const r of resources) {
      if (!(await shareCovers(db, auth.share, r))) {
        throw new ForbiddenError('this share link does not cover that');
      }
    }
    return;
  }

  if (!auth.projectId || !auth.projectRole) {
    throw new ForbiddenError('you are not a member of this project');
  }
  const need = requiredRole(path, type);
  if (ROLE_RANK[auth.projectRole] < ROLE_RANK[need]) {
    throw new ForbiddenError(`${path} needs the ${need} role; you are a ${auth.projectRole} here`);
  }
  for (const r of resources) {
    const project = await projectOf(db, r);
    // Absent: the procedure answers NOT_FOUND itself. Null: made before team mode, shared.
    if (project === undefined || project === null) continue;
    if (project !== auth.projectId) {
      throw new ForbiddenError(`that ${r.kind} belongs to another project`);
    }
  }
}

/** Mutations that only try things out (no lasting effect) stay out of the audit trail. */
const UNAUDITED = new Set([
  'harnesses.check',
  'harnesses.testOnTrajectory',
  'play.start',
  'play.step',
  'play.replay',
  'play.close',
]);

/** The audit trail: every successful team-mode mutation, with who, when, what and on what. */
export async function recordCall(o: {
  auth: AuthState | undefined;
  path: string;
  type: string;
  input: unknown;
  output: unknown;
}): Promise<void> {
  if (!o.auth?.signedIn || !o.auth.userId || o.type !== 'mutation' || UNAUDITED.has(o.path)) return;
  const input = (o.input ?? {}) as Record<string, unknown>;
  const output = (o.output ?? {}) as Record<string, unknown>;
  const target =
    resourcesOf(o.path, input)[0]?.id ??
    (typeof output.runId === 'string' ? output.runId : undefined) ??
    (typeof output.id === 'string' ? output.id : undefined) ??
    null;
  const details: Record<string, unknown> = {};
  for (const key of ['decision', 'reason', 'policy', 'taskIds', 'k', 'name', 'kind', 'role']) {
    if (input[key] !== undefined) details[key] = input[key];
  }
  await audit({
    actor: o.auth.userId,
    action: o.path,
    target,
    projectId: o.auth.projectId ?? null,
    details,
  });
}
