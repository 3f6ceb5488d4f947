// The app router: one sub-router per domain noun. The studio imports only the AppRouter type.
import { bridgesRouter, tasksRouter } from './routers/tasks.ts';
import { createCallerFactory, router } from './trpc.ts';

export const appRouter = router({
  bridges: bridgesRouter,
  tasks: tasksRouter,
});

export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
