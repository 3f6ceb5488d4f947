// Bridges and their tasks, straight from the bridge registry (no database involved).
import { z } from 'zod';
import { TaskListInputSchema } from '../../catalogue.ts';
import { catalogueProcedure, router } from '../trpc.ts';

export const bridgesRouter = router({
  list: catalogueProcedure.query(({ ctx }) => ctx.services.catalogue.bridges()),
});

export const tasksRouter = router({
  list: catalogueProcedure
    .input(TaskListInputSchema)
    .query(({ input, ctx }) => ctx.services.catalogue.tasks(input)),

  byId: catalogueProcedure
    .input(z.object({ bridge: z.string().min(1), task: z.string().min(1) }))
    .query(({ input, ctx }) => ctx.services.catalogue.task(input.bridge, input.task)),
});
