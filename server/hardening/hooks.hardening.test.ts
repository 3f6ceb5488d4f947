// 10,000 generated hooks (random programs and known attacks) through the Contract sandbox: the
// host never crashes, nothing escapes (canaries on the host's globals, prototypes, a file and
// timers), every attack ends as a harness error, and host memory returns to its baseline.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { SandboxHost } from '../harness/sandbox/index.ts';
import { IsolatedPool } from '../harness/worker-pool.ts';
import { type CorpusHook, generateCorpus } from './hook-corpus.ts';
import { type HookOutcome, reportsEscape, runHook } from './hook-runner.ts';
import type { BatchResult } from './pool-handlers.ts';

const HANDLERS = fileURLToPath(new URL('./pool-handlers.ts', import.meta.url));
const CORPUS_SIZE = 10_000;
/** Hooks run on the test's own thread; the rest go to two workers in batches. */
const ON_HOST = 2_000;
const BATCH = 250;

declare global {
  var __hardeningCanary: string | undefined;
}

function snapshotHost(): string {
  const names = (o: object) => Object.getOwnPropertyNames(o).sort().join(',');
  return [
    names(globalThis),
    names(Object.prototype),
    names(Array.prototype),
    names(Function.prototype),
    names(String.prototype),
    String(globalThis.__hardeningCanary),
    String(process.exitCode),
  ].join('|');
}

function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 50));
}

function memory(): { heap: number; rss: number } {
  globalThis.gc?.();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, rss: m.rss };
}

interface CorpusReport {
  tried: number;
  attacks: number;
  benign: number;
  probes: number;
  crashes: number;
  escapes: number;
  attacksNotStopped: CorpusHook[];
  otherErrors: { hook: CorpusHook; outcome: HookOutcome }[];
  ms: number;
}

describe('hostile hook corpus', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'hooks-hardening-'));
  const canary = path.join(dir, 'escape-canary');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(`runs ${CORPUS_SIZE} hooks: 0 crashes, 0 escapes, attacks end as harness errors, memory returns`, async () => {
    const corpus = generateCorpus({ seed: 20261130, size: CORPUS_SIZE, canaryPath: canary });
    expect(corpus).toHaveLength(CORPUS_SIZE);
    expect(new Set(corpus.map((h) => h.family)).size).toBeGreaterThanOrEqual(10);

    // Host crash detectors: anything escaping to the event loop counts.
    let crashes = 0;
    const onCrash = () => {
      crashes += 1;
    };
    process.on('uncaughtException', onCrash);
    process.on('unhandledRejection', onCrash);
    globalThis.__hardeningCanary = 'intact';
    const hostBefore = snapshotHost();

    // Warm the sandbox up so the baseline includes the compiled wasm module.
    const host = new SandboxHost({ hookTimeoutMs: 30 });
    await runHook(host, corpus[0]!);
    const before = memory();

    const t0 = performance.now();
    const report: CorpusReport = {
      tried: 0,
      attacks: 0,
      benign: 0,
      probes: 0,
      crashes: 0,
      escapes: 0,
      attacksNotStopped: [],
      otherErrors: [],
      ms: 0,
    };
    const record = (h: CorpusHook, outcome: HookOutcome) => {
      report.tried += 1;
      if (h.kind === 'benign') report.benign += 1;
      else if (h.kind === 'probe') report.probes += 1;
      else report.attacks += 1;
      if (reportsEscape(outcome)) report.escapes += 1;
      if (outcome.status === 'other-error') report.otherErrors.push({ hook: h, outcome });
      if ((h.kind === 'attack' || h.kind === 'builtin') && outcome.status !== 'harness-error') {
        report.attacksNotStopped.push(h);
      }
    };

    // The first slice runs on this thread (whose globals an escape would touch); the rest in
    // batches on two pool workers, which report their own canaries; long built-ins one by one,
    // since only the watchdog's thread kill stops them.
    const plain = corpus.filter((c) => c.kind !== 'builtin');
    const byId = new Map(corpus.map((h) => [h.id, h]));
    for (const h of plain.slice(0, ON_HOST)) record(h, await runHook(host, h));
    host.dispose();

    const pool = new IsolatedPool({ size: 2, module: HANDLERS, hookLimitMs: 1000 });
    try {
      const rest = plain.slice(ON_HOST);
      const batches: CorpusHook[][] = [];
      for (let i = 0; i < rest.length; i += BATCH) batches.push(rest.slice(i, i + BATCH));
      // A hook the watchdog had to kill takes its worker (and the rest of its batch) with it:
      // that batch is replayed one hook per job, so each hook gets its own verdict.
      const single = (h: CorpusHook): Promise<BatchResult> =>
        pool.run<BatchResult>('batch', [h]).catch(
          (e: unknown): BatchResult => ({
            outcomes: [
              {
                id: h.id,
                outcome:
                  e instanceof Error && e.name === 'HarnessCodeError'
                    ? { status: 'harness-error', message: e.message }
                    : {
                        status: 'other-error',
                        name: String((e as Error).name),
                        message: String(e),
                      },
              },
            ],
            hostTouched: false,
          }),
        );
      const results = await Promise.all(
        batches.map((b) =>
          pool.run<BatchResult>('batch', b).catch(async (): Promise<BatchResult> => {
            const parts: BatchResult[] = [];
            for (const h of b) parts.push(await single(h));
            return {
              outcomes: parts.flatMap((p) => p.outcomes),
              hostTouched: parts.some((p) => p.hostTouched),
            };
          }),
        ),
      );
      for (const r of results) {
        if (r.hostTouched) report.escapes += 1;
        for (const { id, outcome } of r.outcomes) record(byId.get(id)!, outcome);
      }
      for (const h of corpus.filter((c) => c.kind === 'builtin')) {
        const res = await single(h);
        if (res.hostTouched) report.escapes += 1;
        for (const { outcome } of res.outcomes) record(h, outcome);
      }
    } finally {
      await pool.close();
    }
    report.ms = Math.round(performance.now() - t0);

    await settle();
    report.crashes = crashes;
    process.off('uncaughtException', onCrash);
    process.off('unhandledRejection', onCrash);
    const hostAfter = snapshotHost();
    if (hostAfter !== hostBefore || existsSync(canary)) report.escapes += 1;

    const after = memory();
    console.log(
      `hook corpus: ${report.tried} tried (${report.attacks} attacks, ${report.benign} benign, ${report.probes} oversize probes), ` +
        `${report.crashes} crashes, ${report.escapes} escapes, ${report.attacksNotStopped.length} attacks not stopped, ` +
        `${report.otherErrors.length} non-harness errors, ${report.ms} ms; ` +
        `heap ${(before.heap / 2 ** 20).toFixed(0)} -> ${(after.heap / 2 ** 20).toFixed(0)} MiB, ` +
        `rss ${(before.rss / 2 ** 20).toFixed(0)} -> ${(after.rss / 2 ** 20).toFixed(0)} MiB`,
    );
    const sample = (xs: unknown[]) => JSON.stringify(xs.slice(0, 3), null, 1);

    expect(report.tried).toBe(CORPUS_SIZE);
    expect(report.crashes).toBe(0);
    expect(report.escapes).toBe(0);
    expect(hostAfter).toBe(hostBefore);
    expect(existsSync(canary)).toBe(false);
    expect(report.otherErrors, sample(report.otherErrors)).toHaveLength(0);
    expect(report.attacksNotStopped, sample(report.attacksNotStopped)).toHaveLength(0);
    // Host memory back near baseline: a leak of even 2 KiB per hook would be 20 MiB here.
    expect(after.heap - before.heap).toBeLessThan(32 * 2 ** 20);
    expect(after.rss - before.rss).toBeLessThan(256 * 2 ** 20);
  }, 600_000);
});
