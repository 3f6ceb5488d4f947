// Issue 16 item 7 on a real (embedded) database: sessions are server-side and end at sign-out; sign-in
// is rate-limited per account and per address with a doubling back-off, lockouts are audited; an
// unknown email costs a real scrypt, so timing does not tell which emails have accounts.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDb, type TestDb } from '../db/testing.ts';
import { resolveCaller } from './caller.ts';
import { verifyPassword } from './password.ts';
import { Accounts } from './service.ts';
import { SIGNIN_LIMITS, SignInThrottledError } from './throttle.ts';

// The real scrypt, watched: which stored hash each sign-in checked the password against.
vi.mock('./password.ts', async (original) => {
  const real = await original<typeof import('./password.ts')>();
  return { ...real, verifyPassword: vi.fn(real.verifyPassword) };
});

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
  it('an unknown email costs the same scrypt as a wrong password (a dummy hash of the same parameters)', async () => {
    now += SIGNIN_LIMITS.windowMs;
    const checked = vi.mocked(verifyPassword);
    const against = async (email: string, ip: string) => {
      checked.mockClear();
      expect(await attempt(email, 'not-the-password', ip)).toBe('wrong');
      expect(checked).toHaveBeenCalledTimes(1);
      return checked.mock.calls[0]?.[1] ?? '';
    };
    const known = await against('known@x.test', '10.4.0.1');
    const unknown = await against('unknown@x.test', '10.4.0.2');
    // `scrypt$N$r$p$salt$hash`: the same work factor, so the same time, whoever asks. (Before, an
    // unknown email answered in 3–17 ms against 50–90 ms, without any scrypt.)
    const params = (stored: string) => stored.split('$').slice(0, 4);
    expect(params(unknown)).toEqual(params(known));
    expect(unknown).not.toBe(known);
  }, 60_000);
});
