// No secrets in client bundles: the browser's JavaScript (.next/static, built first when missing)
// reads no server-only configuration, carries no secret-shaped values and bundles no server-only
// module (database client, sandbox, password hashing).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { config } from '../config.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const STATIC = path.join(ROOT, '.next', 'static');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : [full];
  });
}

describe('client bundles', () => {
  it('carry no server configuration, secret values or server-only modules', () => {
    if (!existsSync(STATIC)) {
      execFileSync('npx', ['next', 'build'], { cwd: ROOT, stdio: 'ignore', timeout: 240_000 });
    }
    const js = files(STATIC).filter((f) => f.endsWith('.js'));
    expect(js.length).toBeGreaterThan(5);
    const secrets = [
      config().OPENAI_API_KEY,
      config().AUTH_SECRET,
      config().DATABASE_URL,
      config().ADMIN_PASSWORD,
    ].filter((v): v is string => typeof v === 'string' && v.length >= 8);
    const findings: string[] = [];
    for (const file of js) {
      const text = readFileSync(file, 'utf8');
      const rel = path.relative(ROOT, file);
      const env =
        /process\.env\.(DATABASE_URL|OPENAI_API_KEY|OPENAI_BASE_URL|AUTH_SECRET|REDIS_URL|ADMIN_PASSWORD|ADMIN_EMAIL)/.exec(
          text,
        );
      if (env) findings.push(`${rel}: reads ${env[0]}`);
      const shaped =
        /(?<![\w-])sk-(?:proj-)?[A-Za-z0-9]{32,}|postgres(?:ql)?:\/\/[^\s"'@/]+:[^\s"'@/]+@|redis:\/\/[^\s"'@/]*:[^\s"'@/]+@/.exec(
          text,
        );
      if (shaped) findings.push(`${rel}: secret-shaped value ${shaped[0].slice(0, 12)}…`);
      for (const marker of [
        'PrismaClient',
        'quickjs-emscripten',
        '@electric-sql/pglite',
        'scryptSync',
        'timingSafeEqual',
      ]) {
        if (text.includes(marker)) findings.push(`${rel}: bundles ${marker}`);
      }
      for (const secret of secrets)
        if (text.includes(secret)) findings.push(`${rel}: contains a configured secret`);
    }
    expect(findings).toEqual([]);
  }, 300_000);
});
