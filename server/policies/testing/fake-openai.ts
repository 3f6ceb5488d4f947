// A local OpenAI-compatible chat-completions server for tests, run as a separate process so the real
// client, HTTP and the wire format are exercised. Reusable by any helper that talks to an LLM:
//
//   const fake = await startFakeOpenAI([
//     { toolCalls: [{ name: 'act', arguments: { command: 'look' } }] },
//     { status: 429, headers: { 'retry-after-ms': '5' } },
//     { content: 'I will think first' },
//   ]);
//   ... OpenAI({ baseURL: fake.url, apiKey: 'test' }) ...
//   fake.requests  // every request received, in order (method, path, headers, parsed body)
//   await fake.close();
//
// A reply may also be a function of the request (e.g. to answer whatever tool the caller forces).
import { type ChildProcess, fork } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Json, JsonObject } from '../../../bridges/core/types.ts';

export interface FakeToolCall {
  name: string;
  /** An object is JSON-encoded; a string is sent verbatim (so tests can send malformed JSON). */
  arguments: JsonObject | string;
  id?: string;
}

/** What a reply may add to its message: `reasoning_content`, and `usage` (false: none). */
export interface FakeExtras {
  reasoning?: string;
  usage?: { prompt: number; completion: number; cached?: number } | false;
}

export type FakeReply = (
  | ({ toolCalls: FakeToolCall[]; content?: string | null } & FakeExtras)
  | ({ content: string } & FakeExtras)
  /** An HTTP error (e.g. 429 with retry-after, 500) with an optional OpenAI-style error body. */
  | { status: number; body?: Json; headers?: Record<string, string> }
  /** Close the connection without answering: the client sees a network error. */
  | { drop: true }
  /** Answer with this raw JSON body (status 200). */
  | { raw: Json }
) & { delayMs?: number };

export interface FakeRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

export interface ChatRequestBody {
  model?: string;
  messages?: { role: string; content?: unknown; tool_calls?: unknown; tool_call_id?: string }[];
  tools?: {
    type: string;
    function: { name: string; description?: string; parameters?: unknown };
  }[];
  tool_choice?: unknown;
  temperature?: number;
}

export type FakeScript =
  | FakeReply[]
  | ((request: FakeRequest, index: number) => FakeReply | Promise<FakeReply>);

export interface FakeOpenAI {
  /** Base URL including `/v1`, as OpenAI-compatible clients expect. */
  url: string;
  /** Requests received so far (all paths), in arrival order. */
  requests: FakeRequest[];
  /** Chat-completion request bodies only. */
  chatRequests(): ChatRequestBody[];
  close(): Promise<void>;
}

/** What the server process writes back. */
interface WireReply {
  status?: number;
  body?: Json;
  headers?: Record<string, string>;
  drop?: boolean;
  delayMs?: number;
}

export interface FakeOpenAIOptions {
  /** What to do once a reply list is used up: repeat its last reply, or answer 500 (default). */
  whenExhausted?: 'repeat-last' | 'error';
}

const SERVER = fileURLToPath(new URL('./fake-openai-server.mjs', import.meta.url));

export async function startFakeOpenAI(
  script: FakeScript,
  options: FakeOpenAIOptions = {},
): Promise<FakeOpenAI> {
  const child = fork(SERVER, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const requests: FakeRequest[] = [];
  let chatIndex = 0;

  const replyFor = async (request: FakeRequest): Promise<WireReply> => {
    if (request.method === 'GET' && request.path?.endsWith('/models')) {
      return {
        body: {
          object: 'list',
          data: [{ id: 'fake-model', object: 'model', created: 0, owned_by: 'fake' }],
        },
      };
    }
    if (!request.path?.endsWith('/chat/completions')) {
      return {
        status: 404,
        body: { error: { message: `no route ${request.path}`, type: 'invalid_request_error' } },
      };
    }
    const index = chatIndex++;
    let reply: FakeReply | undefined;
    if (typeof script === 'function') reply = await script(request, index);
    else
      reply =
        script[index] ?? (options.whenExhausted === 'repeat-last' ? script.at(-1) : undefined);
    if (!reply) {
      return {
        status: 500,
        body: {
          error: { message: `fake server: no scripted reply #${index}`, type: 'server_error' },
        },
      };
    }
    return render(reply, request, index);
  };

  child.on('message', (msg: unknown) => {
    if (!isRequestMessage(msg)) return;
    const request: FakeRequest = {
      method: msg.request.method ?? 'GET',
      path: msg.request.path ?? '/',
      headers: msg.request.headers ?? {},
      body: msg.request.body,
    };
    requests.push(request);
    replyFor(request).then(
      (reply) => child.send({ type: 'reply', id: msg.id, reply }),
      (error: unknown) =>
        child.send({
          type: 'reply',
          id: msg.id,
          reply: { status: 500, body: { error: { message: String(error), type: 'server_error' } } },
        }),
    );
  });

  const port = await listening(child);

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    chatRequests: () =>
      requests
        .filter((r) => r.path.endsWith('/chat/completions'))
        .map((r) => r.body as ChatRequestBody),
    close: () => stop(child),
  };
}

/** A fake model's modes (fake-openai-model.mjs). */
export type FakeMode =
  | 'tools'
  | 'no-tools'
  | 'react'
  | 'think'
  | 'reasoning'
  | 'think-tags'
  | 'usage'
  | 'error-body';

export interface FakeModel extends FakeOpenAI {
  /** What the server sent back, request by request (chat and others), in arrival order. */
  replies: { status: number; body: unknown }[];
  /** The sums of the `usage` it sent. */
  usageTotals(): { prompt: number; completion: number; cached: number; requests: number };
}

/**
 * The server answering by itself as a fake model in the given modes (no script): e.g. `no-tools`
 * (vLLM's 400 for any request with tools, ReAct text otherwise) with `usage`.
 */
export async function startFakeModel(modes: FakeMode[]): Promise<FakeModel> {
  const child = fork(SERVER, ['--mode', modes.join(',')], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const requests: FakeRequest[] = [];
  const replies: FakeModel['replies'] = [];
  child.on('message', (msg: unknown) => {
    if (typeof msg !== 'object' || msg === null || !('type' in msg) || msg.type !== 'exchange')
      return;
    const m = msg as unknown as {
      request: { method?: string; path?: string; headers?: FakeRequest['headers']; body: unknown };
      reply: { status?: number; body?: unknown };
    };
    requests.push({
      method: m.request.method ?? 'GET',
      path: m.request.path ?? '/',
      headers: m.request.headers ?? {},
      body: m.request.body,
    });
    replies.push({ status: m.reply.status ?? 200, body: m.reply.body });
    child.send({ type: 'ack', id: (msg as { id?: unknown }).id });
  });
  const port = await listening(child);
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    replies,
    chatRequests: () =>
      requests
        .filter((r) => r.path.endsWith('/chat/completions'))
        .map((r) => r.body as ChatRequestBody),
    usageTotals: () => {
      const t = { prompt: 0, completion: 0, cached: 0, requests: 0 };
      for (const r of replies) {
        const u = (r.body as { usage?: WireUsage } | null)?.usage;
        if (!u) continue;
        t.prompt += u.prompt_tokens;
        t.completion += u.completion_tokens;
        t.cached += u.prompt_tokens_details?.cached_tokens ?? 0;
        t.requests += 1;
      }
      return t;
    },
    close: () => stop(child),
  };
}

interface WireUsage {
  prompt_tokens: number;
  completion_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number };
}

function listening(child: ChildProcess): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const onMessage = (msg: unknown) => {
      if (
        msg &&
        typeof msg === 'object' &&
        'type' in msg &&
        msg.type === 'listening' &&
        'port' in msg
      ) {
        child.off('exit', onExit);
        child.off('message', onMessage);
        resolve(Number(msg.port));
      }
    };
    const onExit = (code: number | null) =>
      reject(new Error(`fake OpenAI server exited early (code ${code})`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/** A base URL where nothing listens (a port that was free a moment ago): connection refused. */
export async function deadOpenAIUrl(): Promise<string> {
  const port = await new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      const p = typeof address === 'object' && address ? address.port : 0;
      s.close(() => resolve(p));
    });
  });
  return `http://127.0.0.1:${port}/v1`;
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

function render(reply: FakeReply, request: FakeRequest, index: number): WireReply {
  const delay = reply.delayMs ? { delayMs: reply.delayMs } : {};
  if ('drop' in reply) return { drop: true, ...delay };
  if ('status' in reply) {
    return {
      status: reply.status,
      body: reply.body ?? {
        error: { message: `fake error ${reply.status}`, type: 'server_error' },
      },
      ...(reply.headers ? { headers: reply.headers } : {}),
      ...delay,
    };
  }
  if ('raw' in reply) return { body: reply.raw, ...delay };
  const model = (request.body as ChatRequestBody | null)?.model ?? 'fake-model';
  const toolCalls =
    'toolCalls' in reply
      ? reply.toolCalls.map((c, k) => ({
          id: c.id ?? `call_${index}_${k}`,
          type: 'function',
          function: {
            name: c.name,
            arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments),
          },
        }))
      : [];
  const content = 'toolCalls' in reply ? (reply.content ?? null) : reply.content;
  const message: JsonObject = { role: 'assistant', content, refusal: null };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  if (reply.reasoning !== undefined) message.reasoning_content = reply.reasoning;
  const u = reply.usage ?? { prompt: 10, completion: 5 };
  return {
    body: {
      id: `chatcmpl-fake-${index}`,
      object: 'chat.completion',
      created: 1_700_000_000 + index,
      model,
      choices: [
        {
          index: 0,
          message,
          finish_reason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
          logprobs: null,
        },
      ],
      ...(u === false
        ? {}
        : {
            usage: {
              prompt_tokens: u.prompt,
              completion_tokens: u.completion,
              total_tokens: u.prompt + u.completion,
              ...(u.cached !== undefined
                ? { prompt_tokens_details: { cached_tokens: u.cached } }
                : {}),
            },
          }),
    },
    ...delay,
  };
}

function isRequestMessage(msg: unknown): msg is {
  type: 'request';
  id: number;
  request: { method?: string; path?: string; headers?: Record<string, string>; body: unknown };
} {
  return (
    typeof msg === 'object' &&
    msg !== null &&
    'type' in msg &&
    msg.type === 'request' &&
    'id' in msg
  );
}
