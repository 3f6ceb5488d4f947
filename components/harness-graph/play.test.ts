import { describe, expect, it } from 'vitest';
import { admissibleNow, canStep, initialPlay, parseToolArgs, playReducer } from './play.ts';

const started = {
  sessionId: 's1',
  observation: { text: 'You are in the middle of a room.' },
  info: { admissibleCommands: ['go to drawer 1', 'look'] },
};
const step = (command: string, o: { done?: boolean; blocked?: string; next?: string[] } = {}) => ({
  done: o.done ?? false,
  record: {
    action: { name: 'act', args: { command } },
    observation: { text: `did ${command}` },
    reward: o.done ? 1 : 0,
    ...(o.blocked ? { blocked: o.blocked } : {}),
    invalid: false,
    info: { admissibleCommands: o.next ?? [] },
  },
});

const fresh = () => initialPlay<typeof started, ReturnType<typeof step>>();

describe('try-it session', () => {
  it('logs the first observation, then each step with what it did', () => {
    let s = playReducer(fresh(), { type: 'started', session: started });
    expect(s.log).toEqual([{ observation: started.observation }]);
    expect(admissibleNow(s)).toEqual(['go to drawer 1', 'look']);
    s = playReducer(s, { type: 'stepped', result: step('look', { next: ['open drawer 1'] }) });
    s = playReducer(s, { type: 'stepped', result: step('rm -rf', { blocked: 'no shell' }) });
    expect(s.log.map((e) => e.action?.args.command)).toEqual([undefined, 'look', 'rm -rf']);
    expect(s.log[2]).toMatchObject({ blocked: 'no shell', reward: 0, invalid: false });
    expect(s.last?.record.action.args.command).toBe('rm -rf');
    expect(admissibleNow(s)).toEqual([]);
  });

  it('starts over on restart: a fresh log and no last step', () => {
    let s = playReducer(fresh(), { type: 'started', session: started });
    s = playReducer(s, { type: 'stepped', result: step('look', { done: true }) });
    s = playReducer(s, { type: 'started', session: { ...started, sessionId: 's2' } });
    expect(s.log).toHaveLength(1);
    expect(s.last).toBeNull();
    expect(s.session?.sessionId).toBe('s2');
  });

  it('a failed step ends the session and keeps its first cause until a restart', () => {
    let s = playReducer(fresh(), { type: 'started', session: started });
    expect(canStep(s)).toBe(true);
    s = playReducer(s, {
      type: 'failed',
      message: 'hook filterAction ran longer than its 250 ms limit',
    });
    expect(canStep(s)).toBe(false);
    s = playReducer(s, { type: 'failed', message: 'play session ended (idle or closed)' });
    expect(s.failure).toBe('hook filterAction ran longer than its 250 ms limit');
    s = playReducer(s, { type: 'started', session: { ...started, sessionId: 's2' } });
    expect(s.failure).toBeNull();
    expect(canStep(s)).toBe(true);
  });

  it('offers nothing before a session', () => {
    expect(admissibleNow(fresh())).toEqual([]);
  });

  it('reads tool arguments as JSON or says why not', () => {
    expect(parseToolArgs('{"file":"a.js"}')).toEqual({ ok: true, args: { file: 'a.js' } });
    expect(parseToolArgs('[1]').ok).toBe(false);
    const bad = parseToolArgs('{file}');
    expect(bad.ok).toBe(false);
    expect(bad.ok ? '' : bad.error).not.toBe('');
  });
});
