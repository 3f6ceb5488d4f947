// The one place that reads process.env. Everything else receives configuration from here.
import '#server-only';
import { z } from 'zod';
import { InvalidInputError } from './errors.ts';

const EnvSchema = z.object({
  /** PostgreSQL server; unset -> embedded PGlite under DATA_DIR. */
  DATABASE_URL: z.string().url().optional(),
  /** Folder for the embedded database and other local state. */
  DATA_DIR: z.string().default('./.data'),
  /** Redis for BullMQ scale-out and the cross-process event bus; unset -> in-process queue and bus. */
  REDIS_URL: z.string().url().optional(),
  /** In-process episode workers (embedded queue). */
  ROLLOUT_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  OPENAI_BASE_URL: z.string().url().optional(),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_MODEL: z.string().optional(),
  OPENAI_TEMPERATURE: z.coerce.number().min(0).max(2).default(0),
  /** Skip loading demo content at start. */
  NO_DEMO: z.stringbool().default(false),
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
