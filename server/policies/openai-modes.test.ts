// The openai policy's modes against the fake server: auto's fallback to ReAct text (a vLLM without
// a tool-call parser, a model that answers in text), the ReAct reply rules, reasoning, usage and
// the server's own words in errors.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Json } from '../../bridges/core/types.ts';
import { householdBridge } from '../../bridges/household/index.ts';
import { ChatClient } from './chat-client.ts';
import type { OpenAISession } from './openai.ts';
import { openaiPolicy } from './openai-policy.ts';
import {
  type ChatRequestBody,
  type FakeModel,
  type FakeOpenAI,
  startFakeModel,
  startFakeOpenAI,
} from './testing/fake-openai.ts';
import { type PolicyContext, type PolicyDecision, PolicyInfraError } from './types.ts';

const ADMISSIBLE = ['go to cabinet 1', 'go to countertop 1', 'look'];

function context(baseUrl: string, extra: Record<string, Json> = {}, runId?: string): PolicyContext {
  return {
    bridge: 'household',
    task: { id: 't1', type: 'pick_and_place_simple', goal: 'put a mug in cabinet', split: 'test' },
    tools: householdBridge.tools(),
    textTool: { name: 'act', arg: 'command' },
    seed: 0,
    maxSteps: 50,
    ...(runId ? { runId } : {}),
    options: { baseUrl, apiKey: 'k', retryBaseMs: 5, retryMaxMs: 20, ...extra },
  };
}

const info = { admissibleCommands: ADMISSIBLE };
const system = (r: ChatRequestBody | undefined) => String(r?.messages?.[0]?.content ?? '');
const isAct = (d: PolicyDecision, command: string) =>
  d.kind === 'act' && d.action.name === 'act' && d.action.args.command === command;

let fake: FakeOpenAI | FakeModel | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('mode auto', () => {
  it("falls back to ReAct on vLLM's 400 for tool choice, at no step's cost, and says why", async () => {
    const model = await startFakeModel(['no-tools', 'usage']);
    fake = model;
    const session = await openaiPolicy('m').start(context(model.url, {}, 'run-a'));
    const d1 = await session.act({ text: 'You are in the middle of a room.' }, info);
    const d2 = await session.act({ text: 'You arrive at cabinet 1.' }, info);
    expect(isAct(d1, 'go to cabinet 1')).toBe(true);
    expect(isAct(d2, 'go to countertop 1')).toBe(true);
    expect(d1.llm?.mode).toBe('react');

    const [withTools, retried, next] = fake.chatRequests();
    expect(withTools?.tools?.length).toBe(1);
    expect(model.replies[0]?.status).toBe(400);
    // The same turn asked again, in ReAct text: tools in the prompt, no tools on the wire.
    expect(retried?.tools).toBeUndefined();
    expect(system(retried)).toContain('Tools:\n- act: ');
    expect(system(retried)).toContain('think: <your thoughts>');
    expect(system(retried)).toContain('Example 1.');
    expect(next?.messages?.at(-2)).toMatchObject({ role: 'assistant' });
    expect(session.report?.()).toEqual({
      llm: {
        model: 'm',
        requested: 'auto',
        mode: 'react',
        reason: expect.stringContaining(
          '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
        ),
        switchedAt: 0,
        inherited: false,
      },
    });
  });

  it('keeps ReAct for the rest of the run: the next episode of the run starts in it', async () => {
    fake = await startFakeModel(['no-tools']);
    const first = await openaiPolicy('m').start(context(fake.url, {}, 'run-b'));
    await first.act({ text: 'start' }, info);
    expect(fake.chatRequests()).toHaveLength(2);

    const second = await openaiPolicy('m').start(context(fake.url, {}, 'run-b'));
    await second.act({ text: 'start' }, info);
    expect(fake.chatRequests()).toHaveLength(3);
    expect(fake.chatRequests()[2]?.tools).toBeUndefined();
    expect(second.report?.().llm).toMatchObject({
      mode: 'react',
      inherited: true,
      switchedAt: null,
    });

    // Another run tries tools again.
    const other = await openaiPolicy('m').start(context(fake.url, {}, 'run-c'));
    await other.act({ text: 'start' }, info);
    expect(fake.chatRequests()[3]?.tools?.length).toBe(1);
  });

  it('falls back when the model answers with a plain action line instead of a tool call', async () => {
    fake = await startFakeModel(['react']);
    const session = await openaiPolicy('m').start(context(fake.url));
    const d1 = await session.act({ text: 'start' }, info);
    expect(isAct(d1, 'go to cabinet 1')).toBe(true);
    await session.act({ text: 'You arrive at cabinet 1.' }, info);
    const [first, second] = fake.chatRequests();
    expect(first?.tools?.length).toBe(1);
    expect(second?.tools).toBeUndefined();
    expect(session.report?.().llm?.reason).toBe(
      "the model answered in text ('go to cabinet 1') instead of calling a tool",
    );
  });

  it('stays on tools when a text reply holds no action line (an invalid action, as before)', async () => {
    fake = await startFakeOpenAI([{ content: 'Hmm, where could the mug be?' }]);
    const session = await openaiPolicy('m').start(context(fake.url));
    const d = await session.act({ text: 'start' }, info);
    expect(d).toMatchObject({ kind: 'invalid', raw: 'Hmm, where could the mug be?' });
    expect(session.report?.().llm).toMatchObject({ mode: 'tools', reason: null });
  });
});

describe('the server words in errors', () => {
  it("mode tools against a server without tool calling: an infra error quoting vLLM's message", async () => {
    fake = await startFakeModel(['no-tools']);
    const session = await openaiPolicy('m').start(context(fake.url, { mode: 'tools' }));
    const err = await session.act({ text: 'start' }, info).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PolicyInfraError);
    expect((err as Error).message).toBe(
      'openai:m: HTTP 400: "auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
    );
    expect((err as Error).message).not.toContain('(no body)');
  });

  it('an OpenAI-style error body reaches the error as the server wrote it', async () => {
    fake = await startFakeModel(['error-body']);
    const session = await openaiPolicy('m').start(context(fake.url));
    await expect(session.act({ text: 'start' }, info)).rejects.toThrow(
      /HTTP 400: This model's maximum context length is 4096 tokens/,
    );
  });
});

describe('mode react', () => {
  it('answers think: with OK. at a step (free when configured), never calling the environment', async () => {
    fake = await startFakeOpenAI([{ content: 'think: The mug is likely in a cabinet.' }], {
      whenExhausted: 'repeat-last',
    });
    const step = await openaiPolicy('m').start(context(fake.url, { mode: 'react' }));
    const d = await step.act({ text: 'start' }, info);
    expect(d).toMatchObject({
      kind: 'meta',
      action: { name: 'act', args: { command: 'think: The mug is likely in a cabinet.' } },
      observation: { text: 'OK.' },
      invalid: false,
      cost: 1,
      llm: { mode: 'react', think: true },
    });
    const free = await openaiPolicy('m').start(context(fake.url, { mode: 'react', think: 'free' }));
    expect(await free.act({ text: 'start' }, info)).toMatchObject({ kind: 'meta', cost: 0 });
    expect(system(fake.chatRequests()[1])).toContain('costs no step');
    expect(fake.chatRequests()[0]?.tools).toBeUndefined();
  });

  it('keeps the raw text of a reply it cannot read as an invalid action', async () => {
    fake = await startFakeOpenAI([{ content: 'Action: teleport {"to": "mug"}' }, { content: '' }]);
    const session = await openaiPolicy('m').start(context(fake.url, { mode: 'react' }));
    expect(await session.act({ text: 'start' }, info)).toMatchObject({
      kind: 'invalid',
      raw: 'Action: teleport {"to": "mug"}',
      reason: "unknown tool 'teleport'; available: act",
    });
    expect(await session.act({ text: 'Invalid action' }, info)).toMatchObject({
      kind: 'invalid',
      raw: '',
      reason: 'empty reply',
    });
  });

  it('captures reasoning (reasoning_content, <think>) per step and keeps it out of the next prompt', async () => {
    const script = [
      { content: 'Action: go to cabinet 1', reasoning: 'Mugs live in cabinets.' },
      { content: '<think>Cabinet 1 was empty.</think>\nAction: go to countertop 1' },
      { content: 'Action: look' },
    ];
    fake = await startFakeOpenAI(script);
    const session = await openaiPolicy('m').start(context(fake.url, { mode: 'react' }));
    const d1 = await session.act({ text: 'start' }, info);
    const d2 = await session.act({ text: 'You arrive at cabinet 1.' }, info);
    await session.act({ text: 'You arrive at countertop 1.' }, info);
    expect(d1.llm).toMatchObject({
      reasoning: 'Mugs live in cabinets.',
      reply: 'Action: go to cabinet 1',
    });
    expect(d2.llm).toMatchObject({
      reasoning: 'Cabinet 1 was empty.',
      reply: 'Action: go to countertop 1',
    });
    expect(isAct(d2, 'go to countertop 1')).toBe(true);
    const sent = JSON.stringify(fake.chatRequests()[2]?.messages);
    expect(sent).not.toContain('Mugs live in cabinets.');
    expect(sent).not.toContain('Cabinet 1 was empty.');

    await fake.close();
    fake = await startFakeOpenAI(script);
    const keeping = await openaiPolicy('m').start(
      context(fake.url, { mode: 'react', keepReasoning: true }),
    );
    await keeping.act({ text: 'start' }, info);
    await keeping.act({ text: 'You arrive at cabinet 1.' }, info);
    expect(JSON.stringify(fake.chatRequests()[1]?.messages)).toContain(
      '<think>\\nMugs live in cabinets.\\n</think>',
    );
  });

  it('records the usage of each request: prompt, completion and cached tokens', async () => {
    fake = await startFakeOpenAI([
      { content: 'Action: look', usage: { prompt: 300, completion: 12, cached: 256 } },
      { content: 'Action: look', usage: false },
    ]);
    const session = await openaiPolicy('m').start(context(fake.url, { mode: 'react' }));
    expect((await session.act({ text: 'start' }, info)).llm?.usage).toEqual({
      prompt: 300,
      completion: 12,
      cached: 256,
      requests: 1,
    });
    expect((await session.act({ text: 'next' }, info)).llm?.usage).toBeUndefined();
  });

  it('uses your own few-shot text, or none', async () => {
    fake = await startFakeOpenAI([{ content: 'Action: look' }], { whenExhausted: 'repeat-last' });
    const own = await openaiPolicy('m').start(
      context(fake.url, { mode: 'react', fewShot: 'My example: > look' }),
    );
    await own.act({ text: 'start' }, info);
    const none = await openaiPolicy('m').start(
      context(fake.url, { mode: 'react', fewShot: false }),
    );
    await none.act({ text: 'start' }, info);
    const [a, b] = fake.chatRequests();
    expect(system(a)).toContain('My example: > look');
    expect(system(a)).not.toContain('Example 1.');
    expect(system(b)).not.toContain('Examples of solved tasks');
  });
});

describe('the request body', () => {
  it('is, byte for byte, JSON.stringify of the request at every step, in both modes, across a fallback', async () => {
    fake = await startFakeOpenAI([
      { toolCalls: [{ name: 'act', arguments: { command: 'go to cabinet 1' } }], content: 'hm' },
      {
        toolCalls: [
          { name: 'act', arguments: { command: 'open cabinet 1' } },
          { name: 'act', arguments: { command: 'look' } },
        ],
        reasoning: 'two at once',
      },
      { content: '' },
      { content: 'Thought: try the counter.\nAction: go to countertop 1' },
      { content: '<think>again</think>\nAction: look' },
    ]);
    const options = { keepReasoning: true, maxTokens: 64, temperature: 0.2 };
    const session = (await openaiPolicy('m').start(
      context(fake.url, options),
    )) as unknown as OpenAISession;
    // What the SDK was handed before: the request as an object, which it sent as JSON.stringify.
    const expected = (mode: 'tools' | 'react') =>
      JSON.stringify({
        model: 'm',
        messages: session.messages(mode),
        ...(mode === 'tools'
          ? {
              tools: householdBridge.tools().map((t) => ({ type: 'function', function: t })),
              tool_choice: 'auto',
            }
          : {}),
        temperature: 0.2,
        seed: 0,
        max_tokens: 64,
      });
    // Each body as it is sent, and what it should be at that moment.
    const sent: [string, string][] = [];
    const create = ChatClient.prototype.create;
    const spy = vi.spyOn(ChatClient.prototype, 'create').mockImplementation(function (
      this: ChatClient,
      body: string,
    ) {
      sent.push([body, expected(session.report().llm?.mode === 'react' ? 'react' : 'tools')]);
      return create.call(this, body);
    });
    try {
      for (const text of ['start', 'at cabinet 1', 'cabinet open', 'nothing', 'at countertop 1']) {
        await session.act({ text }, info);
        // Told in either mode (the turn just answered included), the bytes are the same.
        for (const mode of ['tools', 'react'] as const)
          expect(session.requestBody(mode)).toBe(expected(mode));
      }
    } finally {
      spy.mockRestore();
    }
    expect(sent.length).toBe(5);
    for (const [body, want] of sent) expect(body).toBe(want);
    expect(fake.chatRequests().map((r) => JSON.stringify(r))).toEqual(sent.map(([b]) => b));
    // The fourth reply is an action line: the fifth request speaks ReAct.
    expect(sent[3]?.[0]).toContain('"tools":');
    expect(sent[4]?.[0]).not.toContain('"tools":');
    expect(session.report?.().llm).toMatchObject({ mode: 'react', switchedAt: 3 });
  });
});
