// "Serve to a trainer": a harness version served from the studio process as an OpenEnv environment
// (server/serve). What the studio asks and what it is told back.
import { z } from 'zod';

export const ServeStartInputSchema = z.object({
  harnessVersionId: z.string().min(1),
  /** 0: a free port. */
  port: z.number().int().min(0).max(65535).default(0),
  /** Store every served episode as a run (`harness serve --record`). */
  record: z.boolean().default(false),
  maxSessions: z.number().int().min(1).max(256).default(16),
});
export type ServeStartInput = z.input<typeof ServeStartInputSchema>;

export const ServeVersionInputSchema = z.object({ harnessVersionId: z.string().min(1) });

/** A harness version served from the studio process, with its live counts. */
export interface ServedEndpoint {
  harnessVersionId: string;
  url: string;
  sessions: number;
  maxSessions: number;
  episodes: number;
  steps: number;
  record: boolean;
  /** The runs its episodes were recorded in (with record), oldest first. */
  runIds: string[];
  startedAt: string;
}
