// The app router: one sub-router per domain noun. The studio imports only the AppRouter type.
import { authRouter } from '../auth/router.ts';
import { auditsRouter } from './routers/audits.ts';
import { draftsRouter, followRouter } from './routers/drafts.ts';
import { harnessesRouter } from './routers/harnesses.ts';
import { lintRouter } from './routers/lint.ts';
import { playRouter } from './routers/play.ts';
import { policiesRouter } from './routers/policies.ts';
import { rigsRouter } from './routers/rigs.ts';
import { runsRouter } from './routers/runs.ts';
import { servingRouter } from './routers/serving.ts';
import { skillsRouter } from './routers/skills.ts';
import { bridgesRouter, tasksRouter } from './routers/tasks.ts';
import { createCallerFactory, router } from './trpc.ts';

export const appRouter = router({
  auth: authRouter,
  bridges: bridgesRouter,
  tasks: tasksRouter,
  policies: policiesRouter,
  runs: runsRouter,
  harnesses: harnessesRouter,
  play: playRouter,
  skills: skillsRouter,
  rigs: rigsRouter,
  serving: servingRouter,
  lint: lintRouter,
  audits: auditsRouter,
  drafts: draftsRouter,
  follow: followRouter,
});

export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
