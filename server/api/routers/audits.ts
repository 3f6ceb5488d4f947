// Verifier audits (server/audit): run one for a bridge (its probes play in the studio's worker
// pool, then are stored as runs of kind `audit`), read the newest per bridge (the audit page, the
// task picker's mark), one audit, and the history.
import { z } from 'zod';
import { runAudit } from '../../audit/service.ts';
import {
  auditVerdicts,
  getAudit,
  latestBridgeAudits,
  listAudits,
  runDisagreements,
} from '../../audit/store.ts';
import { researcherProcedure, router, sharedReadProcedure, viewerProcedure } from '../trpc.ts';

export const auditsRouter = router({
  /** Each bridge's newest audit verdict (passed, suspicious tasks): what the task picker marks. */
  verdicts: viewerProcedure.query(({ ctx }) => auditVerdicts(ctx.db, ctx.auth.projectId)),

  /** Each bridge's newest audit, whole: one table per bridge on the audit page. */
  latest: viewerProcedure.query(({ ctx }) => latestBridgeAudits(ctx.db, ctx.auth.projectId)),

  byId: viewerProcedure
    .input(z.object({ id: z.string().min(1) }))
    .query(({ input, ctx }) => getAudit(ctx.db, input.id, ctx.auth.projectId)),

  list: viewerProcedure
    .input(z.object({ bridge: z.string().optional() }).optional())
    .query(({ input, ctx }) =>
      listAudits(ctx.db, {
        ...(input?.bridge ? { bridge: input.bridge } : {}),
        projectId: ctx.auth.projectId,
      }),
    ),

  /** A run's episodes whose summed reward and verdict disagree: the run page's live warning. */
  disagreements: sharedReadProcedure('run', 'runId')
    .input(z.object({ runId: z.string().min(1) }))
    .query(({ input, ctx }) => runDisagreements(ctx.db, input.runId)),

  /** Audits a bridge now (a split, a sample of it) and stores the report and its probe episodes. */
  run: researcherProcedure
    .input(
      z.object({
        bridge: z.string().min(1),
        split: z.string().min(1).optional(),
        sample: z.number().int().min(1).max(10_000).optional(),
        seed: z.number().int().min(0).max(1_000_000).default(0),
      }),
    )
    .mutation(({ input, ctx }) =>
      runAudit(
        {
          db: ctx.db,
          bridges: ctx.services.bridges,
          play: (job) => ctx.services.studio.job('audit', job),
        },
        input,
        { createdBy: ctx.actor, projectId: ctx.auth.projectId },
      ),
    ),
});
