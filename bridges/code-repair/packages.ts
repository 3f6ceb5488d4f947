// The small JavaScript packages code-repair tasks are made from (packages/<name>): src/ and test/
// are what a checkout holds; hidden/ holds the held-out tests only the verifier runs.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PACKAGES_DIR = fileURLToPath(new URL('./packages/', import.meta.url));
export const PACKAGE_NAMES = ['interval', 'strfmt', 'lru', 'csv', 'semver', 'money'] as const;

function walk(dir: string, root: string, out: string[]): void {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, root, out);
    else out.push(relative(root, path));
  }
}

/** Relative paths of every file of a package (hidden tests included), sorted. */
export function packageFiles(pkg: string): string[] {
  const root = join(PACKAGES_DIR, pkg);
  const out: string[] = [];
  walk(root, root, out);
  return out;
}

/** Files an agent's checkout starts with: everything but hidden/. */
export function checkoutFiles(pkg: string): string[] {
  return packageFiles(pkg).filter((f) => !f.startsWith('hidden/'));
}

export function readPackageFile(pkg: string, file: string): string {
  return readFileSync(join(PACKAGES_DIR, pkg, file), 'utf8');
}

export function visibleTestFiles(pkg: string): string[] {
  return packageFiles(pkg).filter((f) => f.startsWith('test/') && f.endsWith('.test.js'));
}

export function hiddenTestFiles(pkg: string): string[] {
  return packageFiles(pkg).filter((f) => f.startsWith('hidden/') && f.endsWith('.test.js'));
}

/** Content hash of a package, so a stale task cache is detected. */
export function packageHash(pkg: string): string {
  const hash = createHash('sha256');
  for (const file of packageFiles(pkg)) {
    hash.update(file).update('\0').update(readPackageFile(pkg, file)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}
