import { describe, expect, it } from 'vitest';
import { builtInBridges } from '../../../bridges/index.ts';
import { runEpisode, runEpisodeWith } from '../../rollouts/episode.ts';
import { MALFORMED_ACTION_NAME } from '../../rollouts/reward.ts';
import { counterDeps, counterSpec, inc } from '../../rollouts/testing.ts';
import type { Skill } from '../../skills/types.ts';
import { getPolicy } from '../index.ts';
import { startFakeOpenAI } from '../testing/fake-openai.ts';
import type { Policy, PolicyDecision } from '../types.ts';
import { BeliefStore, householdExtractor } from './belief.ts';
import { bpePolicy, parseBpeId } from './index.ts';
import { parseMeta } from './meta.ts';
import { MALFORMED } from './session.ts';

/** A prompt-reading test policy replaying decisions (kind 'openai' so bpe uses the policy driver). */
function llmLike(decisions: PolicyDecision[], seen: string[] = []): Policy {
  return {
    descriptor: { id: 'test:llm', kind: 'openai', description: 'test' },
    async start() {
      let i = 0;
      return {
        async act(observation) {
          seen.push(observation.text);
          const d = decisions[Math.min(i, decisions.length - 1)];
          i += 1;
          return d ?? { kind: 'give_up' };
        },
      };
    },
  };
}

const meta = (name: string, args: Record<string, string>): PolicyDecision => ({
  kind: 'act',
  action: { name, args },
});

function wrap(inner: Policy, flags = '') {
  const id = `bpe(${inner.descriptor.id}${flags})`;
  const parsed = parseBpeId(id);
  if (!parsed) throw new Error('not a bpe id');
  return bpePolicy(id, parsed, inner);
}

describe('bpe policy ids', () => {
  it('parses ablation flags and settings', () => {
    const p = parseBpeId('bpe(scripted:household-explorer,-belief,-experience,cap=3,cost=0.5)');
    expect(p?.inner).toBe('scripted:household-explorer');
    expect(p?.config.parts).toEqual({ belief: false, progress: true, experience: false });
    expect(p?.config.metaCap).toBe(3);
    expect(p?.config.metaCost).toBe(0.5);
    expect(parseBpeId('scripted:household-explorer')).toBeUndefined();
    expect(() => parseBpeId('bpe(scripted:household-explorer,-memory)')).toThrow(
      /unknown setting '-memory'/,
    );
    expect(() => parseBpeId('bpe(bpe(x))')).toThrow(/cannot wrap another bpe/);
  });

  it('resolves through the policy registry', () => {
    const p = getPolicy('bpe(scripted:household-no-open,-progress)');
    expect(p.descriptor.kind).toBe('bpe');
    expect(p.descriptor.description).toMatch(/without progress/);
    expect(() => getPolicy('bpe(scripted:nope)')).toThrow(/unknown policy 'scripted:nope'/);
  });
});

describe('meta-action syntax', () => {
  const tool = { name: 'act', arg: 'command' };
  it('reads text-tool and tool-call forms and rejects malformed ones with the right form', () => {
    expect(parseMeta({ name: 'act', args: { command: 'track[mug 1]' } }, tool)).toMatchObject({
      kind: 'meta',
      verb: 'track',
      arg: 'mug 1',
    });
    expect(parseMeta({ name: 'recall', args: { query: 'mug' } }, tool)).toMatchObject({
      kind: 'meta',
      verb: 'recall',
    });
    expect(parseMeta({ name: 'act', args: { command: 'go to desk 1' } }, tool).kind).toBe('env');
    const bad = parseMeta({ name: 'act', args: { command: 'track mug' } }, tool);
    expect(bad.kind === 'malformed' && bad.reason).toMatch(/write track\[…\]/);
    const empty = parseMeta({ name: 'act', args: { command: 'note[ ]' } }, tool);
    expect(empty.kind === 'malformed' && empty.reason).toMatch(/needs an argument/);
    expect(MALFORMED).toBe(MALFORMED_ACTION_NAME);
  });
});

describe('meta-actions in the episode runner', () => {
  it('each meta-action costs one step of the same budget and never reaches the environment', async () => {
    const seen: string[] = [];
    const policy = wrap(
      llmLike(
        [
          meta('commit', { subgoal: '1' }),
          meta('note', { insight: 'inc twice more' }),
          meta('track', { target: 'world' }),
          inc,
        ],
        seen,
      ),
    );
    const deps = counterDeps(policy);
    const r = await runEpisodeWith(deps, {
      spec: counterSpec,
      seed: 0,
      policyId: 'x',
      maxSteps: 5,
    });
    expect(r.steps).toBe(5);
    expect(deps.harness.steps).toBe(2); // 5 steps of budget: 3 meta-actions + 2 env actions
    expect(r.outcome).toBe('failure');
    expect(r.failureCategory).toBe('step_budget_exhausted');
    expect(r.trajectory.slice(0, 3).map((s) => s.action.name)).toEqual(['commit', 'note', 'track']);
    expect(r.trajectory[0]?.executedAction).toBeNull();
    expect(r.trajectory[0]?.observation.text).toMatch(/Sub-goal 1 is done/);
    // The workspace reaches the prompt under each observation.
    expect(seen[1]).toMatch(/\[workspace\][\s\S]*Progress:\n1\. \[x\] make the value 3/);
    const m = r.trajectory[1]?.meta as {
      bpe: { kind: string; workspace: { experience: { notes: string[] } } };
    };
    expect(m.bpe.kind).toBe('meta');
    expect(m.bpe.workspace.experience.notes).toEqual(['inc twice more']);
    const envMeta = r.trajectory[3]?.meta as { bpe: { kind: string } } | undefined;
    expect(envMeta?.bpe.kind).toBe('env');
  });

  it('a cheaper meta-action (cost=0) leaves the budget to the environment', async () => {
    const policy = wrap(
      llmLike([meta('note', { insight: 'a' }), meta('note', { insight: 'b' }), inc]),
      ',cost=0',
    );
    const deps = counterDeps(policy);
    const r = await runEpisodeWith(deps, {
      spec: counterSpec,
      seed: 0,
      policyId: 'x',
      maxSteps: 3,
    });
    expect(r.outcome).toBe('success');
    expect(deps.harness.steps).toBe(3);
    expect(r.steps).toBe(5);
  });

  it('counts malformed, unavailable and over-the-cap meta-actions as invalid', async () => {
    const policy = wrap(
      llmLike([
        meta('track', { target: 'world' }), // belief is off: unavailable
        meta('commit', { subgoal: 'fly to the moon' }), // names no sub-goal
        meta('recall', { query: 'x' }), // valid (cap 3 reached after it)
        meta('note', { insight: 'over the cap' }),
        inc,
      ]),
      ',-belief,cap=3',
    );
    const r = await runEpisodeWith(counterDeps(policy), {
      spec: counterSpec,
      seed: 0,
      policyId: 'x',
    });
    expect(r.outcome).toBe('success');
    expect(r.invalidActions).toBe(3);
    const texts = r.trajectory.slice(0, 4).map((s) => s.observation.text);
    expect(texts[0]).toMatch(/not available \(belief is off/);
    expect(texts[1]).toMatch(/names no sub-goal/);
    expect(texts[2]).toBe('No matching experience.');
    expect(texts[3]).toMatch(/limit of 3 meta-actions/);
    expect(r.trajectory.slice(0, 4).map((s) => s.invalid)).toEqual([true, true, false, true]);
    expect(r.trajectory[0]?.action.name).toBe(MALFORMED_ACTION_NAME);
    expect(r.reward?.rInv).toBe(3);
  });
});

const skill = (id: string, category: Skill['category'], title: string, content: string): Skill => ({
  id,
  category,
  taskType: null,
  title,
  description: '',
  content,
  sourceEpisodeIds: [],
  uses: 0,
});

describe('bpe around a scripted household policy', () => {
  const spec = {
    version: 1 as const,
    env: { type: 'base' as const, bridge: 'household', task: 'eval_unseen-080' },
  };

  it('recalls first, hands recalled skills to the policy, commits sub-goals and records the workspace', async () => {
    const experience = [
      skill(
        's1',
        'mistake',
        'Closed receptacles hide objects',
        'When the target is not visible, open closed receptacles before moving on.',
      ),
      skill(
        's2',
        'prior',
        'Where pans are found',
        'Search order for pan: countertop > stoveburner > cabinet',
      ),
    ];
    const r = await runEpisode(
      {
        spec,
        seed: 0,
        policyId: 'bpe(scripted:household-no-open)',
        policyOptions: { experience },
      },
      builtInBridges,
    );
    expect(r.trajectory[0]?.action.name).toBe('recall');
    const first = r.trajectory[0]?.meta as { bpe: { retrieved: string[] } };
    expect(first.bpe.retrieved).toEqual(expect.arrayContaining(['s1', 's2']));
    // The no-open flaw is repaired by the recalled lesson: it opens, and it searches countertops first.
    const commands = r.trajectory.map((s) => String(s.action.args.command ?? s.action.name));
    expect(commands.some((c) => c.startsWith('open '))).toBe(true);
    expect(commands[1]).toMatch(/^go to (countertop|stoveburner)/);
    expect(commands).toContain('commit');
    const commits = r.trajectory
      .filter((s) => s.action.name === 'commit')
      .map((s) => s.action.args.arg);
    expect(commits[0]).toBe('find a pan');
    for (const s of r.trajectory) {
      expect((s.meta as { bpe: { workspace: object } }).bpe.workspace).toBeDefined();
    }
    const last = r.trajectory.at(-1)?.meta as {
      bpe: { workspace: { belief: Record<string, string> } };
    };
    expect(Object.keys(last.bpe.workspace.belief).some((k) => k.startsWith('loc:pan'))).toBe(true);
    expect(r.outcome).toBe('success');
  });

  it('ablations remove their meta-actions', async () => {
    const experience = [
      skill('s2', 'prior', 'Where pans are found', 'Search order for pan: countertop'),
    ];
    const r = await runEpisode(
      {
        spec,
        seed: 0,
        policyId: 'bpe(scripted:household-explorer,-experience,-progress)',
        policyOptions: { experience },
      },
      builtInBridges,
    );
    expect(r.trajectory.every((s) => s.executedAction !== null)).toBe(true);
    const bare = await runEpisode(
      { spec, seed: 0, policyId: 'scripted:household-explorer' },
      builtInBridges,
    );
    expect(r.steps).toBe(bare.steps);
  });
});

describe('household belief extractor', () => {
  it('reads ALFWorld feedback into locations and states', () => {
    const b = new BeliefStore();
    const up = (text: string, command?: string) =>
      householdExtractor.update(b, { text, info: {}, ...(command ? { command } : {}) });
    up(
      '-= Welcome to TextWorld, ALFRED! =-\n\nYou are in the middle of a room. Looking quickly around you, you see a cabinet 1, a countertop 1, and a sinkbasin 1.\n\nYour task is to: put a clean mug in cabinet.',
    );
    up('You arrive at countertop 1. On the countertop 1, you see a mug 1, and an apple 2.');
    expect(b.facts.get('loc:mug 1')).toBe('countertop 1');
    up('You pick up the mug 1 from the countertop 1.');
    expect(b.facts.get('holding')).toBe('mug 1');
    up('You clean the mug 1 using the sinkbasin 1.');
    expect(b.facts.get('state:mug 1')).toBe('clean');
    up('You arrive at cabinet 1. The cabinet 1 is closed.');
    expect(b.facts.get('recep:cabinet 1')).toBe('closed');
    expect(householdExtractor.track(b, 'apple')).toBe('On the countertop 1, you see an apple 2.');
    expect(householdExtractor.track(b, 'mug 1')).toMatch(/You are carrying: \[a mug 1\]/);
    expect(householdExtractor.track(b, 'knife')).toMatch(
      /No knife seen yet\. Not yet explored: cabinet 1, sinkbasin 1/,
    );
    up('Nothing happens.', 'open countertop 1');
    expect(b.facts.get('last_failed')).toBe('open countertop 1');
  });
});

describe('bpe around an OpenAI-compatible policy', () => {
  it('offers the meta-actions as tools, answers them itself and shows the workspace in the prompt', async () => {
    const fake = await startFakeOpenAI(
      [
        { toolCalls: [{ name: 'recall', arguments: { query: 'where are pans' } }] },
        { toolCalls: [{ name: 'act', arguments: { command: 'commit[find a pan]' } }] },
        { toolCalls: [{ name: 'act', arguments: { command: 'look' } }] },
      ],
      { whenExhausted: 'repeat-last' },
    );
    try {
      const r = await runEpisode(
        {
          spec: { version: 1, env: { type: 'base', bridge: 'household', task: 'eval_unseen-080' } },
          seed: 0,
          policyId: 'bpe(openai:test-model)',
          maxSteps: 3,
          policyOptions: {
            baseUrl: fake.url,
            apiKey: 'k',
            experience: [
              skill(
                'p',
                'prior',
                'Where pans are found',
                'Search order for pan: countertop > stoveburner',
              ),
            ],
          },
        },
        builtInBridges,
      );
      expect(r.error).toBeUndefined();
      expect(r.trajectory.map((s) => s.action.name)).toEqual(['recall', 'commit', 'act']);
      expect(r.trajectory[2]?.executedAction).not.toBeNull();
      // Meta-actions cost tokens too: each step carries its request's usage, and the episode
      // counts the meta-actions' tokens apart (the fake reports 10 prompt + 5 completion each).
      expect(r.trajectory.map((s) => s.llm?.usage?.prompt)).toEqual([10, 10, 10]);
      expect(r.usage).toEqual({ prompt: 30, completion: 15, cached: 0, requests: 3 });
      expect(r.llm?.byKind.meta).toEqual({ prompt: 20, completion: 10, cached: 0, requests: 2 });
      expect(r.llm?.byKind.env?.requests).toBe(1);
      const reqs = fake.chatRequests();
      expect(reqs[0]?.tools?.map((t) => t.function.name).sort()).toEqual([
        'act',
        'commit',
        'note',
        'recall',
        'track',
      ]);
      const first = String(reqs[0]?.messages?.find((m) => m.role === 'user')?.content ?? '');
      expect(first).toMatch(/Agent harness: .*costs one step of your 3-step budget/);
      expect(first).toMatch(/\[workspace\][\s\S]*Progress:\n1\. \[ \] find a pan/);
      const second = reqs[1]?.messages?.at(-1);
      expect(second?.role).toBe('tool');
      expect(String(second?.content)).toMatch(/Where pans are found: Search order for pan/);
      const third = String(reqs[2]?.messages?.at(-1)?.content);
      expect(third).toMatch(/Sub-goal 1 is done/);
    } finally {
      await fake.close();
    }
  });
});
