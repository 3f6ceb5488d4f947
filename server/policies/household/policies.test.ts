// The household policies over the bare bridge: their success rates per task type must differ the
// way their documented weaknesses predict. The test may read the state view (to classify tasks);
// the policies never do.
import { describe, expect, it } from 'vitest';
import type { Json } from '../../../bridges/core/types.ts';
import { householdBridge } from '../../../bridges/household/index.ts';
import { type PlayResult, play, ratesByType } from '../testing/play.ts';
import type { Policy } from '../types.ts';
import {
  householdExplorer,
  householdLooper,
  householdNoOpen,
  householdNoTransform,
} from './policies.ts';

const tasks = await householdBridge.listTasks({ split: 'eval_seen' });
const TRANSFORM = [
  'pick_clean_then_place_in_recep',
  'pick_heat_then_place_in_recep',
  'pick_cool_then_place_in_recep',
];
const PLAIN = ['pick_and_place_simple', 'pick_two_obj_and_place', 'look_at_obj_in_light'];

async function runAll(policy: Policy, seed: number, skills?: string[]): Promise<PlayResult[]> {
  const out: PlayResult[] = [];
  for (const t of tasks)
    out.push(
      await play(householdBridge, policy, {
        taskId: t.id,
        seed,
        ...(skills ? { options: { skills } } : {}),
      }),
    );
  return out;
}

const rate = (rs: PlayResult[]) =>
  rs.length === 0 ? Number.NaN : rs.filter((r) => r.success).length / rs.length;
const ofTypes = (rs: PlayResult[], types: string[]) => rs.filter((r) => types.includes(r.taskType));
const nothing = (r: PlayResult) => r.observations.filter((o) => o === 'Nothing happens.').length;

/** True when every object of the goal's type starts inside a closed receptacle (read from the state view). */
async function targetHidden(taskId: string, seed: number): Promise<boolean> {
  const env = await householdBridge.create();
  try {
    await env.reset({ taskId, seed });
    const view = env.getEnvState() as {
      task: { objectType: string };
      receptacles: { name: string; openable: boolean; open?: boolean }[];
      objects: { type: string; location: string | null }[];
    } & Json;
    const closed = new Set(
      view.receptacles.filter((r) => r.openable && !r.open).map((r) => r.name),
    );
    const targets = view.objects.filter((o) => o.type === view.task.objectType);
    return (
      targets.length > 0 && targets.every((o) => o.location !== null && closed.has(o.location))
    );
  } finally {
    await env.close();
  }
}

const SEED = 0;
const explorer = await runAll(householdExplorer, SEED);

describe('household scripted policies, eval_seen (140 tasks)', () => {
  it('explorer is competent on every task type', () => {
    expect(rate(explorer)).toBeGreaterThanOrEqual(0.9);
    for (const [type, r] of Object.entries(ratesByType(explorer))) {
      expect(r.rate, type).toBeGreaterThanOrEqual(0.75);
    }
    expect(explorer.every((r) => nothing(r) === 0)).toBe(true);
  });

  it('no-transform fails every clean/heat/cool task and matches the explorer elsewhere', async () => {
    const results = await runAll(householdNoTransform, SEED);
    expect(rate(ofTypes(results, TRANSFORM))).toBe(0);
    expect(rate(ofTypes(results, PLAIN))).toBeGreaterThanOrEqual(0.9);
    expect(rate(ofTypes(results, PLAIN))).toBeGreaterThanOrEqual(
      rate(ofTypes(explorer, PLAIN)) - 0.1,
    );
    // It never types a transform command.
    expect(results.some((r) => r.commands.some((c) => /^(clean|heat|cool) /.test(c)))).toBe(false);

    const skilled = await runAll(householdNoTransform, SEED, ['verify-state-before-placing']);
    expect(rate(ofTypes(skilled, TRANSFORM))).toBeGreaterThanOrEqual(0.8);
    expect(skilled.some((r) => r.commands.some((c) => c.startsWith('examine ')))).toBe(true);
  });

  it('no-open never opens, succeeds on no task whose targets all start in closed receptacles, and the skill repairs it', async () => {
    const results = await runAll(householdNoOpen, SEED);
    expect(results.some((r) => r.commands.some((c) => c.startsWith('open ')))).toBe(false);
    const hidden: PlayResult[] = [];
    const visible: PlayResult[] = [];
    for (const r of results) ((await targetHidden(r.taskId, SEED)) ? hidden : visible).push(r);
    expect(hidden.length).toBeGreaterThan(10);
    expect(visible.length).toBeGreaterThan(10);
    expect(rate(hidden)).toBe(0);
    expect(rate(visible)).toBeGreaterThan(rate(hidden) + 0.4);
    expect(rate(results)).toBeLessThan(rate(explorer) - 0.25);
    // The explorer handles the hidden ones.
    const explorerHidden = explorer.filter((r) => hidden.some((h) => h.taskId === r.taskId));
    expect(rate(explorerHidden)).toBeGreaterThanOrEqual(0.85);

    const skilled = await runAll(householdNoOpen, SEED, ['open-closed-receptacles']);
    expect(rate(skilled)).toBeGreaterThanOrEqual(0.85);
  });

  it('looper repeats failed actions and burns its budget; the skill stops the repetition', async () => {
    const results = await runAll(householdLooper, SEED);
    const failures = results.filter((r) => !r.success);
    expect(rate(results)).toBeLessThan(rate(explorer) - 0.2);
    expect(failures.length).toBeGreaterThan(0);
    // It fails by running out of steps, not by giving up, and its failures are full of repeats.
    expect(failures.every((r) => r.outcome === 'budget')).toBe(true);
    const maxRepeat = (r: PlayResult) => {
      let best = 0;
      let run = 0;
      r.commands.forEach((c, i) => {
        const failed = r.observations[i + 1] === 'Nothing happens.';
        run = failed && c === r.commands[i - 1] ? run + 1 : failed ? 1 : 0;
        best = Math.max(best, run);
      });
      return best;
    };
    expect(failures.every((r) => maxRepeat(r) >= 4)).toBe(true);
    const mean = (rs: PlayResult[]) => rs.reduce((a, r) => a + nothing(r), 0) / rs.length;
    expect(mean(results)).toBeGreaterThan(10);

    const skilled = await runAll(householdLooper, SEED, ['avoid-repeating-failed-actions']);
    expect(rate(skilled)).toBeGreaterThan(rate(results) + 0.15);
    expect(skilled.every((r) => maxRepeat(r) <= 1)).toBe(true);
    expect(mean(skilled)).toBeLessThan(mean(results) / 2);
  });

  it('is deterministic per seed and varies with the seed', async () => {
    const some = tasks.slice(0, 12);
    for (const policy of [householdExplorer, householdLooper]) {
      for (const t of some) {
        const a = await play(householdBridge, policy, { taskId: t.id, seed: 4 });
        const b = await play(householdBridge, policy, { taskId: t.id, seed: 4 });
        expect(b.commands).toEqual(a.commands);
      }
    }
    const bySeed = await Promise.all(
      [1, 2, 3].map((seed) =>
        play(householdBridge, householdExplorer, { taskId: tasks[0]?.id ?? '', seed }),
      ),
    );
    expect(new Set(bySeed.map((r) => r.commands.join('|'))).size).toBeGreaterThan(1);
  });

  it('picks up where a Stage left it: infers location and held object from the admissible commands', async () => {
    const some = tasks.filter((t) => t.type !== 'look_at_obj_in_light').slice(0, 15);
    for (const t of some) {
      const env = await householdBridge.create();
      await env.reset({ taskId: t.id, seed: SEED });
      const view = env.getEnvState() as {
        task: { objectType: string };
        receptacles: { name: string; openable: boolean; open?: boolean }[];
        objects: { name: string; type: string; location: string | null }[];
      } & Json;
      await env.close();
      const target = view.objects.find((o) => o.type === view.task.objectType && o.location);
      const host = view.receptacles.find((r) => r.name === target?.location);
      if (!target || !host) throw new Error('no target');
      const act = (command: string) => ({ name: 'act', args: { command } });
      const setup = [
        act(`go to ${host.name}`),
        ...(host.openable && !host.open ? [act(`open ${host.name}`)] : []),
        act(`take ${target.name} from ${host.name}`),
      ];
      // A generous budget: this is about what it infers, not about how fast it searches a big room.
      const r = await play(householdBridge, householdExplorer, {
        taskId: t.id,
        seed: SEED,
        setup,
        maxSteps: 150,
      });
      expect(r.success, t.id).toBe(true);
      expect(r.commands.some((c) => c.startsWith(`take ${target.name}`))).toBe(false);
      expect(
        r.commands.filter((c) => r.observations[r.commands.indexOf(c) + 1] === 'Nothing happens.'),
      ).toEqual([]);
    }
  });

  it('searches receptacle types from options.searchPriors first', async () => {
    const task = tasks.find((t) => t.type === 'pick_and_place_simple');
    if (!task) throw new Error('no pick task');
    const goal = task.goal.match(/^put (?:a|some) (\S+) (?:in|on) (\S+)$/);
    const object = goal?.[1] ?? '';
    const r = await play(householdBridge, householdExplorer, {
      taskId: task.id,
      seed: SEED,
      options: { searchPriors: { [object]: ['toaster', 'garbagecan'] } },
    });
    const room = r.observations[0] ?? '';
    const first = r.commands[0] ?? '';
    const preferred = ['toaster', 'garbagecan'].filter((t) => room.includes(` ${t} 1`));
    expect(preferred.length).toBeGreaterThan(0);
    expect(preferred.some((t) => first.startsWith(`go to ${t} `))).toBe(true);
  });

  it('works in the older `put X in/on Y` dialect', async () => {
    const some = tasks.slice(0, 20);
    let ok = 0;
    for (const t of some) {
      const r = await play(householdBridge, householdExplorer, {
        taskId: t.id,
        seed: SEED,
        resetOptions: { dialect: 'put' },
      });
      if (r.success) ok += 1;
      expect(r.commands.some((c) => c.startsWith('move '))).toBe(false);
    }
    expect(ok / some.length).toBeGreaterThanOrEqual(0.85);
  });
});
