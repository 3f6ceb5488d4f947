import { afterEach, describe, expect, it } from 'vitest';
import type { ToolSpec } from '../../bridges/core/types.ts';
import { openaiPolicy } from './openai-policy.ts';
import {
  type ChatRequestBody,
  deadOpenAIUrl,
  type FakeOpenAI,
  startFakeOpenAI,
} from './testing/fake-openai.ts';
import { type PolicyContext, PolicyInfraError } from './types.ts';

const actTool: ToolSpec = {
  name: 'act',
  description: 'Type a command.',
  parameters: {
    type: 'object',
    properties: { command: { type: 'string' } },
    required: ['command'],
  },
};

function context(
  baseUrl: string,
  extra: Record<string, number | string | boolean> = {},
): PolicyContext {
  return {
    bridge: 'household',
    task: { id: 't1', type: 'pick_and_place_simple', goal: 'put a mug in cabinet', split: 'test' },
    tools: [actTool],
    textTool: { name: 'act', arg: 'command' },
    seed: 0,
    maxSteps: 50,
    options: {
      baseUrl,
      apiKey: 'sk-test',
      temperature: 0.3,
      retryBaseMs: 5,
      retryMaxMs: 50,
      ...extra,
    },
  };
}

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('openai policy against a local OpenAI-compatible server', () => {
  it('sends tools, goal and observations; turns tool calls into actions; replies to each call', async () => {
    fake = await startFakeOpenAI([
      {
        toolCalls: [{ name: 'act', arguments: { command: 'go to cabinet 1' } }],
        content: 'Search first.',
      },
      { toolCalls: [{ name: 'act', arguments: { command: 'open cabinet 1' } }] },
    ]);
    const session = await openaiPolicy('fake-model').start(context(fake.url));
    const first = await session.act(
      { text: 'You are in the middle of a room.' },
      { admissibleCommands: ['go to cabinet 1', 'look'] },
    );
    expect(first).toEqual({
      kind: 'act',
      action: { name: 'act', args: { command: 'go to cabinet 1' } },
      note: 'Search first.',
      llm: {
        mode: 'tools',
        reply: 'Search first.',
        usage: { prompt: 10, completion: 5, cached: 0, requests: 1 },
      },
    });
    const second = await session.act(
      { text: 'You arrive at cabinet 1. The cabinet 1 is closed.' },
      {},
    );
    expect(second).toMatchObject({ kind: 'act', action: { args: { command: 'open cabinet 1' } } });

    const [r1, r2] = fake.chatRequests();
    expect(r1?.model).toBe('fake-model');
    expect(r1?.temperature).toBe(0.3);
    // The policy seed travels as the request's seed (GRPO groups: G seeds sample differently).
    expect((r1 as { seed?: number } | undefined)?.seed).toBe(0);
    expect(r1?.tools?.[0]?.function.name).toBe('act');
    expect(r1?.tools?.[0]?.function.parameters).toEqual(actTool.parameters);
    expect(String(r1?.messages?.[0]?.content)).toContain('put a mug in cabinet');
    expect(String(r1?.messages?.[1]?.content)).toContain(
      'Admissible commands: go to cabinet 1, look',
    );
    expect(fake.requests[0]?.headers.authorization).toBe('Bearer sk-test');
    // The second request carries the assistant turn and a tool message answering its call.
    const msgs = r2?.messages ?? [];
    const assistant = msgs.at(-2);
    const tool = msgs.at(-1);
    expect(assistant?.role).toBe('assistant');
    expect(tool).toMatchObject({ role: 'tool', tool_call_id: 'call_0_0' });
    expect(String(tool?.content)).toContain('The cabinet 1 is closed.');
  });

  it('counts malformed replies as invalid actions, never crashes, and keeps the protocol valid', async () => {
    fake = await startFakeOpenAI([
      { toolCalls: [{ name: 'act', arguments: '{"command": "look"' }] },
      { toolCalls: [{ name: 'teleport', arguments: { to: 'fridge 1' } }] },
      { content: 'I think I should look around.' },
      { toolCalls: [{ name: 'act', arguments: '[1, 2]' }] },
      {
        toolCalls: [
          { name: 'act', arguments: { command: 'look' } },
          { name: 'act', arguments: { command: 'inventory' } },
        ],
      },
    ]);
    const session = await openaiPolicy('m').start(context(fake.url));
    const d1 = await session.act({ text: 'start' }, {});
    expect(d1).toMatchObject({ kind: 'invalid', raw: 'act({"command": "look")' });
    expect(d1.kind === 'invalid' && d1.reason).toMatch(/not valid JSON/);
    const d2 = await session.act({ text: 'Invalid action: bad json' }, { invalid: true });
    expect(d2.kind === 'invalid' && d2.reason).toMatch(/unknown tool 'teleport'/);
    const d3 = await session.act({ text: 'Invalid action: unknown tool' }, { invalid: true });
    expect(d3).toMatchObject({ kind: 'invalid', raw: 'I think I should look around.' });
    expect(d3.kind === 'invalid' && d3.reason).toMatch(/no tool call/);
    const d4 = await session.act({ text: 'Invalid action: no tool call' }, { invalid: true });
    expect(d4.kind === 'invalid' && d4.reason).toMatch(/JSON object/);
    const d5 = await session.act({ text: 'Invalid action: not an object' }, { invalid: true });
    expect(d5).toMatchObject({ kind: 'act', action: { args: { command: 'look' } } });
    await session.act({ text: 'You are in the middle of a room.' }, {}).catch(() => undefined);

    // Each tool call got exactly one tool message; a text-only turn was followed by a user message.
    const last = fake.chatRequests().at(-1)?.messages ?? [];
    const callIds = last.flatMap((m) =>
      Array.isArray(m.tool_calls) ? m.tool_calls.map((c: { id: string }) => c.id) : [],
    );
    const answered = last.filter((m) => m.role === 'tool').map((m) => m.tool_call_id);
    expect(answered).toEqual(callIds);
    const ignored = last.filter((m) => m.role === 'tool').at(-1);
    expect(String(ignored?.content)).toMatch(/Ignored: only the first tool call/);
    const afterText = last.findIndex(
      (m) => m.role === 'assistant' && m.content === 'I think I should look around.',
    );
    expect(last[afterText + 1]?.role).toBe('user');
  });

  it('retries 429 (honouring retry-after-ms) and 5xx and dropped connections, then succeeds', async () => {
    fake = await startFakeOpenAI([
      {
        status: 429,
        headers: { 'retry-after-ms': '20' },
        body: { error: { message: 'slow down', type: 'rate_limit' } },
      },
      { status: 503 },
      { drop: true },
      { toolCalls: [{ name: 'act', arguments: { command: 'look' } }] },
    ]);
    const session = await openaiPolicy('m').start(context(fake.url));
    const started = performance.now();
    const d = await session.act({ text: 'start' }, {});
    expect(d).toMatchObject({ kind: 'act', action: { args: { command: 'look' } } });
    expect(fake.chatRequests()).toHaveLength(4);
    expect(performance.now() - started).toBeGreaterThanOrEqual(20);
  });

  it('times out a hanging request and retries it', async () => {
    fake = await startFakeOpenAI([
      { toolCalls: [{ name: 'act', arguments: { command: 'too late' } }], delayMs: 2_000 },
      { toolCalls: [{ name: 'act', arguments: { command: 'look' } }] },
    ]);
    const session = await openaiPolicy('m').start(context(fake.url, { timeoutMs: 150 }));
    const d = await session.act({ text: 'start' }, {});
    expect(d).toMatchObject({ kind: 'act', action: { args: { command: 'look' } } });
    expect(fake.chatRequests()).toHaveLength(2);
  });

  it('waits out a rate limit beyond its own retries, then gives up after its patience (rate limit that never clears)', async () => {
    fake = await startFakeOpenAI([{ status: 429 }], { whenExhausted: 'repeat-last' });
    const session = await openaiPolicy('m').start(
      context(fake.url, { maxRetries: 0, rateLimitPatienceMs: 60 }),
    );
    const err = await session.act({ text: 'start' }, {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PolicyInfraError);
    expect(String((err as Error).message)).toMatch(
      /openai:m: rate limited by http:\S+ m for \d+ s \(\d+ retries\)/,
    );
    // 429s are not the episode's retries (maxRetries 0): the gate sent it again until patience ran out.
    expect(fake.chatRequests().length).toBeGreaterThanOrEqual(2);
  });

  it('does not retry a client error such as 401; it is an infra error at once', async () => {
    fake = await startFakeOpenAI(
      [{ status: 401, body: { error: { message: 'bad key', type: 'auth' } } }],
      {
        whenExhausted: 'repeat-last',
      },
    );
    const session = await openaiPolicy('m').start(context(fake.url));
    await expect(session.act({ text: 'start' }, {})).rejects.toBeInstanceOf(PolicyInfraError);
    expect(fake.chatRequests()).toHaveLength(1);
  });

  it('a dead server is a PolicyInfraError after bounded retries, not a crash or a failure', async () => {
    const url = await deadOpenAIUrl();
    const session = await openaiPolicy('m').start(context(url, { maxRetries: 2 }));
    const err = await session.act({ text: 'start' }, {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PolicyInfraError);
    expect(String((err as Error).message)).toMatch(/cannot reach/);
  });

  it('a server that stops mid-episode turns into an infra error', async () => {
    fake = await startFakeOpenAI([
      { toolCalls: [{ name: 'act', arguments: { command: 'look' } }] },
    ]);
    const session = await openaiPolicy('m').start(context(fake.url, { maxRetries: 1 }));
    expect((await session.act({ text: 'start' }, {})).kind).toBe('act');
    await fake.close();
    await expect(session.act({ text: 'next' }, {})).rejects.toBeInstanceOf(PolicyInfraError);
  });

  it('plays a household episode end to end, the server answering from the request it receives', async () => {
    const { householdBridge } = await import('../../bridges/household/index.ts');
    const { play } = await import('./testing/play.ts');
    // The "model" reads the admissible commands out of the last message and picks the first go-to.
    fake = await startFakeOpenAI((request) => {
      const body = request.body as ChatRequestBody;
      const last = String(body.messages?.at(-1)?.content ?? '');
      const go = /Admissible commands: .*?(go to [a-z]+ \d+)/.exec(last)?.[1];
      return go
        ? { toolCalls: [{ name: 'act', arguments: { command: go } }] }
        : { content: 'no idea' };
    });
    const [task] = await householdBridge.listTasks({ split: 'eval_seen' });
    const r = await play(householdBridge, openaiPolicy('m'), {
      taskId: task?.id ?? '',
      seed: 0,
      maxSteps: 4,
      options: { baseUrl: fake.url, apiKey: 'k' },
    });
    expect(r.commands).toHaveLength(4);
    expect(r.commands.every((c) => c.startsWith('go to '))).toBe(true);
    expect(r.invalid).toBe(0);
    expect(r.observations.at(-1)).toMatch(/^You arrive at /);
  });

  it('rejects invalid options and a missing base URL as infra errors', async () => {
    await expect(openaiPolicy('m').start(context('not a url'))).rejects.toBeInstanceOf(
      PolicyInfraError,
    );
  });
});
