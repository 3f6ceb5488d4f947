// Declarative Contract rules: parse-time checks, each kind's effect, and the paper example's hooks
// as code and as rules giving identical trajectories on household.
import { beforeAll, describe, expect, it } from 'vitest';
import { resolverOf } from '../../bridges/core/capabilities.ts';
import { jsonAt } from '../../bridges/core/helpers.ts';
import type { Action } from '../../bridges/core/types.ts';
import {
  type HouseholdStateView,
  householdBridge,
  oraclePlan,
} from '../../bridges/household/index.ts';
import { toy24Bridge } from '../../bridges/toy24/index.ts';
import { checkSpec, type HarnessSpec } from '../../contracts/spec.ts';
import { createHarness, type Harness } from './index.ts';
import { compileRules } from './rules.ts';
import {
  act,
  findMugScene,
  MUG_RULES,
  type MugScene,
  mugSpec,
  potatoTaskId,
} from './testing/mug-example.ts';

const bridges = resolverOf([householdBridge, toy24Bridge]);

function withRules(rules: unknown[]): unknown {
  return {
    version: 1,
    env: { type: 'contract', rules, env: { type: 'base', bridge: 'toy24', task: '1-2-3-4' } },
  };
}

describe('rule checks at parse time', () => {
  it('names the rule and field of an invalid regular expression', () => {
    const r = checkSpec(
      withRules([
        { kind: 'cap', steps: 3 },
        { kind: 'truncate', max: 10 },
        { kind: 'rewrite', pattern: 'a(b', replacement: '' },
      ]),
    );
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toMatch(
      /^invalid harness spec: env\.rules\[2\]\.pattern: invalid regular expression \/a\(b\/: /,
    );
  });

  it('refuses nested repetition and over-long patterns', () => {
    const nested = checkSpec(
      withRules([{ kind: 'feedback', to: 'append', text: 'x', when: '(a+)+$' }]),
    );
    expect(!nested.ok && nested.message).toMatch(/env\.rules\[0\]\.when: nested repetition/);
    const long = checkSpec(withRules([{ kind: 'block', pattern: 'a'.repeat(301), reason: 'no' }]));
    expect(!long.ok && long.message).toMatch(/env\.rules\[0\]\.pattern: /);
  });

  it('refuses an unknown kind and unknown fields', () => {
    expect(checkSpec(withRules([{ kind: 'shout' }])).ok).toBe(false);
    expect(checkSpec(withRules([{ kind: 'cap', steps: 2, extra: 1 }])).ok).toBe(false);
  });

  it('accepts rules only, code only and both', () => {
    expect(checkSpec(withRules(MUG_RULES)).ok).toBe(true);
    const both = withRules(MUG_RULES) as { env: Record<string, unknown> };
    both.env.code = 'function filterAction(a) { return a; }';
    expect(checkSpec(both).ok).toBe(true);
  });
});

describe('compiled rules', () => {
  const look: Action = act('look');
  const none = () => null;

  it('blocks a matching action with the expanded reason, unless the state says otherwise', () => {
    const rules = compileRules(MUG_RULES);
    const state = (holding: string | null) => (path: readonly string[]) =>
      jsonAt({ agent: { holding } }, path);
    const clean = act('clean mug 1 with sinkbasin 1');
    expect(rules.block(clean, state(null))).toBe(
      'Nothing happens. You must hold the mug 1 to clean it.',
    );
    expect(rules.block(clean, state('mug 1'))).toBeUndefined();
    let read = 0;
    expect(
      rules.block(look, () => {
        read++;
        return null;
      }),
    ).toBeUndefined();
    expect(read).toBe(0);
  });

  it('rewrites, truncates by characters or sentences, keeping the marked tail', () => {
    const rules = compileRules([
      { kind: 'rewrite', pattern: 'mug (\\d)', replacement: 'cup #$1' },
      { kind: 'truncate', max: 2, unit: 'sentences', keep: '\n\nTask:' },
      { kind: 'truncate', max: 30 },
    ]);
    expect(rules.observation('A mug 1 here. Then B. And C.\n\nTask: find mug 2')).toBe(
      'A cup #1 here. Then B.\n\nTask: ',
    );
    expect(
      compileRules([{ kind: 'truncate', max: 2, unit: 'sentences' }]).observation('no end'),
    ).toBe('no end');
  });

  it('cuts sentences as the paper example’s hook does', () => {
    const reference = (text: string, max: number) =>
      (text.match(/[^.!?]+[.!?]+/g) ?? [text]).slice(0, max).join('').trim();
    const texts = ['', 'no end', '...Hi. There! Again? tail', ' A.B.. C', '?!', 'One. Two.'];
    for (const max of [0, 1, 2, 5]) {
      const rules = compileRules([{ kind: 'truncate', max, unit: 'sentences' }]);
      for (const text of texts) expect(rules.observation(text), text).toBe(reference(text, max));
    }
  });

  it('caps steps and injects feedback only when its pattern matches', () => {
    const rules = compileRules([
      { kind: 'cap', steps: 2 },
      { kind: 'feedback', when: '^(\\w+) happens', text: ' [$1 after {action}]', to: 'append' },
      { kind: 'feedback', text: '> ', to: 'prepend' },
    ]);
    const t = (text: string) => ({ text, terminated: false, truncated: false, hint: undefined });
    expect(rules.transition(1, look, t('Nothing happens.'))).toEqual({
      text: '> Nothing happens. [Nothing after look]',
      terminated: false,
      truncated: false,
      hint: undefined,
    });
    expect(rules.transition(2, look, t('ok')).truncated).toBe(true);
    const ended = { ...t('won'), terminated: true };
    expect(rules.transition(5, look, ended).truncated).toBe(false);
    expect(rules.transition(1, look, t('ok')).text).toBe('> ok');
    expect(rules.block(look, none)).toBeUndefined();
  });
});

describe('a contract with rules and code', () => {
  it('runs the rules first, then the hooks, and caps the episode', async () => {
    const spec = withRules([
      { kind: 'block', pattern: '/', reason: 'no division' },
      { kind: 'cap', steps: 3 },
      { kind: 'rewrite', pattern: 'Numbers', replacement: 'Left' },
    ]) as { version: 1; env: Record<string, unknown> };
    // The hooks see what the rules left: the rewritten text, and never a blocked action.
    spec.env.code = `let seen = [];
export function filterAction(action) { seen.push(String(action.args.expression)); return action; }
export function filterObservation(o) { return o.text + ' | hooks saw ' + seen.join(';'); }`;
    const h = await createHarness(spec as HarnessSpec, { bridges });
    const start = await h.reset({ seed: 0 });
    expect(start.observation.text).toMatch(/^Left: 1 2 3 4\./);
    expect(start.observation.text).toMatch(/ \| hooks saw $/);
    const blocked = await h.step({ name: 'combine', args: { expression: '4 / 2' } });
    expect(blocked.observation.text).toBe('no division');
    expect(blocked.record.blocked).toBe('no division');
    const second = await h.step({ name: 'combine', args: { expression: '1 + 2' } });
    expect(second.observation.text).toMatch(/^1 \+ 2 = 3\. Left: 3 4 3\. \| hooks saw 1 \+ 2$/);
    expect(second.truncated).toBe(false);
    const third = await h.step({ name: 'combine', args: { expression: '3 * 3' } });
    expect(third.truncated).toBe(true);
    expect(third.record.changes.map((c) => c.what)).toEqual([
      'transition',
      'observation',
      'observation',
    ]);
    await h.close();
    // A blocked step counts towards the cap.
    const capped = withRules([
      { kind: 'block', pattern: '/', reason: 'no division' },
      { kind: 'cap', steps: 1 },
    ]) as HarnessSpec;
    const c = await createHarness(capped, { bridges });
    await c.reset({ seed: 0 });
    const first = await c.step({ name: 'combine', args: { expression: '4 / 2' } });
    expect(first).toMatchObject({ truncated: true, observation: { text: 'no division' } });
    expect(first.record.changes.map((x) => x.what)).toEqual(['blocked', 'transition']);
    await c.close();
  });
});

describe('rules and the equivalent code hooks', () => {
  let scene: MugScene;
  let potato: string;
  beforeAll(async () => {
    scene = await findMugScene();
    potato = await potatoTaskId();
  });

  async function trajectory(spec: HarnessSpec, commands: (h: Harness) => string[]) {
    const h = await createHarness(spec, { bridges });
    const out: unknown[] = [await h.reset({ seed: scene.seed })];
    for (const c of commands(h)) out.push(await h.step(act(c)));
    out.push(await h.evaluate());
    await h.close();
    return out;
  }

  it('give identical trajectories on household, blocks, hints and truncation included', async () => {
    const commands = (h: Harness) => [
      `clean ${scene.mug} with sinkbasin 1`,
      'take nothing from nowhere',
      'look',
      `examine ${scene.hideIn}`,
      ...oraclePlan(h.getEnvState() as unknown as HouseholdStateView),
      'inventory',
    ];
    const code = await trajectory(mugSpec(scene, potato), commands);
    const rules = await trajectory(mugSpec(scene, potato, MUG_RULES), commands);
    expect(rules).toEqual(code);
    const steps = code.slice(1, -1) as { record: { changes: { what: string }[] } }[];
    const whats = new Set(steps.flatMap((s) => s.record.changes.map((c) => c.what)));
    // The comparison covers all three effects, not only pass-through steps.
    expect([...whats]).toEqual(expect.arrayContaining(['blocked', 'transition', 'observation']));
  });

  it('round-trips through the engine: a rules contract names its rules in toNode', async () => {
    const spec = mugSpec(scene, potato, MUG_RULES);
    const h = await createHarness(spec, { bridges });
    expect(h.toSpec()).toEqual(spec);
    await h.close();
  });
});
