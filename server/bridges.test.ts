import { describe, expect, it } from 'vitest';
import { openenvsFromConfig, remotesFromConfig, warnLeftOut } from './bridges.ts';

describe('REMOTE_ENVS', () => {
  it('names each environment server', () => {
    expect(remotesFromConfig('alfworld=http://127.0.0.1:8000, shop=http://localhost:9/x')).toEqual([
      { name: 'alfworld', url: 'http://127.0.0.1:8000' },
      { name: 'shop', url: 'http://localhost:9/x' },
    ]);
    expect(remotesFromConfig(undefined)).toEqual([]);
  });
});

describe('OPENENV_ENVS', () => {
  it('names each OpenEnv server with its options', () => {
    expect(
      openenvsFromConfig(
        'grid=http://127.0.0.1:8000;tasks=./t.json;observation=prompt;success=reward-sum, ta=http://h:9',
      ),
    ).toEqual([
      {
        name: 'grid',
        url: 'http://127.0.0.1:8000',
        tasksFile: './t.json',
        observationField: 'prompt',
        success: 'reward-sum',
      },
      { name: 'ta', url: 'http://h:9' },
    ]);
    expect(() => openenvsFromConfig('g=http://h:1;success=always')).toThrow(
      /success must be final-reward or reward-sum, got 'always'/,
    );
    expect(() => openenvsFromConfig('g=http://h:1;colour=red')).toThrow(/unknown option 'colour'/);
  });

  it('says once that a server is left out, and why', () => {
    const lines: string[] = [];
    const warn = warnLeftOut((l) => lines.push(l));
    warn('grid', new Error('cannot reach the server (ECONNREFUSED)'));
    warn('grid', new Error('cannot reach the server (ECONNREFUSED)'));
    expect(lines).toEqual([
      'bridge grid is left out of the bridge list: cannot reach the server (ECONNREFUSED)',
    ]);
  });
});
