// The LLM designer drives a full loop against a local OpenAI-compatible server whose replies are
// scripted: a first candidate whose code does not compile, a repaired one, and a decision on traces.
import { afterEach, describe, expect, it } from 'vitest';
import type { HarnessNode } from '../../harness/spec.ts';
import {
  type ChatRequestBody,
  type FakeOpenAI,
  startFakeOpenAI,
} from '../../policies/testing/fake-openai.ts';
import { runRig } from '../loop.ts';
import { withRigServices } from '../testing/setup.ts';
import { LlmDesigner } from './llm.ts';

const env = withRigServices();
const db = () => env().db;
let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const TASK = 'household:eval_seen-004';
const POLICY = 'scripted:household-no-transform';

/** Stage commands and Contract code of a spec (innermost stage, outermost contract). */
function parts(node: HarnessNode): { commands: string[]; code: string } {
  let commands: string[] = [];
  let code = '';
  for (let n: HarnessNode | undefined = node; n; ) {
    if (n.type === 'stage') {
      commands = n.actions.map((a) => String(a.args.command));
      n = n.env;
    } else if (n.type === 'contract') {
      code ||= n.code ?? '';
      n = n.env;
    } else n = undefined;
  }
  return { commands, code };
}

const forced = (body: ChatRequestBody) =>
  (body.tool_choice as { function?: { name?: string } } | undefined)?.function?.name;

describe('LLM designer', { timeout: 90_000 }, () => {
  it('runs Observe -> Diagnose -> Write -> Validate through forced tool calls', async () => {
    // A candidate known to land in the band on this scene, written by the offline designer, is what the
    // scripted "model" proposes once its first (broken) proposal comes back with a compile error.
    const reference = await runRig(env().services.rigDeps(), { task: TASK, policy: POLICY });
    expect(reference.accepted).not.toBeNull();
    if (!reference.accepted) throw new Error('no reference candidate');
    const good = parts(reference.accepted.env);
    const acceptedAt = reference.iterations.findIndex((x) => x.decision === 'accept');

    let proposals = 0;
    fake = await startFakeOpenAI((request) => {
      const body = request.body as ChatRequestBody;
      if (forced(body) === 'decide_on_traces') {
        return {
          toolCalls: [
            {
              name: 'decide_on_traces',
              arguments: { decision: 'accept', feedback: 'Challenging but solvable.' },
            },
          ],
        };
      }
      proposals += 1;
      const user = String(body.messages?.find((m) => m.role === 'user')?.content ?? '');
      const cited = /episode (\S+) \(seed[^\n]*\n {2}0> [^\n]*? => ([^\n]{1,40})/.exec(user);
      const diagnosis = {
        axis: 'task_understanding',
        label: 'skips-cleaning',
        description: 'The agent places the mug without cleaning it.',
        evidence: [
          { episodeId: cited?.[1] ?? 'none', step: 0, quote: cited?.[2] ?? 'none' },
          { episodeId: 'made-up', step: 3, quote: 'You arrive' },
        ],
      };
      // Burn iterations until the loop reaches the index where the reference candidate was validated,
      // so that it is validated on the same fresh seeds.
      const broken = proposals === 1 || proposals <= acceptedAt;
      return {
        toolCalls: [
          {
            name: 'propose_candidate',
            arguments: broken
              ? {
                  diagnosis,
                  in_env_actions: [],
                  rules_code: 'export function filterAction(action) {\n  return action +;\n}',
                  rationale: 'first try',
                }
              : {
                  diagnosis,
                  in_env_actions: good.commands,
                  rules_code: good.code,
                  rationale: 'pre-clean the mug, add time pressure',
                },
          },
        ],
      };
    });
    const designer = new LlmDesigner({
      baseUrl: fake.url,
      model: 'designer-test',
      apiKey: 'test',
      maxRetries: 0,
    });
    const r = await runRig(
      env().services.rigDeps(),
      { task: TASK, policy: POLICY, designer: 'llm' },
      { designer },
    );

    expect(r.diagnosis.label).toBe('skips-cleaning');
    // Only citations of real baseline episodes survive, and the checker records the other one.
    expect(r.diagnosis.evidence.every((e) => e.episodeId !== 'made-up')).toBe(true);
    expect(r.diagnosis.evidence.length).toBe(1);
    expect(r.diagnosis.check?.removed).toEqual([
      {
        kind: 'evidence',
        what: 'episode made-up step 3: "You arrive"',
        reason: 'not an episode of the baseline',
      },
    ]);
    expect(r.iterations[0]?.writeError).toMatch(/line 2/);
    expect(r.accepted).not.toBeNull();
    expect(r.iterations.at(-1)?.decision).toBe('accept');
    expect(r.iterations.at(-1)?.feedback).toContain('Challenging but solvable.');

    const chats = fake.chatRequests();
    expect(
      chats.every((c) => ['propose_candidate', 'decide_on_traces'].includes(forced(c) ?? '')),
    ).toBe(true);
    const system = String(chats[0]?.messages?.[0]?.content ?? '');
    expect(system).toMatch(/Never make the task unsolvable/);
    expect(system).toMatch(/small, local perturbations/);
    expect(system).toContain('"receptacles"'); // the state schema
    expect(system).toContain('"act"'); // the tools
    // The compile error went back to the designer, worded for repair.
    const second = chats.filter((c) => forced(c) === 'propose_candidate')[1];
    expect(JSON.stringify(second?.messages)).toMatch(/does not compile.*line 2/);
    const rig = await db().rig.findUniqueOrThrow({ where: { id: r.rigId } });
    expect(rig.designer).toBe('llm');
    expect(rig.acceptedCandidateId).not.toBeNull();
  });

  it('asks again when the model answers without the forced tool call', async () => {
    fake = await startFakeOpenAI([
      { content: 'Let me think about it.' },
      { toolCalls: [{ name: 'propose_candidate', arguments: '{"diagnosis": ' }] },
      {
        toolCalls: [
          {
            name: 'propose_candidate',
            arguments: {
              diagnosis: { axis: 'none', label: 'x', description: 'y.', evidence: [] },
              in_env_actions: ['look'],
              rules_code: '',
              rationale: 'r',
            },
          },
        ],
      },
      {
        toolCalls: [
          { name: 'decide_on_traces', arguments: { decision: 'reject', feedback: 'no change' } },
        ],
      },
    ]);
    const designer = new LlmDesigner({ baseUrl: fake.url, model: 'm', maxRetries: 0 });
    const r = await runRig(
      env().services.rigDeps(),
      { task: TASK, policy: POLICY, designer: 'llm', maxIterations: 1 },
      { designer },
    );
    expect(r.diagnosis.label).toBe('x');
    expect(r.iterations[0]?.candidate.spec.env).toMatchObject({
      type: 'stage',
      actions: [{ name: 'act', args: { command: 'look' } }],
    });
    expect(r.iterations[0]?.decision).toBe('reject');
    expect(fake.chatRequests()).toHaveLength(4);
  });

  it('stores its diagnosis only after the checker: false claims and wrong quotes are removed, with reasons', async () => {
    // A diagnosis citing the first episode shown: a quote from no step, a false absence claim and
    // an unbacked "never" sentence beside one true sentence.
    const propose = (episode: string) => ({
      diagnosis: {
        axis: 'task_understanding',
        label: 'skips-heating',
        description:
          'The agent placed the plate cold. It never typed `go`. It never heated the plate.',
        evidence: [{ episodeId: episode, step: 0, quote: 'You heat the plate 1' }],
        absences: [{ in: 'action', text: 'go', episodeIds: [episode], phrase: 'never typed `go`' }],
      },
      in_env_actions: ['look'],
      rules_code: '',
      rationale: 'r',
    });
    fake = await startFakeOpenAI((request) => {
      const body = request.body as ChatRequestBody;
      if (forced(body) === 'decide_on_traces')
        return {
          toolCalls: [
            { name: 'decide_on_traces', arguments: { decision: 'reject', feedback: 'no' } },
          ],
        };
      const user = String(body.messages?.find((m) => m.role === 'user')?.content ?? '');
      const episode = /episode (\S+) \(seed/.exec(user)?.[1] ?? 'none';
      return { toolCalls: [{ name: 'propose_candidate', arguments: propose(episode) }] };
    });
    const designer = new LlmDesigner({ baseUrl: fake.url, model: 'm', maxRetries: 0 });
    const r = await runRig(
      env().services.rigDeps(),
      { task: TASK, policy: POLICY, designer: 'llm', maxIterations: 1 },
      { designer },
    );
    const row = await db().diagnosis.findFirstOrThrow({ where: { rigId: r.rigId } });
    expect(row.description).toBe('The agent placed the plate cold.');
    expect(row.evidence).toEqual([]);
    const check = (
      row.report as { check: { removed: { kind: string; what: string; reason: string }[] } }
    ).check;
    expect(check.removed.map((x) => [x.kind, x.what])).toEqual([
      ['evidence', expect.stringMatching(/step 0: "You heat the plate 1"$/)],
      ['claim', 'never typed `go`'],
      ['sentence', 'It never typed `go`.'],
      ['sentence', 'It never heated the plate.'],
    ]);
    expect(check.removed[1]?.reason).toMatch(/^"go" was typed at step 0 of episode /);
    // The prompt tells the model how it is checked.
    expect(String(fake.chatRequests()[0]?.messages?.[0]?.content)).toMatch(
      /checked against the trajectories/,
    );
  });

  it('an openai:<model> policy gets the llm designer on the same model and endpoint by default', async () => {
    fake = await startFakeOpenAI((request) => {
      const body = request.body as ChatRequestBody;
      if (forced(body) === 'decide_on_traces')
        return {
          toolCalls: [
            { name: 'decide_on_traces', arguments: { decision: 'reject', feedback: 'no' } },
          ],
        };
      if (forced(body) === 'propose_candidate')
        return {
          toolCalls: [
            {
              name: 'propose_candidate',
              arguments: {
                diagnosis: { axis: 'none', label: 'x', description: 'y.', evidence: [] },
                in_env_actions: ['look'],
                rules_code: '',
                rationale: 'r',
              },
            },
          ],
        };
      // The policy's own turns.
      return { toolCalls: [{ name: 'act', arguments: { command: 'look' } }] };
    });
    const r = await runRig(env().services.rigDeps(), {
      task: TASK,
      policy: 'openai:policy-model',
      policyOptions: { baseUrl: fake.url, apiKey: 'test', maxRetries: 0 },
      k: 1,
      maxIterations: 1,
      maxSteps: 2,
    });
    expect(r.settings).toMatchObject({
      designer: 'llm',
      designerModel: 'policy-model',
      designerWhy:
        "the paper's designer is the policy's own model: policy-model, on the policy's endpoint",
      components: ['stage', 'contract'],
    });
    const chats = fake.chatRequests();
    const designerTurns = chats.filter((c) => forced(c) !== undefined);
    expect(designerTurns.length).toBeGreaterThan(0);
    expect(new Set(chats.map((c) => c.model))).toEqual(new Set(['policy-model']));
    const rig = await db().rig.findUniqueOrThrow({ where: { id: r.rigId } });
    expect(rig.designer).toBe('llm');
    expect(rig.constraints).toMatchObject({
      designerChoice: 'default',
      designerModel: 'policy-model',
    });
  });
});

// The same fallbacks as the openai policy's auto mode: JSON in text once tools are refused, or once
// the model answers with JSON text; and the server's own words when the endpoint fails.
const VLLM_400 = {
  status: 400,
  body: {
    object: 'error',
    message: 'this server was started without --enable-auto-tool-choice: tools are not supported',
    type: 'BadRequestError',
    param: null,
    code: 400,
  },
};
const PROPOSAL = {
  diagnosis: { axis: 'none', label: 'json-in-text', description: 'y.', evidence: [] },
  in_env_actions: ['look'],
  rules_code: '',
  rationale: 'r',
};

const system = (body: ChatRequestBody) => String(body.messages?.[0]?.content ?? '');

describe('LLM designer fallbacks', { timeout: 90_000 }, () => {
  it('answers in JSON text for the rest of the rig once the endpoint refuses tools', async () => {
    fake = await startFakeOpenAI((request) => {
      const body = request.body as ChatRequestBody;
      if (body.tools) return VLLM_400;
      return system(body).includes('arguments of decide_on_traces')
        ? { content: '{"decision": "reject", "feedback": "no change"}' }
        : { content: `<think>plan</think>\n\`\`\`json\n${JSON.stringify(PROPOSAL)}\n\`\`\`` };
    });
    const designer = new LlmDesigner({ baseUrl: fake.url, model: 'm', maxRetries: 0 });
    const r = await runRig(
      env().services.rigDeps(),
      { task: TASK, policy: POLICY, designer: 'llm', maxIterations: 1 },
      { designer },
    );
    expect(r.diagnosis.label).toBe('json-in-text');
    expect(r.iterations[0]?.decision).toBe('reject');
    const chats = fake.chatRequests();
    // One refused request; every later one carries the schema in the prompt and no tools.
    expect(chats.filter((c) => c.tools)).toHaveLength(1);
    expect(system(chats[1] ?? {})).toContain('Answer with ONE JSON object only');
    expect(system(chats[1] ?? {})).toContain('"in_env_actions"');
    expect(designer.fallback).toBe(
      'the endpoint refused tool calling (HTTP 400: this server was started without --enable-auto-tool-choice: tools are not supported)',
    );
  });

  it('takes JSON arguments written in text as the call, and asks for JSON from then on', async () => {
    fake = await startFakeOpenAI([
      { content: JSON.stringify({ name: 'propose_candidate', arguments: PROPOSAL }) },
      { content: '{"decision": "reject", "feedback": "no"}' },
    ]);
    const designer = new LlmDesigner({ baseUrl: fake.url, model: 'm', maxRetries: 0 });
    const r = await runRig(
      env().services.rigDeps(),
      { task: TASK, policy: POLICY, designer: 'llm', maxIterations: 1 },
      { designer },
    );
    expect(r.diagnosis.label).toBe('json-in-text');
    expect(designer.fallback).toBe('the model answered with JSON in text instead of a tool call');
    expect(fake.chatRequests()[1]?.tools).toBeUndefined();
  });

  it("fails with the endpoint's own words, not the SDK's (no body)", async () => {
    fake = await startFakeOpenAI(
      [
        {
          status: 400,
          body: { object: 'error', message: 'maximum context length is 2048 tokens', code: 400 },
        },
      ],
      { whenExhausted: 'repeat-last' },
    );
    const designer = new LlmDesigner({ baseUrl: fake.url, model: 'm', maxRetries: 0 });
    await expect(
      runRig(
        env().services.rigDeps(),
        { task: TASK, policy: POLICY, designer: 'llm', maxIterations: 1 },
        { designer },
      ),
    ).rejects.toThrow('llm designer: HTTP 400: maximum context length is 2048 tokens');
  });
});
