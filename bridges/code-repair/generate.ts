// Generates tasks.json: for each package, run every test (visible + hidden) on the original and on
// each mutant; keep mutants with at least one FAIL_TO_PASS test (SWE-bench's definitions) and no
// time-out. Run once after changing a package: `npx tsx bridges/code-repair/generate.ts`.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fnv1a as fnv, mulberry32 as seededRandom } from '../core/rng.ts';
import { applyMutation, type Mutation, mutationsOf, OPERATORS } from './mutate.ts';
import {
  hiddenTestFiles,
  PACKAGE_NAMES,
  PACKAGES_DIR,
  packageFiles,
  packageHash,
  readPackageFile,
  visibleTestFiles,
} from './packages.ts';
import { runNodeTests, type TestOutcome } from './runner.ts';
import type { CodeRepairTask } from './tasks.ts';

/** Mutants tried per package (runs cost ~0.3 s each) and tasks kept per package. */
const MAX_TRIED = 70;
const MAX_KEPT = 30;

/** Round-robin over operators, each operator's mutants in a seeded order: a varied sample. */
function sampleOrder(mutations: Mutation[], seed: number): Mutation[] {
  const rng = seededRandom(seed);
  const groups = OPERATORS.map((op) => {
    const list = mutations.filter((m) => m.operator === op);
    for (let i = list.length - 1; i > 0; i--) {
      const j = Math.floor(rng() * (i + 1));
      [list[i], list[j]] = [list[j]!, list[i]!];
    }
    return list;
  });
  const out: Mutation[] = [];
  for (let round = 0; out.length < mutations.length; round++) {
    for (const g of groups) if (g[round]) out.push(g[round]!);
  }
  return out;
}

function shortMessage(message: string | undefined): string {
  if (!message) return '';
  const text = message.replace(/\s+/g, ' ').trim();
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}

function problemStatement(
  pkg: string,
  symbol: string,
  failing: TestOutcome[],
  visible: boolean,
): string {
  const shown = failing.slice(0, 2);
  const lines = shown.map((t) => {
    const msg = shortMessage(t.message);
    return `- "${t.name}" no longer holds${msg ? ` (${msg})` : ''}`;
  });
  const more =
    failing.length > shown.length
      ? `\n- and ${failing.length - shown.length} more checks fail`
      : '';
  const where = symbol === '(module)' ? '' : `The behaviour involves \`${symbol}\`. `;
  const tests = visible
    ? 'The failing behaviour shows up in the package tests under test/.'
    : 'The package tests under test/ still pass, so they do not cover this case.';
  return (
    `Bug report for the \`${pkg}\` package: after a recent change it misbehaves:\n` +
    `${lines.join('\n')}${more}\n${where}${tests} Fix the source (src/) without changing the tests.`
  );
}

async function generatePackage(pkg: string): Promise<CodeRepairTask[]> {
  const dir = mkdtempSync(join(tmpdir(), `code-repair-gen-${pkg}-`));
  try {
    cpSync(join(PACKAGES_DIR, pkg), dir, { recursive: true });
    const files = [...visibleTestFiles(pkg), ...hiddenTestFiles(pkg)];
    const run = () => runNodeTests({ cwd: dir, files, timeoutMs: 10_000 });
    const original = await run();
    const failed = original.outcomes.filter((o) => o.status === 'fail');
    if (original.timedOut || failed.length > 0 || original.outcomes.length === 0)
      throw new Error(
        `${pkg}: the original fails its own tests: ${failed.map((f) => f.id).join(', ')}`,
      );
    const allIds = original.outcomes.map((o) => o.id);
    const sources = packageFiles(pkg).filter((f) => f.startsWith('src/'));
    const mutations = sources.flatMap((f) => mutationsOf(f, readPackageFile(pkg, f)));
    const kept: CodeRepairTask[] = [];
    const perLine = new Map<string, number>();
    let tried = 0;
    for (const m of sampleOrder(mutations, fnv(pkg))) {
      if (tried >= MAX_TRIED || kept.length >= MAX_KEPT) break;
      tried += 1;
      const source = readPackageFile(pkg, m.file);
      writeFileSync(join(dir, m.file), applyMutation(source, m));
      const report = await run();
      writeFileSync(join(dir, m.file), source);
      if (report.timedOut || report.overflow) continue;
      const status = new Map(report.outcomes.map((o) => [o.id, o]));
      // A test missing from the mutant's run (its file did not load) counts as failing.
      const f2p = allIds.filter((id) => status.get(id)?.status !== 'pass');
      if (f2p.length === 0) continue;
      const p2p = allIds.filter((id) => status.get(id)?.status === 'pass');
      const visibleFailing = f2p.filter((id) => id.startsWith('test/'));
      const failing = [...visibleFailing, ...f2p.filter((id) => !id.startsWith('test/'))].map(
        (id) =>
          status.get(id) ??
          report.outcomes.find((o) => o.name === '(load)') ?? {
            id,
            file: id.split('::')[0]!,
            name: id.split('::')[1]!,
            status: 'fail' as const,
          },
      );
      const key = `${m.operator}-L${m.line}`;
      const n = perLine.get(key) ?? 0;
      perLine.set(key, n + 1);
      const id = `${pkg}__${key}${n > 0 ? String.fromCharCode(97 + n) : ''}`;
      kept.push({
        id,
        package: pkg,
        operator: m.operator,
        file: m.file,
        line: m.line,
        before: m.before,
        after: m.after,
        change: m.change,
        symbol: m.symbol,
        problem: problemStatement(pkg, m.symbol, failing, visibleFailing.length > 0),
        FAIL_TO_PASS: f2p,
        PASS_TO_PASS: p2p,
        visibleFailing,
        split: fnv(id) % 5 === 0 ? 'test' : 'train',
        // Hidden-only bugs are hardest; many failing tests make a bug easy to locate.
        difficulty:
          visibleFailing.length === 0
            ? 0.9
            : Math.round(Math.max(0.1, 0.7 - 0.1 * visibleFailing.length) * 100) / 100,
      });
    }
    process.stderr.write(
      `${pkg}: ${kept.length} tasks from ${tried} of ${mutations.length} mutants\n`,
    );
    return kept;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const tasks: CodeRepairTask[] = [];
const packages: Record<string, string> = {};
for (const pkg of PACKAGE_NAMES) {
  packages[pkg] = packageHash(pkg);
  tasks.push(...(await generatePackage(pkg)));
}
writeFileSync(
  new URL('./tasks.json', import.meta.url),
  `${JSON.stringify({ version: 1, packages, tasks }, null, 1)}\n`,
);
process.stderr.write(`${tasks.length} tasks written\n`);
