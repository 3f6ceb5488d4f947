// The rollout CLI family end to end, in-process, on an embedded database in a temp folder.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ComposeOptions, composeServices } from '../../compose.ts';
import { type Config, config } from '../../config.ts';
import { eventLoopEngine } from '../../rollouts/default-engine.ts';
import { runCli } from '../testing.ts';

let dir: string;
let cfg: Config;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'cli-rollout-'));
  // The CLI on an embedded database of its own (handed in, not swapped into the process's config).
  cfg = { ...config(), DATA_DIR: dir, REDIS_URL: undefined, DATABASE_URL: undefined };
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const cli = (...argv: string[]) => runCli(argv, { config: cfg });

describe('harness rollout / runs / show / export / policies', () => {
  it('runs, persists and reproduces a scripted rollout', async () => {
    const args = [
      'rollout',
      '--spec',
      'household:eval_seen-003',
      '--policy',
      'scripted:household-explorer',
      '--episodes',
      '3',
      '--seed',
      '7',
      '--json',
    ];
    const a = await cli(...args);
    expect(a.err).toBe('');
    expect(a.code).toBe(0);
    const first = JSON.parse(a.out);
    expect(first.episodes).toHaveLength(3);
    expect(first.episodes.map((e: { seed: number }) => e.seed)).toEqual([7, 8, 9]);
    expect(first.interval).toHaveLength(2);
    expect(Object.keys(first.failureDistribution)).toContain('step_budget_exhausted');
    expect(typeof first.meanSteps).toBe('number');
    expect(first.errors).toBe(0);

    const b = await cli(...args);
    const second = JSON.parse(b.out);
    expect(second.runId).not.toBe(first.runId);
    const { runId: _a, ...restA } = first;
    const { runId: _b, ...restB } = second;
    expect(restB).toEqual(restA);

    const show = await cli('show', first.runId, '--json');
    expect(show.code).toBe(0);
    const shown = JSON.parse(show.out);
    expect(shown.status).toBe('completed');
    expect(shown.episodes).toHaveLength(3);
    expect(shown.metrics.successRate).toBe(first.successRate);

    const exported = await cli('export', '--run', first.runId, '--format', 'jsonl');
    expect(exported.code).toBe(0);
    const lines = exported.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(3);
    for (const [i, line] of lines.entries()) {
      expect(line.trajectory).toHaveLength(first.episodes[i].steps);
      expect(line.trajectory[0].index).toBe(0);
      expect(typeof line.trajectory[0].observation.text).toBe('string');
    }

    const runs = await cli('runs', '--json');
    const ids = JSON.parse(runs.out).map((r: { id: string }) => r.id);
    expect(ids).toEqual(expect.arrayContaining([first.runId, second.runId]));
  }, 120_000);

  it('--group-size G plays every start seed G times; the GRPO export groups by it', async () => {
    const a = await cli(
      'rollout',
      '--spec',
      'household:eval_seen-003',
      '--policy',
      'scripted:household-explorer',
      '--episodes',
      '6',
      '--group-size',
      '3',
      '--seed',
      '7',
      '--json',
    );
    expect(a.err).toBe('');
    const run = JSON.parse(a.out);
    expect(run.groupSize).toBe(3);
    expect(run.invalidLoopLimit).toBeNull();
    expect(run.episodes.map((e: { seed: number }) => e.seed)).toEqual([7, 8, 9, 10, 11, 12]);
    expect(run.episodes.map((e: { startSeed: number }) => e.startSeed)).toEqual([7, 7, 7, 8, 8, 8]);
    const grpo = await cli('export', '--run', run.runId, '--format', 'grpo');
    expect(grpo.code).toBe(0);
    const rows = grpo.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows).toHaveLength(6);
    const groups = new Map<string, { initialObservation: string; actions: string[] }[]>();
    for (const r of rows) groups.set(r.group, [...(groups.get(r.group) ?? []), r]);
    expect([...groups.keys()]).toEqual(['eval_seen-003@start7', 'eval_seen-003@start8']);
    for (const members of groups.values()) {
      expect(members).toHaveLength(3);
      expect(typeof members[0]?.initialObservation).toBe('string');
      expect(new Set(members.map((m) => m.initialObservation)).size).toBe(1);
      // The scripted explorer searches in an order drawn from its policy seed.
      expect(new Set(members.map((m) => m.actions.join('|'))).size).toBeGreaterThan(1);
    }
    const wrong = await cli('export', '--run', run.runId, '--format', 'grpo', '--group-size', '4');
    expect(wrong.code).toBe(1);
    expect(wrong.err).toMatch(/--group-size belongs to the rollout/);
    const odd = await cli(
      'rollout',
      '--spec',
      'toy24:4-7-8-8',
      '--policy',
      'scripted:toy24-exact',
      '--episodes',
      '5',
      '--group-size',
      '2',
    );
    expect(odd.code).toBe(2);
    expect(odd.err).toMatch(/--episodes \(5\) must be a multiple of --group-size \(2\)/);
  }, 120_000);

  it("runs a single scripted episode on the CLI's thread and records it as a worker would", async () => {
    const engines: unknown[] = [];
    const compose = async (o: ComposeOptions) => {
      engines.push(o.engine);
      return composeServices(o);
    };
    const rollout = (k: string) =>
      runCli(
        [
          'rollout',
          '--spec',
          'household:eval_seen-003',
          '--policy',
          'scripted:household-explorer',
          '-k',
          k,
          '--seed',
          '4',
          '--json',
        ],
        { config: cfg, compose },
      );
    const one = await rollout('1');
    const two = await rollout('2');
    expect([one.code, two.code]).toEqual([0, 0]);
    // The single episode ran on the CLI's event loop; a run of two went to the worker pool.
    expect(engines).toEqual([eventLoopEngine, undefined]);
    // Everything recorded of the episode but its ids and timings.
    const episode = async (runId: string) => {
      const line = (await cli('export', '--run', runId, '--format', 'jsonl')).out.split('\n')[0];
      const { id, runId: _, durationMs, startedAt, finishedAt, ...rest } = JSON.parse(line ?? '');
      expect([id, durationMs, startedAt, finishedAt]).not.toContain(undefined);
      return rest;
    };
    const a = await episode(JSON.parse(one.out).runId);
    expect(a.trajectory.length).toBeGreaterThan(1);
    expect(a).toEqual(await episode(JSON.parse(two.out).runId));
    const runs = JSON.parse((await cli('runs', '--json')).out).map((r: { id: string }) => r.id);
    expect(runs).toContain(JSON.parse(one.out).runId);
  }, 120_000);

  it('lists policies and refuses an unknown one with one line', async () => {
    const list = await cli('policies', '--bridge', 'household', '--json');
    const ids = JSON.parse(list.out).map((p: { id: string }) => p.id);
    expect(ids).toContain('scripted:household-explorer');
    expect(ids).not.toContain('scripted:toy24-exact');
    const bad = await cli('rollout', '--spec', 'toy24:4-7-8-8', '--policy', 'nope', '--json');
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/^harness: unknown policy 'nope'/);
    expect(bad.err.trim().split('\n')).toHaveLength(1);
    const human = await cli('rollout', '--spec', 'toy24:4-7-8-8', '--policy', 'human', '--json');
    expect(human.code).toBe(1);
    expect(human.err).toMatch(/played interactively/);
  }, 60_000);
  it('opens the database while it loads, yet a bad flag leaves no folder and a busy one is one line', async () => {
    const other = path.join(dir, 'other');
    const at =
      (c: Config) =>
      (...argv: string[]) =>
        runCli(argv, { config: c });
    const otherCli = at({ ...cfg, DATA_DIR: other });
    const spec = ['rollout', '--spec', 'toy24:4-7-8-8', '--policy', 'scripted:toy24-exact'];
    const usage = await otherCli(...spec, '-k', '0');
    expect(usage).toMatchObject({ code: 2, out: '' });
    expect(usage.err).toBe('harness: --episodes must be at least 1\n');
    expect(existsSync(other)).toBe(false);
    // The folder held by a live process (this one): the open started early fails where the
    // services are awaited, as one line.
    mkdirSync(other, { recursive: true });
    writeFileSync(path.join(other, 'pglite.lock'), String(process.pid));
    const busy = await otherCli(...spec, '--json');
    expect(busy).toMatchObject({ code: 1, out: '' });
    expect(busy.err).toMatch(
      /^harness: the embedded database .* is already open in this process\n$/,
    );
    rmSync(path.join(other, 'pglite.lock'));
    const ok = await otherCli(...spec, '--json');
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.out)).toMatchObject({
      status: 'completed',
      episodes: [{ outcome: 'success' }],
    });
  }, 60_000);
});
