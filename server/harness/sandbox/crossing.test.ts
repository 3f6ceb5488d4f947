// What crosses the sandbox boundary and what comes back (reply.ts, guest/runtime.js): arguments of
// the common shapes cross as raw strings and "unchanged" is decided inside the guest, so these
// tests pin that hooks see exactly the JSON values they saw before, and that every change a hook
// makes (returned or in place) still reaches the host.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Json } from '../../../bridges/core/types.ts';
import { CONTRACT_HOOKS } from '../contract.ts';
import { SandboxHost } from './index.ts';
import { actionPart, actionStrings, observationPart, resultPart, resultStrings } from './reply.ts';

const host = new SandboxHost();
beforeAll(() => host.ready());
afterAll(() => host.dispose());

function load(code: string) {
  return host.load(code, { hooks: CONTRACT_HOOKS });
}

const STRANGE = [
  'plain',
  '',
  'sep \u0001 and \u0002 and \u0003',
  'nul \u0000 inside',
  'emoji 🧽 pair',
  'lone \uD800 surrogate',
  'quotes " and \\ and \n newlines',
];

const REST = {
  observation: { text: 'You see a box. It is red. Nothing else.' },
  reward: 0,
  terminated: false,
  truncated: false,
};

describe('arguments', () => {
  it('an action reaches the hook as its JSON, whatever its strings hold', () => {
    const set = load('function filterAction(a) { return { blocked: JSON.stringify(a) }; }');
    const actions: Json[] = [
      ...STRANGE.map((command) => ({ name: 'act', args: { command } })),
      ...STRANGE.map((name) => ({ name: name || 'x', args: { [name]: 'v', b: '2' } })),
      { name: 'act', args: {} },
      { name: 'act', args: { n: 3, list: [1, 'a'] } },
      { name: 'act', args: JSON.parse('{"__proto__":"x","c":"y"}') as Json },
      { args: { command: 'look' }, name: 'reordered' },
    ];
    for (const action of actions) {
      set.provideState(() => ({}));
      expect(set.call('filterAction', [action])).toEqual({ blocked: JSON.stringify(action) });
    }
    set.dispose();
  });

  it('a step result and its observation reach the hooks as their JSON', () => {
    const set = load(`function modifyTransition(a, r) {
  const { info, ...rest } = r;
  return { ...r, info: { seen: JSON.stringify([a, rest]) } };
}
function filterObservation(o) { return JSON.stringify(o); }`);
    const action = { name: 'act', args: { command: 'look' } };
    const rests: Json[] = [
      ...STRANGE.map((text) => ({ ...REST, observation: { text } })),
      { ...REST, reward: 1.5e-7, terminated: true },
      { ...REST, observation: { text: 'with data', data: { x: [1] } } },
      { observation: { text: 'order' }, truncated: true, reward: 0, terminated: false },
    ];
    for (const rest of rests) {
      set.provideState(() => ({}));
      const out = set.after(action, rest, {});
      const seen = (rest as { observation: Json }).observation;
      expect(out.transition).toMatchObject({ info: { seen: JSON.stringify([action, rest]) } });
      expect(out.observation(seen)).toBe(JSON.stringify(seen));
    }
    set.dispose();
  });

  it('takes the raw form only for strings that can cross raw', () => {
    expect(actionPart({ name: 'act', args: { command: 'go to desk 1' } })).toBe(
      'Aact\u0002command\u0002go to desk 1',
    );
    expect(actionPart({ name: 'act', args: { command: 'a\u0002b' } })[0]).toBe('J');
    expect(actionPart({ name: 'act', args: { command: 'lone \uD800' } })[0]).toBe('J');
    expect(actionPart({ name: 'act', args: { n: 1 } })[0]).toBe('J');
    expect(observationPart({ text: 'a\u0001b' })[0]).toBe('J');
    expect(observationPart({ text: 'a', data: 1 })[0]).toBe('J');
    // The result's text goes last: \u0001 may stay raw there, NUL may not.
    expect(resultPart({ ...REST, observation: { text: 'a\u0001b' } })).toBe('R0,00\u0001a\u0001b');
    expect(resultPart({ ...REST, observation: { text: 'a\u0000b' } })[0]).toBe('J');
  });
});

describe('one-argument actions (strings of their own)', () => {
  it('take that form only when every string can be a C string', () => {
    expect(actionStrings({ name: 'act', args: { command: 'a\u0001b\u0002' } })).toEqual([
      'act',
      'command',
      'a\u0001b\u0002',
    ]);
    expect(actionStrings({ name: 'act', args: { command: 'a\u0000b' } })).toBeUndefined();
    expect(actionStrings({ name: 'act', args: { command: 'lone \uD800' } })).toBeUndefined();
    expect(actionStrings({ name: 'act', args: { a: 'x', b: 'y' } })).toBeUndefined();
    expect(actionStrings({ name: 'act', args: {} })).toBeUndefined();
    expect(actionStrings({ name: 'act', args: { n: 1 } })).toBeUndefined();
    expect(actionStrings(JSON.parse('{"name":"act","args":{"__proto__":"x"}}'))).toBeUndefined();
    expect(actionStrings({ args: { command: 'look' }, name: 'act' })).toBeUndefined();
    expect(resultStrings({ ...REST, observation: { text: 'a\u0001b' } })).toEqual([
      '0',
      '00',
      'a\u0001b',
    ]);
    expect(resultStrings({ ...REST, reward: 1.5e-7, truncated: true })?.slice(0, 2)).toEqual([
      '1.5e-7',
      '01',
    ]);
    expect(resultStrings({ ...REST, observation: { text: 'a\u0000b' } })).toBeUndefined();
    expect(resultStrings({ ...REST, observation: { text: 'a', data: 1 } })).toBeUndefined();
  });

  it('reach every hook as their JSON, and come back unchanged or with every change', () => {
    const set = load(`function filterAction(a) {
  if (a.args.command === 'copy') return { name: a.name, args: { ...a.args } };
  if (a.args.command === 'rename') a.name = 'say';
  if (a.args.command === 'extra') a.args.more = 'x';
  if (a.args.command === 'swap') return { args: a.args, name: a.name };
  if (a.args.command.startsWith('show')) return { blocked: JSON.stringify(a) };
  return a;
}
function modifyTransition(a, r) { return { ...r, info: { a: JSON.stringify(a) } }; }`);
    const act = (command: string) => ({ name: 'act', args: { command } });
    const cases: [string, Json | undefined][] = [
      ['look', undefined],
      ['copy', undefined],
      ['rename', { name: 'say', args: { command: 'rename' } }],
      ['extra', { name: 'act', args: { command: 'extra', more: 'x' } }],
      ['swap', { args: { command: 'swap' }, name: 'act' }],
      ...STRANGE.map((text): [string, Json] => [
        `show ${text}`,
        { blocked: JSON.stringify(act(`show ${text}`)) },
      ]),
    ];
    for (const [command, expected] of cases) {
      set.provideState(() => ({}));
      expect(set.call('filterAction', [act(command)]), command).toEqual(expected);
    }
    for (const text of STRANGE) {
      set.provideState(() => ({}));
      const out = set.after(act(text), REST, {});
      expect(out.transition, text).toMatchObject({ info: { a: JSON.stringify(act(text)) } });
    }
    set.dispose();
  });
});

describe('strings kept across calls', () => {
  it('a recurring name or key reaches the hook right, past the table filling up', () => {
    const set = load(`function filterAction(a) { return { blocked: JSON.stringify(a) }; }
function modifyTransition(a, r) { return { ...r, observation: { text: JSON.stringify(a) } }; }`);
    // More distinct names than the kept table holds (64), each seen twice; a name equal to its
    // key (one string kept once in a call); then the first names again, after the table emptied.
    const names = [...Array.from({ length: 150 }, (_, i) => `act${i % 100}`), 'command', 'act1'];
    for (const name of names) {
      const action = { name, args: { command: `look ${name}` } };
      set.provideState(() => ({}));
      expect(set.call('filterAction', [action])).toEqual({ blocked: JSON.stringify(action) });
      set.provideState(() => ({}));
      const out = set.after(action, { ...REST, reward: name.length }, {});
      expect(out.transition).toEqual({
        ...REST,
        reward: name.length,
        observation: { text: JSON.stringify(action) },
        info: {},
      });
    }
    set.dispose();
  });
});

describe('replies', () => {
  it('a returned string comes back exactly, whatever it holds', () => {
    const set = load(`function filterObservation(o) { return o.text.slice(3); }
function filterAction(a) { return { blocked: a.args.command.slice(3) }; }`);
    for (const text of STRANGE) {
      const sent = `>> ${text}`;
      set.provideState(() => ({}));
      expect(set.call('filterObservation', [{ text: sent }])).toBe(sent.slice(3));
      expect(
        set
          .after({ name: 'act', args: {} }, { ...REST, observation: { text: sent } }, {})
          .observation({ text: sent }),
      ).toBe(sent.slice(3));
      expect(set.call('filterAction', [{ name: 'act', args: { command: sent } }])).toEqual({
        blocked: sent.slice(3),
      });
    }
    set.dispose();
  });
});

describe('unchanged or changed', () => {
  const action = { name: 'act', args: { command: 'look', target: 'box' } };

  it('an action returned, or left, as it was sent is unchanged', () => {
    const set = load(`function filterAction(a) {
  if (a.args.command === 'copy') return { name: a.name, args: { ...a.args } };
  if (a.args.command === 'none') return;
  return a;
}`);
    for (const command of ['look', 'copy', 'none']) {
      set.provideState(() => ({}));
      expect(set.call('filterAction', [{ ...action, args: { ...action.args, command } }])).toBe(
        undefined,
      );
    }
    set.dispose();
  });

  it('every change to an action, returned or in place, comes back', () => {
    const changes: [string, Json][] = [
      ['a.args.target = "lid";', { name: 'act', args: { command: 'look', target: 'lid' } }],
      [
        'a.args.extra = "1";',
        { name: 'act', args: { command: 'look', target: 'box', extra: '1' } },
      ],
      ['delete a.args.target;', { name: 'act', args: { command: 'look' } }],
      [
        'delete a.args.command; a.args.command = "look";',
        { name: 'act', args: { target: 'box', command: 'look' } },
      ],
      ['a.args.target = 7;', { name: 'act', args: { command: 'look', target: 7 } }],
      ['a.blocked = "no";', { name: 'act', args: action.args, blocked: 'no' }],
      ['a.name = "say";', { name: 'say', args: action.args }],
      ['a.args = { command: "look", target: "box" };', undefined as unknown as Json],
    ];
    for (const [change, expected] of changes) {
      const set = load(`function filterAction(a) { ${change} }`);
      set.provideState(() => ({}));
      // A fresh args object with the same JSON is no change.
      expect(set.call('filterAction', [action]), change).toEqual(expected);
      set.destroy();
    }
  });

  // A key the Contract drops (contract.ts reads a transition's observation, reward, flags and
  // info, and an observation's text and data) is no change: the guest need not list keys to say
  // "untouched", which is the dearest check inside QuickJS. contract.test.ts pins that such a
  // hook's trajectory is the identity hook's.
  it('a step result or observation changed in place comes back; untouched ones do not', () => {
    const cases: [string, Json | undefined, Json | undefined][] = [
      ['', undefined, undefined],
      ['r.terminated = true;', { ...REST, terminated: true, info: {} }, undefined],
      ['r.truncated = true;', { ...REST, truncated: true, info: {} }, undefined],
      ['r.reward = 1;', { ...REST, reward: 1, info: {} }, undefined],
      [
        'r.observation.text += "!";',
        { ...REST, observation: { text: `${REST.observation.text}!` }, info: {} },
        undefined,
      ],
      [
        'r.observation.data = 1;',
        { ...REST, observation: { ...REST.observation, data: 1 }, info: {} },
        undefined,
      ],
      // A new observation with the same JSON: the host compares it, and finds no change.
      ['r.observation = { text: r.observation.text };', undefined, undefined],
      ['r.toJSON = () => ({ terminated: true });', { terminated: true, info: {} }, undefined],
      [
        'r.observation.toJSON = () => "said";',
        { ...REST, observation: 'said', info: {} },
        undefined,
      ],
      ['r.extra = 1;', undefined, undefined],
      ['r.observation.x = 1;', undefined, undefined],
      ['o.text = "short";', undefined, { text: 'short' }],
      ['o.data = 1;', undefined, { ...REST.observation, data: 1 }],
      ['o.toJSON = () => "said";', undefined, 'said'],
      ['o.extra = 1;', undefined, undefined],
    ];
    for (const [change, transition, observation] of cases) {
      const set =
        load(`function modifyTransition(a, r) { if (${change.startsWith('r')}) { ${change.startsWith('r') ? change : ''} } }
function filterObservation(o) { ${change.startsWith('o') ? change : ''} }`);
      set.provideState(() => ({}));
      const out = set.after(action, REST, {});
      expect(out.transition, change).toEqual(transition);
      if (transition === undefined)
        expect(out.observation(REST.observation), change).toEqual(observation);
      set.destroy();
    }
  });

  it('a returned info crosses back as the fields that differ, merged over the step info', () => {
    const info = { admissible: ['look', 'go to desk 1'], won: false, note: 'n' };
    const set = load(`let kept;
function modifyTransition(a, r) {
  const command = a.args.command;
  if (command === 'hint') return { ...r, info: { ...r.info, hint: 'h' } };
  if (command === 'push') { const i = { ...r.info }; i.admissible.push('x'); return { ...r, info: i }; }
  if (command === 'own') return { ...r, info: { won: true } };
  if (command === 'set') { const i = { ...r.info }; i.admissible[1] = 'x'; return { ...r, info: i }; }
  if (command === 'tojson') { const i = { ...r.info }; i.admissible.toJSON = () => 'j'; return { ...r, info: i }; }
  if (command === 'obs') return { ...r, observation: { text: 'new' }, info: { ...r.info, hint: 'h' } };
  if (command === 'stale') { const o = kept; kept = r.observation; if (o) return { ...r, observation: o, info: { hint: 's' } }; }
  if (command === 'same') return { ...r, info: { ...r.info, admissible: [...r.info.admissible], won: false } };
  return r;
}`);
    const run = (command: string) => {
      set.provideState(() => ({}));
      return set.after({ name: 'act', args: { command } }, REST, info).transition;
    };
    expect(run('look')).toBeUndefined();
    expect(run('hint')).toEqual({ ...REST, info: { hint: 'h' } });
    expect(run('push')).toEqual({ ...REST, info: { admissible: ['look', 'go to desk 1', 'x'] } });
    expect(run('own')).toEqual({ ...REST, info: { won: true } });
    expect(run('set')).toEqual({ ...REST, info: { admissible: ['look', 'x'] } });
    expect(run('tojson')).toEqual({ ...REST, info: { admissible: 'j' } });
    expect(run('same')).toEqual({ ...REST, info: {} });
    expect(run('obs')).toEqual({ ...REST, observation: { text: 'new' }, info: { hint: 'h' } });
    // An observation kept from an earlier step is not this step's, even with the same text.
    expect(run('stale')).toBeUndefined();
    expect(
      set.after({ name: 'act', args: { command: 'stale' } }, { ...REST, reward: 0 }, info)
        .transition,
    ).toEqual({ ...REST, info: { hint: 's' } });
    set.dispose();
  });
});

describe('the state view', () => {
  it('is the one provided last, also after phases in which no hook read it', () => {
    const set = load(`function filterAction(a, state) {
  if (a.args.command === 'read') return { blocked: String(state.n) + ' ' + Object.keys(state).join(',') };
}`);
    const run = (command: string, n: number) => {
      set.provideState(() => ({ n, [`k${n}`]: true }));
      return set.call('filterAction', [{ name: 'act', args: { command } }]);
    };
    expect(run('read', 1)).toEqual({ blocked: '1 n,k1' });
    expect(run('skip', 2)).toBeUndefined();
    expect(run('skip', 3)).toBeUndefined();
    expect(run('read', 4)).toEqual({ blocked: '4 n,k4' });
    expect(run('read', 5)).toEqual({ blocked: '5 n,k5' });
    set.dispose();
  });

  it('an empty view listed in one phase is no empty view in the next', () => {
    const set = load(
      'function filterAction(a, state) { return { blocked: Object.keys(state).join(",") || "none" }; }',
    );
    const run = (view: Json) => {
      set.provideState(() => view);
      return set.call('filterAction', [{ name: 'act', args: { command: 'look' } }]);
    };
    expect(run({})).toEqual({ blocked: 'none' });
    expect(run({ a: 1 })).toEqual({ blocked: 'a' });
    expect(run({})).toEqual({ blocked: 'none' });
    set.dispose();
  });

  it('one field is read narrowly where the view can be; listing it reads the whole view', () => {
    const set = load(`function filterAction(a, state) {
  if (a.args.command === 'one') return { blocked: String(state.agent.holding) };
  if (a.args.command === 'all') return { blocked: Object.keys(state).join(',') + ' ' + state.agent.holding };
}`);
    const view = { agent: { holding: 'mug 1' }, room: 'kitchen' };
    let full = 0;
    const narrow: string[] = [];
    const run = (command: string) => {
      set.provideState(
        () => {
          full += 1;
          return view;
        },
        (key) => {
          narrow.push(key);
          return view[key as keyof typeof view];
        },
      );
      return set.call('filterAction', [{ name: 'act', args: { command } }]);
    };
    expect(run('one')).toEqual({ blocked: 'mug 1' });
    expect([full, narrow]).toEqual([0, ['agent']]);
    expect(run('all')).toEqual({ blocked: 'agent,room mug 1' });
    expect(full).toBe(1);
    set.dispose();
  });
});
