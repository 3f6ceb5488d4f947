// The openenv bridge against a real OpenEnv-protocol server (the Python standard-library fixture in
// testing/, a separate process, real WebSocket framing): attaching reads /health and /schema, every
// episode goes over /ws, and each way a server can fail is an infra error — never a task failure.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runContractSuite } from '../core/contract-suite.ts';
import { kindOf } from '../core/errors.ts';
import type { Action, Bridge } from '../core/types.ts';
import { createBridgeRegistry } from '../index.ts';
import { createOpenEnvBridge } from './index.ts';
import { type OpenEnvFixture, startOpenEnvFixture } from './testing/fixture.ts';

let fixture: OpenEnvFixture;
let bridge: Bridge;
const move = (message: string): Action => ({ name: 'act', args: { message } });

beforeAll(async () => {
  fixture = await startOpenEnvFixture();
  bridge = await createOpenEnvBridge({ name: 'grid', url: fixture.url });
});
afterAll(() => fixture.close());

/** The moves from (0,0) to the goal the observation names. */
function pathTo(text: string): string[] {
  const m = /goal is at \((\d+), (\d+)\)/.exec(text);
  if (!m) throw new Error(`no goal in ${text}`);
  return [
    ...Array.from({ length: Number(m[1]) }, () => 'right'),
    ...Array.from({ length: Number(m[2]) }, () => 'down'),
  ];
}

describe('attaching an OpenEnv server', () => {
  it('makes one tool from the action schema, typed as the schema says, and the text tool', () => {
    const [tool] = bridge.tools();
    expect(tool?.name).toBe('act');
    expect(tool?.parameters).toMatchObject({
      type: 'object',
      required: ['message'],
      properties: { message: { type: 'string', pattern: '^(up|down|left|right)$' } },
    });
    // OpenEnv's Action base field `metadata` is not the agent's to choose.
    expect(Object.keys(tool?.parameters.properties as object)).toEqual(['message']);
    expect(bridge.textTool).toEqual({ name: 'act', arg: 'message' });
    expect(bridge.origin).toMatchObject({ protocol: 'openenv', url: fixture.url });
    expect(bridge.origin?.actionSchema).toMatchObject({ title: 'GridAction' });
    expect(bridge.description).toContain("OpenEnv server 'GridEnv'");
  });

  it('has the single task `default` without a tasks file, and the file’s tasks with one', async () => {
    expect((await bridge.listTasks()).map((t) => t.id)).toEqual(['default']);
    const dir = mkdtempSync(join(tmpdir(), 'openenv-tasks-'));
    const file = join(dir, 'tasks.json');
    writeFileSync(file, JSON.stringify({ small: { size: 2 }, large: { size: 6, max_steps: 40 } }));
    const withTasks = await createOpenEnvBridge({
      name: 'grid',
      url: fixture.url,
      tasksFile: file,
    });
    expect((await withTasks.listTasks()).map((t) => t.id)).toEqual(['small', 'large']);
    const env = await withTasks.create();
    const reset = await env.reset({ taskId: 'large', seed: 3 });
    expect(reset.observation.text).toContain('6x6 grid');
    await env.close();
    writeFileSync(file, '[1, 2]');
    await expect(
      createOpenEnvBridge({ name: 'grid', url: fixture.url, tasksFile: file }),
    ).rejects.toThrow(/tasks file .* must be an object of task id → reset kwargs/);
  });

  it('passes the ActionableEnv contract suite (harness check), every episode over /ws', async () => {
    const before = fixture.events();
    const results = await runContractSuite(bridge, { tasks: 1, steps: 4 });
    expect(results.filter((r) => !r.ok)).toEqual([]);
    const after = fixture.events();
    expect((after.ws_reset ?? 0) - (before.ws_reset ?? 0)).toBeGreaterThan(5);
    expect((after.ws_step ?? 0) - (before.ws_step ?? 0)).toBeGreaterThan(5);
    // No episode used OpenEnv's stateless HTTP routes.
    expect(after.http_reset ?? 0).toBe(0);
    expect(after.http_step ?? 0).toBe(0);
  });
});

describe('an episode', () => {
  it('renders the observation, keeps the raw dict in info, and ends done with the env’s own verdict', async () => {
    const env = await bridge.create();
    const reset = await env.reset({ taskId: 'default', seed: 7 });
    // prompt first, then the other fields.
    expect(reset.observation.text).toMatch(/^A new episode\. You are at \(0, 0\)/);
    expect(reset.observation.text).toContain('legal_actions: ');
    expect(reset.info.admissibleCommands).toEqual(['down', 'right']);
    expect(reset.info.openenv).toMatchObject({ observation: { position: [0, 0] }, done: false });
    expect(env.getEnvState()).not.toHaveProperty('episode_id');
    let last = { terminated: false, reward: 0 };
    for (const m of pathTo(reset.observation.text)) last = await env.step(move(m));
    expect(last).toMatchObject({ terminated: true, reward: 1 });
    expect(await env.evaluate()).toMatchObject({
      success: true,
      score: 1,
      rule: 'final-reward: done with a positive final reward',
    });
    await env.close();
  });

  it('shows the field a per-server option names', async () => {
    const named = await createOpenEnvBridge({
      name: 'grid',
      url: fixture.url,
      observationField: 'position',
    });
    const env = await named.create();
    expect((await env.reset({ taskId: 'default', seed: 1 })).observation.text).toBe('0, 0');
    await env.close();
  });

  it('VALIDATION_ERROR is an invalid action in the server’s words, and the session goes on', async () => {
    const env = await bridge.create();
    const reset = await env.reset({ taskId: 'default', seed: 2 });
    const bad = await env.step(move('fly'));
    expect(bad.info.invalid).toBe(true);
    expect(bad.reward).toBe(0);
    expect(bad.observation.text).toContain('Invalid action: Invalid message');
    expect(bad.observation.text).toContain('message: String should match pattern');
    const [first] = pathTo(reset.observation.text);
    const ok = await env.step(move(first!));
    expect(ok.info.invalid).toBeUndefined();
    expect(ok.observation.text).toContain(`You move ${first}`);
    await env.close();
  });
});

describe('server failures are infra errors', () => {
  for (const fault of ['garbage', 'error', 'drop'] as const) {
    it(`a step answered with ${fault}`, async () => {
      const env = await bridge.create();
      await env.reset({ taskId: 'default', seed: 1, options: { fault } });
      const error = await env.step(move('down')).catch((e: unknown) => e);
      expect(kindOf(error)).toBe('infra');
      expect(String(error)).toMatch(
        fault === 'garbage'
          ? /reply to step is not JSON/
          : fault === 'error'
            ? /answered step with EXECUTION_ERROR: the simulator crashed/
            : /closed the session/,
      );
      await env.close();
    });
  }

  it('a server that dies mid-episode; one that is down is left out of the list, saying why', async () => {
    const own = await startOpenEnvFixture();
    const b = await createOpenEnvBridge({ name: 'dying', url: own.url });
    const env = await b.create();
    await env.reset({ taskId: 'default', seed: 1, options: { fault: 'exit' } });
    const error = await env.step(move('down')).catch((e: unknown) => e);
    expect(kindOf(error)).toBe('infra');
    await own.exited;
    await env.close();
    const left: string[] = [];
    const registry = createBridgeRegistry({
      loaders: new Map(),
      openenvs: [
        { name: 'alive', url: fixture.url },
        { name: 'down', url: own.url, timeoutMs: 1_000 },
      ],
      onUnavailable: (name, e) => left.push(`${name}: ${(e as Error).message}`),
    });
    expect((await registry.list()).map((x) => x.name)).toEqual(['alive']);
    expect(left).toEqual([
      expect.stringMatching(/^down: openenv env 'down' .*cannot reach the server/),
    ]);
  });
});
