// The one place that reads process.env. Everything else receives configuration from here.
import '#server-only';
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { RUN_MAX_CONCURRENCY } from '../contracts/launch.ts';
import { InvalidInputError } from './errors.ts';

/**
 * Episode worker threads one process runs at once, all runs together, unless configured: two per
 * core (episodes wait on environments and model servers as much as they compute), 4 to 32. Each
 * thread costs tens of MB: 64 of them took a 2-core host to a load of 45 and 3 GB.
 */
export const DEFAULT_MAX_WORKERS = Math.min(32, Math.max(4, availableParallelism() * 2));

/** Episodes at once one run may ask for unless configured (bench/llm-bound.ts: 512 fit one process). */
export const DEFAULT_MAX_MODEL_BOUND = 512;

const EnvSchema = z.object({
  /** PostgreSQL server; unset -> embedded PGlite under DATA_DIR. */
  DATABASE_URL: z.string().url().optional(),
  /** Folder for the embedded database and other local state. */
  DATA_DIR: z.string().default('./.data'),
  /** Redis for BullMQ scale-out and the cross-process event bus; unset -> in-process queue and bus. */
  REDIS_URL: z.string().url().optional(),
  /**
   * How long database calls ride out a PostgreSQL restart or a dropped connection (retried with
   * back-off, one status line per outage: server/db/retry.ts) before they fail; 0: no retries.
   */
  DB_RETRY_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
  /**
   * Scale-out: how often unfinished BullMQ runs have the jobs of their unfinished episodes put back
   * on the queue (a Redis that lost them, a launch while Redis was down); 0: only at start and when
   * Redis comes back. The database is the source of truth (server/rollouts/README.md).
   */
  RESUME_INTERVAL_MS: z.coerce.number().int().min(0).max(86_400_000).default(30_000),
  /** Episodes at once for a local run that does not say (embedded queue). */
  ROLLOUT_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  /**
   * The most episodes at once one run may ask for: a launch asking more is refused. Episodes that
   * only wait on a model (an openai policy on a stack without hook code) run on the event loop, so
   * hundreds fit; the others get at most ROLLOUT_MAX_WORKERS threads whatever a run asks.
   */
  ROLLOUT_MAX_CONCURRENCY: z.coerce
    .number()
    .int()
    .min(1)
    .max(RUN_MAX_CONCURRENCY)
    .default(DEFAULT_MAX_MODEL_BOUND),
  /** Episode worker threads of this process, all local runs together (the pool's bound). */
  ROLLOUT_MAX_WORKERS: z.coerce.number().int().min(1).max(256).default(DEFAULT_MAX_WORKERS),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  /**
   * Host names the studio answers to (Host and Origin headers), comma-separated, besides localhost,
   * 127.0.0.1, [::1] and HOST. Checked without team mode (a page elsewhere must not reach the local
   * studio by DNS rebinding); in team mode only when set.
   */
  ALLOWED_HOSTS: z
    .string()
    .regex(
      /^\s*[\w.:[\]-]+(\s*,\s*[\w.:[\]-]+)*\s*$/,
      'expected host names separated by commas, e.g. studio.lan,192.168.1.20',
    )
    .optional(),
  OPENAI_BASE_URL: z.string().url().optional(),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_MODEL: z.string().optional(),
  OPENAI_TEMPERATURE: z.coerce.number().min(0).max(2).default(0),
  /**
   * US dollars per million tokens, for the cost estimate beside token counts (a run's policy
   * options pricePromptPerM / priceCompletionPerM / priceCachedPerM win); unset: no estimate.
   * Cached prompt tokens cost the prompt price unless OPENAI_PRICE_CACHED_PER_M says otherwise.
   */
  OPENAI_PRICE_PROMPT_PER_M: z.coerce.number().min(0).optional(),
  OPENAI_PRICE_COMPLETION_PER_M: z.coerce.number().min(0).optional(),
  OPENAI_PRICE_CACHED_PER_M: z.coerce.number().min(0).optional(),
  /** A folder of `<bridge>.txt` few-shot files for the ReAct text mode, over the bundled ones. */
  REACT_PROMPTS_DIR: z.string().min(1).optional(),
  /** Skip loading demo content at start. */
  NO_DEMO: z.stringbool().default(false),
  /**
   * Tests only: adds the verifier fixture bridges `lockbox` (a sound verifier) and `lockbox-lax`
   * (its evaluate ignores the goal), so the audit's failure paths can be driven end to end.
   */
  FIXTURE_BRIDGES: z.stringbool().default(false),
  /** The Chromium the webshop bridge drives; missing -> webshop is marked unavailable, others run. */
  CHROMIUM_PATH: z.string().min(1).default('/usr/bin/chromium'),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  /**
   * Environment servers attached as bridges (bridges/remote/README.md): `name=url[,name=url]`.
   * A remote named `remote` replaces the bundled reference server.
   */
  REMOTE_ENVS: z
    .string()
    .regex(
      /^\s*[a-z][\w-]*=https?:\/\/[^\s,]+(\s*,\s*[a-z][\w-]*=https?:\/\/[^\s,]+)*\s*$/,
      'expected name=url[,name=url], e.g. alfworld=http://127.0.0.1:8000',
    )
    .optional(),
  /**
   * OpenEnv servers attached as bridges (bridges/openenv/README.md):
   * `name=http://host:port[;tasks=FILE][;observation=FIELD][;success=final-reward|reward-sum]`,
   * several separated by commas. A server that is down is left out of the bridge list.
   */
  OPENENV_ENVS: z
    .string()
    .regex(
      /^\s*[a-z][\w-]*=https?:\/\/[^\s,;]+(;[a-z]+=[^,;]*)*(\s*,\s*[a-z][\w-]*=https?:\/\/[^\s,;]+(;[a-z]+=[^,;]*)*)*\s*$/,
      'expected name=url[;tasks=FILE][;observation=FIELD][;success=final-reward|reward-sum][,name=url…], e.g. grid=http://127.0.0.1:8000',
    )
    .optional(),
  /** Team mode: set a secret (≥ 32 characters) to require sign-in, roles and projects. Unset -> one local user. */
  AUTH_SECRET: z.string().min(32).optional(),
  /** Team mode: how long a sign-in lasts. */
  SESSION_TTL_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 90)
    .default(24 * 7),
  /** Team mode: default lifetime of a shareable read-only link. */
  SHARE_TTL_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 365)
    .default(24 * 7),
  /** Team mode: the first admin, created at start when no user exists yet. */
  ADMIN_EMAIL: z.string().email().optional(),
  ADMIN_PASSWORD: z.string().min(8).optional(),
});

export type Config = z.infer<typeof EnvSchema>;

let cached: Config | undefined;

export function config(): Config {
  if (!cached) {
    const parsed = EnvSchema.safeParse(process.env);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
      throw new InvalidInputError(`invalid configuration: ${issues}`);
    }
    cached = parsed.data;
  }
  return cached;
}
