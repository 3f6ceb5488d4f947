// The sign-in rate limit: failed attempts are counted per email (whether or not an account has it,
// so the limit reveals nothing) and per client address; past a few free failures each further one
// doubles the wait, up to a cap. A lockout goes to the audit trail.
import type { Db } from '../db/index.ts';
import { UnauthorizedError } from '../errors.ts';

export const SIGNIN_LIMITS = {
  /** Failures older than this are forgotten. */
  windowMs: 60 * 60_000,
  /** Failures an email may have (since its last success) before it must wait. */
  accountFree: 5,
  /** Failures one address may have before it must wait (several people may share it). */
  addressFree: 20,
  firstDelayMs: 1000,
  maxDelayMs: 15 * 60_000,
} as const;

/** The wait after `failures` failures when `free` are allowed: none, then 1 s, 2 s, 4 s … capped. */
export function backoffMs(failures: number, free: number): number {
  if (failures < free) return 0;
  const doubled = SIGNIN_LIMITS.firstDelayMs * 2 ** Math.min(failures - free, 30);
  return Math.min(doubled, SIGNIN_LIMITS.maxDelayMs);
}

/** A sign-in refused before the password is checked; the HTTP form answers 429 + Retry-After. */
export class SignInThrottledError extends UnauthorizedError {
  override name = 'SignInThrottledError';
  constructor(readonly retryAfterSeconds: number) {
    super(`too many sign-in attempts; try again in ${retryAfterSeconds} s`);
  }
}

type Scope = 'account' | 'address';
type AuditFn = (o: {
  action: string;
  target: string;
  details: Record<string, unknown>;
}) => Promise<void>;

export class SignInThrottle {
  constructor(
    private readonly db: Db,
    private readonly now: () => number,
    private readonly audit: AuditFn,
  ) {}

  /** Failures of one scope in the window (for an email: since its last success), newest first. */
  private async failures(scope: Scope, key: string): Promise<Date[]> {
    let since = new Date(this.now() - SIGNIN_LIMITS.windowMs);
    const where = scope === 'account' ? { email: key } : { ip: key };
    if (scope === 'account') {
      const success = await this.db.loginAttempt.findFirst({
        where: { ...where, ok: true, at: { gte: since } },
        orderBy: { at: 'desc' },
        select: { at: true },
      });
      if (success) since = success.at;
    }
    const rows = await this.db.loginAttempt.findMany({
      where: { ...where, ok: false, at: { gt: since } },
      orderBy: { at: 'desc' },
      // Past this many the wait is at its cap anyway.
      take: 64,
      select: { at: true },
    });
    return rows.map((r) => r.at);
  }

  private async waitFor(scope: Scope, key: string): Promise<number> {
    const failures = await this.failures(scope, key);
    const latest = failures[0];
    if (!latest) return 0;
    const free = scope === 'account' ? SIGNIN_LIMITS.accountFree : SIGNIN_LIMITS.addressFree;
    return Math.max(0, latest.getTime() + backoffMs(failures.length, free) - this.now());
  }

  /** Throws SignInThrottledError while the email or the address has to wait. */
  async check(email: string, ip: string): Promise<void> {
    const wait = Math.max(await this.waitFor('account', email), await this.waitFor('address', ip));
    if (wait > 0) throw new SignInThrottledError(Math.ceil(wait / 1000));
  }

  /** Records an attempt; a failure that makes its email or address wait is audited. */
  async record(email: string, ip: string, ok: boolean): Promise<void> {
    const at = new Date(this.now());
    await this.db.loginAttempt.create({ data: { email, ip, ok, at } });
    // Keep the table small: a day is far longer than the window.
    await this.db.loginAttempt.deleteMany({
      where: { at: { lt: new Date(at.getTime() - 86_400_000) } },
    });
    if (ok) return;
    for (const [scope, key, free] of [
      ['account', email, SIGNIN_LIMITS.accountFree],
      ['address', ip, SIGNIN_LIMITS.addressFree],
    ] as const) {
      const n = (await this.failures(scope, key)).length;
      const waitMs = backoffMs(n, free);
      if (waitMs > 0) {
        await this.audit({
          action: 'auth.lockout',
          target: key,
          details: { scope, failures: n, waitSeconds: Math.ceil(waitMs / 1000) },
        });
      }
    }
  }
}
