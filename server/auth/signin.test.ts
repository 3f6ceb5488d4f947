// Issue 16 item 7 on a real (embedded) database: sessions are server-side and end at sign-out; sign-in
// is rate-limited per account and per address with a doubling back-off, lockouts are audited; an
// unknown email costs a real scrypt, so timing does not tell which emails have accounts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../db/testing.ts';
import { resolveCaller } from './caller.ts';
import { Accounts } from './service.ts';
import { SIGNIN_LIMITS, SignInThrottledError } from './throttle.ts';

let handle: TestDb;
let accounts: Accounts;
let now = Date.now();

beforeAll(async () => {
  handle = await createTestDb('pglite');
  accounts = new Accounts(handle.db, {
    secret: 'signin-test-secret-0123456789abcdefghijkl',
    sessionTtlHours: 1,
    shareTtlHours: 1,
    now: () => now,
  });
  await accounts.createUser({ email: 'known@x.test', password: 'right-password' });
}, 60_000);

afterAll(async () => {
  await handle.close();
});

/** What a sign-in answers: 'ok', 'wrong', or 'wait <s>'. */
async function attempt(email: string, password: string, ip: string): Promise<string> {
  try {
    await accounts.signIn(email, password, { ip });
    return 'ok';
  } catch (e) {
    if (e instanceof SignInThrottledError) return `wait ${e.retryAfterSeconds}`;
    if (e instanceof Error && e.message === 'wrong email or password') return 'wrong';
    throw e;
  }
}

describe('sessions', () => {
  it('a signed-out session stops working at once; the same user’s other sessions go on', async () => {
    const first = await accounts.signIn('known@x.test', 'right-password', { ip: '10.0.0.1' });
    const second = await accounts.signIn('known@x.test', 'right-password', { ip: '10.0.0.1' });
    expect(await accounts.sessionUserId(first.token)).toBe(first.userId);
    await accounts.signOut(first.token);
    expect(await accounts.sessionUserId(first.token)).toBeUndefined();
    expect(await resolveCaller(accounts, { sessionToken: first.token })).toMatchObject({
      kind: 'anonymous',
    });
    expect(await accounts.sessionUserId(second.token)).toBe(second.userId);
    const row = await handle.db.session.findFirst({
      where: { userId: first.userId, revokedAt: { not: null } },
    });
    expect(row?.ip).toBe('10.0.0.1');
    // Expiry is the row's too.
    now += 3600_000 + 1000;
    expect(await accounts.sessionUserId(second.token)).toBeUndefined();
  });
});

describe('sign-in rate limit', () => {
  it('per account: free failures, then a doubling wait (even for the right password), audited', async () => {
    const ip = '10.1.0.1';
    for (let i = 0; i < SIGNIN_LIMITS.accountFree; i++) {
      expect(await attempt('known@x.test', `wrong-${i}`, ip)).toBe('wrong');
    }
    expect(await attempt('known@x.test', 'right-password', ip)).toBe('wait 1');
    now += 1100;
    expect(await attempt('known@x.test', 'wrong-again', ip)).toBe('wrong');
    expect(await attempt('known@x.test', 'right-password', ip)).toBe('wait 2');
    // Another address does not help: the limit is per account too.
    expect(await attempt('known@x.test', 'right-password', '10.1.0.2')).toBe('wait 2');
    now += 2100;
    expect(await attempt('known@x.test', 'right-password', ip)).toBe('ok');
    // A success forgives the account's failures.
    expect(await attempt('known@x.test', 'wrong-after', ip)).toBe('wrong');
    expect(await attempt('known@x.test', 'right-password', ip)).toBe('ok');
    const lockouts = await handle.db.auditLog.findMany({
      where: { action: 'auth.lockout', target: 'known@x.test' },
      orderBy: { id: 'asc' },
    });
    expect(lockouts.map((l) => l.details)).toEqual([
      { scope: 'account', failures: 5, waitSeconds: 1 },
      { scope: 'account', failures: 6, waitSeconds: 2 },
    ]);
  }, 60_000);

  it('an unknown email is limited exactly as a known one (the limit reveals nothing)', async () => {
    const ip = '10.2.0.1';
    const answers: string[] = [];
    for (let i = 0; i <= SIGNIN_LIMITS.accountFree; i++) {
      answers.push(await attempt('nobody@x.test', 'whatever-pass', ip));
    }
    expect(answers).toEqual([...Array(SIGNIN_LIMITS.accountFree).fill('wrong'), 'wait 1']);
  }, 60_000);

  it('per address: many emails from one address are limited; other addresses are not', async () => {
    now += SIGNIN_LIMITS.windowMs;
    const ip = '10.3.0.1';
    for (let i = 0; i < SIGNIN_LIMITS.addressFree; i++) {
      expect(await attempt(`spray-${i}@x.test`, 'guess-pass', ip)).toBe('wrong');
    }
    expect(await attempt('known@x.test', 'right-password', ip)).toBe('wait 1');
    expect(await attempt('known@x.test', 'right-password', '10.3.0.2')).toBe('ok');
    const audit = await handle.db.auditLog.findFirst({
      where: { action: 'auth.lockout', target: ip },
    });
    expect(audit?.details).toEqual({ scope: 'address', failures: 20, waitSeconds: 1 });
  }, 120_000);
});

describe('sign-in timing', () => {
  it('an unknown email takes about as long as a wrong password (scrypt on a dummy hash)', async () => {
    now += SIGNIN_LIMITS.windowMs;
    const time = async (email: string, i: number) => {
      const t0 = performance.now();
      expect(await attempt(email, 'not-the-password', `10.4.${i}.1`)).toBe('wrong');
      return performance.now() - t0;
    };
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    await time('warm-up@x.test', 99);
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 3; i++) {
      known.push(await time('known@x.test', i));
      unknown.push(await time(`unknown-${i}@x.test`, 10 + i));
    }
    // Before, an unknown email answered in 3–17 ms against 50–90 ms: a ratio near 0.1.
    expect(median(unknown) / median(known)).toBeGreaterThan(0.5);
  }, 60_000);
});
