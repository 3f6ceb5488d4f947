// An OpenEnv server attached with OPENENV_ENVS, through the CLI a user types: `bridges`, `check`,
// `step` and a `rollout` with scripted:schema-random — and the fixture's own count of what it served
// shows every episode went over /ws.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpenEnvFixture, startOpenEnvFixture } from '../../bridges/openenv/testing/fixture.ts';
import { type Config, config } from '../config.ts';
import { runCli } from './testing.ts';

let dir: string;
let cfg: Config;
let fixture: OpenEnvFixture;
let saved: string | undefined;

beforeAll(async () => {
  fixture = await startOpenEnvFixture();
  dir = mkdtempSync(path.join(tmpdir(), 'cli-openenv-'));
  const openenv = `grid=${fixture.url}`;
  // Episode worker threads read the process's configuration: they see the server too.
  saved = process.env.OPENENV_ENVS;
  process.env.OPENENV_ENVS = openenv;
  cfg = {
    ...config(),
    DATA_DIR: dir,
    REDIS_URL: undefined,
    DATABASE_URL: undefined,
    OPENENV_ENVS: openenv,
  };
});

afterAll(async () => {
  if (saved === undefined) delete process.env.OPENENV_ENVS;
  else process.env.OPENENV_ENVS = saved;
  await fixture.close();
  rmSync(dir, { recursive: true, force: true });
});

const cli = (...argv: string[]) => runCli(argv, { config: cfg });

describe('an OpenEnv server on the command line', () => {
  it('is listed with its action schema, and passes harness check', async () => {
    const listed = await cli('bridges', '--json');
    expect(listed.code).toBe(0);
    const grid = JSON.parse(listed.out).find((b: { name: string }) => b.name === 'grid');
    expect(grid).toMatchObject({
      tasks: 1,
      textTool: { name: 'act', arg: 'message' },
      origin: { protocol: 'openenv', actionSchema: { title: 'GridAction' } },
    });
    const check = await cli('check', 'grid', '--tasks', '1', '--steps', '4', '--json');
    expect(check.code).toBe(0);
    expect(JSON.parse(check.out).ok).toBe(true);
  });

  it('steps through typed commands, and a schema-random rollout goes over /ws', async () => {
    const actions = path.join(dir, 'moves.txt');
    writeFileSync(actions, 'right\nfly\ndown\n');
    const stepped = await cli(
      'step',
      '--spec',
      'grid:default',
      '--seed',
      '1',
      '--actions',
      actions,
      '--json',
      '--in-process',
    );
    expect(stepped.code).toBe(0);
    const steps = JSON.parse(stepped.out).steps as { observation: { text: string } }[];
    expect(steps[1]?.observation.text).toContain('Invalid action: Invalid message');

    const before = fixture.events();
    const rollout = await cli(
      'rollout',
      '--spec',
      'grid:default',
      '--policy',
      'scripted:schema-random',
      '--episodes',
      '3',
      '--max-steps',
      '12',
      '--json',
    );
    expect(rollout.err).toBe('');
    expect(rollout.code).toBe(0);
    const report = JSON.parse(rollout.out);
    expect(report.episodes).toHaveLength(3);
    expect(report.errors).toBe(0);
    const after = fixture.events();
    expect((after.ws_open ?? 0) - (before.ws_open ?? 0)).toBeGreaterThanOrEqual(3);
    expect((after.ws_reset ?? 0) - (before.ws_reset ?? 0)).toBeGreaterThanOrEqual(3);
    expect((after.ws_step ?? 0) - (before.ws_step ?? 0)).toBeGreaterThanOrEqual(3);
    expect(after.http_reset ?? 0).toBe(0);
    expect(after.http_step ?? 0).toBe(0);
    // The database opens and the episode workers start within the test: slower on a loaded machine.
  }, 90_000);

  it('leaves a server that is down out of the list, saying why', async () => {
    const down = { ...cfg, OPENENV_ENVS: `${cfg.OPENENV_ENVS},gone=http://127.0.0.1:9` };
    const listed = await runCli(['bridges'], { config: down });
    expect(listed.code).toBe(0);
    expect(listed.out).not.toMatch(/^gone/m);
    expect(listed.err).toMatch(
      /bridge 'gone' is left out: openenv env 'gone' .*cannot reach the server/,
    );
  });
});
