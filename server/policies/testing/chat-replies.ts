// What the chat-client tests' servers answer (http: chat-client.test.ts, https:
// chat-client-https.test.ts), and how a call's outcome is compared with the SDK's.
import type { ServerResponse } from 'node:http';
import type OpenAI from 'openai';

export const COMPLETION = {
  id: 'c1',
  object: 'chat.completion',
  created: 0,
  model: 'm',
  choices: [
    { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'héllo ✓' } },
  ],
  usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
};

/** How the server answers a request for model `<route>`. */
export const ROUTES: Record<
  string,
  { status: number; body: string; headers?: Record<string, string> }
> = {
  ok: { status: 200, body: JSON.stringify(COMPLETION) },
  vllm: {
    status: 400,
    body: '{"object":"error","message":"\\"auto\\" tool choice requires --enable-auto-tool-choice","type":"BadRequestError","param":null,"code":400}',
  },
  openai: {
    status: 400,
    body: '{"error":{"message":"context too long","type":"invalid_request_error","code":"ctx"}}',
  },
  limited: {
    status: 429,
    body: '{"error":{"message":"slow down"}}',
    headers: { 'retry-after': '2', 'retry-after-ms': '1500' },
  },
  html: {
    status: 502,
    body: '<html>502 Bad Gateway</html>',
    headers: { 'content-type': 'text/html' },
  },
  empty: { status: 503, body: '' },
  detail: { status: 401, body: '{"detail":"bad key"}' },
};

/** Answers a request whose JSON body is `body` by its model's route; model `hang` never answers. */
export function answer(body: string, res: ServerResponse): void {
  const model = (JSON.parse(body) as { model: string }).model;
  if (model === 'hang') return;
  const r = ROUTES[model] ?? ROUTES.ok;
  res.writeHead(r?.status ?? 200, { 'content-type': 'application/json', ...r?.headers });
  res.end(r?.body);
}

export const params = (model: string) => ({
  model,
  messages: [{ role: 'user' as const, content: 'say "hi" — ünïcode' }],
  temperature: 0.3,
  seed: 7,
});

/** What a call resolved with, or what it threw, in comparable terms. */
export async function outcome(p: Promise<unknown>) {
  try {
    return { value: await p };
  } catch (error) {
    const e = error as InstanceType<typeof OpenAI.APIError>;
    return {
      class: e.constructor.name,
      message: e.message,
      status: e.status,
      error: e.error,
      retryAfter: e.headers?.get('retry-after') ?? null,
      retryAfterMs: e.headers?.get('retry-after-ms') ?? null,
    };
  }
}
