// Which project a resource belongs to, and whether a share link covers it: what the tRPC resource
// guards (server/api/trpc.ts) check for every run, episode, harness … an input names.
import type { Db } from '../db/index.ts';
import { ForbiddenError, NotFoundError } from '../errors.ts';
import type { Caller } from './caller.ts';
import type { ShareScope } from './tokens.ts';

export type ResourceKind =
  | 'run'
  | 'episode'
  | 'harness'
  | 'harnessVersion'
  | 'rig'
  | 'candidate'
  | 'bank'
  | 'comparison'
  | 'project'
  | 'shareLink';

export interface ResourceRef {
  kind: ResourceKind;
  id: string;
}

/** The resource's project: a project id, null (made before team mode: shared), undefined (absent). */
export async function projectOf(db: Db, r: ResourceRef): Promise<string | null | undefined> {
  const id = r.id;
  switch (r.kind) {
    case 'project':
      return (await db.project.findUnique({ where: { id }, select: { id: true } }))?.id;
    case 'shareLink':
      return (await db.shareLink.findUnique({ where: { id }, select: { projectId: true } }))
        ?.projectId;
    case 'run':
      return (await db.run.findUnique({ where: { id }, select: { projectId: true } }))?.projectId;
    case 'episode':
      return (
        await db.episode.findUnique({
          where: { id },
          select: { run: { select: { projectId: true } } },
        })
      )?.run.projectId;
    case 'harness':
      return (await db.harness.findUnique({ where: { id }, select: { projectId: true } }))
        ?.projectId;
    case 'harnessVersion':
      return (
        await db.harnessVersion.findUnique({
          where: { id },
          select: { harness: { select: { projectId: true } } },
        })
      )?.harness.projectId;
    case 'rig':
      return (await db.rig.findUnique({ where: { id }, select: { projectId: true } }))?.projectId;
    case 'candidate':
      return (
        await db.candidate.findUnique({
          where: { id },
          select: { rig: { select: { projectId: true } } },
        })
      )?.rig.projectId;
    case 'bank':
      return (await db.skillBank.findUnique({ where: { id }, select: { projectId: true } }))
        ?.projectId;
    case 'comparison':
      return (await db.comparison.findUnique({ where: { id }, select: { projectId: true } }))
        ?.projectId;
  }
}

/** The run an episode belongs to (share links name runs; trajectories are episodes). */
async function runOfEpisode(db: Db, episodeId: string): Promise<string | undefined> {
  return (await db.episode.findUnique({ where: { id: episodeId }, select: { runId: true } }))
    ?.runId;
}

export async function shareCovers(
  db: Db,
  share: Pick<ShareScope, 'kind' | 'ids'>,
  r: ResourceRef,
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
    case 'rig':
      return rigCovers(db, share.ids, r);
  }
}

/**
 * A shared rig opens its page and what that page links to inside it: its candidates, its baseline
 * and validation runs and their episodes.
 */
async function rigCovers(db: Db, rigIds: string[], r: ResourceRef): Promise<boolean> {
  switch (r.kind) {
    case 'rig':
      return rigIds.includes(r.id);
    case 'candidate': {
      const c = await db.candidate.findUnique({ where: { id: r.id }, select: { rigId: true } });
      return c !== null && rigIds.includes(c.rigId);
    }
    case 'run':
    case 'episode': {
      const runId = r.kind === 'run' ? r.id : await runOfEpisode(db, r.id);
      if (!runId) return false;
      const n = await db.rig.count({
        where: {
          id: { in: rigIds },
          OR: [{ baselineRunId: runId }, { candidates: { some: { validationRunId: runId } } }],
        },
      });
      return n > 0;
    }
    default:
      return false;
  }
}

/**
 * Refuses unless the caller may read every resource named: a member only their active project's
 * (and rows made before team mode, which have none), a share-link visitor only what the link
 * covers. Another project's resource answers exactly as an absent one (NOT_FOUND, same words), so
 * a call does not reveal whether an id exists.
 */
export async function assertAccessible(db: Db, caller: Caller, refs: ResourceRef[]): Promise<void> {
  if (caller.kind === 'local' || refs.length === 0) return;
  for (const ref of refs) {
    if (caller.kind === 'share') {
      if (!(await shareCovers(db, caller.share, ref))) {
        throw new ForbiddenError('this share link does not cover that');
      }
      continue;
    }
    const project = await projectOf(db, ref);
    const visible =
      caller.kind === 'member' &&
      project !== undefined &&
      (project === null || project === caller.projectId);
    if (!visible) throw new NotFoundError(`${ref.kind} '${ref.id}' not found`);
  }
}
