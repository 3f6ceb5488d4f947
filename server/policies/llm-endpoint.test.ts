import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import {
  describeLlmError,
  normalizeErrorBody,
  refusesTools,
  splitReasoning,
  usageOf,
} from './llm-endpoint.ts';

const VLLM =
  '{"object":"error","message":"\\"auto\\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set","type":"BadRequestError","param":null,"code":400}';

function apiError(status: number, bodyText: string): InstanceType<typeof OpenAI.APIError> {
  // What the SDK builds from a response: it reads `error` of the parsed JSON body.
  const fixed = normalizeErrorBody(bodyText) ?? bodyText;
  let json: unknown;
  try {
    json = JSON.parse(fixed);
  } catch {
    json = undefined;
  }
  return OpenAI.APIError.generate(
    status,
    json as object | undefined,
    json ? undefined : fixed,
    new Headers(),
  ) as InstanceType<typeof OpenAI.APIError>;
}

describe('error bodies in the server words', () => {
  it("rewrites vLLM's, FastAPI's and plain-string bodies into OpenAI's shape", () => {
    expect(JSON.parse(normalizeErrorBody(VLLM) ?? '')).toEqual({
      error: {
        message:
          '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
        type: 'BadRequestError',
        code: 400,
        param: null,
      },
    });
    expect(JSON.parse(normalizeErrorBody('{"detail":"Not Found"}') ?? '').error.message).toBe(
      'Not Found',
    );
    expect(JSON.parse(normalizeErrorBody('{"error":"model not loaded"}') ?? '').error.message).toBe(
      'model not loaded',
    );
    // OpenAI's own shape and non-JSON text are left to the SDK, which reads both.
    expect(normalizeErrorBody('{"error":{"message":"bad key"}}')).toBeUndefined();
    expect(normalizeErrorBody('<html>502 Bad Gateway</html>')).toBeUndefined();
  });

  it('describes the errors with the message the server sent, never "(no body)"', () => {
    expect(describeLlmError(apiError(400, VLLM))).toBe(
      'HTTP 400: "auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
    );
    expect(
      describeLlmError(
        apiError(400, '{"error":{"message":"context too long","type":"invalid_request_error"}}'),
      ),
    ).toBe('HTTP 400: context too long');
    expect(describeLlmError(apiError(502, 'Bad Gateway'))).toBe('HTTP 502: Bad Gateway');
  });

  it('knows a refusal of tools from other client errors', () => {
    expect(refusesTools(apiError(400, VLLM))).toBe(true);
    expect(refusesTools(apiError(400, '{"error":"gemma:2b does not support tools"}'))).toBe(true);
    expect(
      refusesTools(apiError(500, '{"error":{"message":"tools param requires --jinja flag"}}')),
    ).toBe(true);
    expect(refusesTools(apiError(400, '{"error":{"message":"context too long"}}'))).toBe(false);
    expect(refusesTools(apiError(401, '{"error":{"message":"tools need a key"}}'))).toBe(false);
    expect(refusesTools(apiError(429, '{"error":{"message":"too many tool calls"}}'))).toBe(false);
    expect(refusesTools(new Error('tools'))).toBe(false);
  });
});

describe('what a reply says and how it reasoned', () => {
  it('takes reasoning_content (vLLM, SGLang, DeepSeek) or reasoning apart from the content', () => {
    const m = { content: 'Action: look', reasoning_content: 'I should look first.' };
    expect(splitReasoning(m as never)).toEqual({
      content: 'Action: look',
      reasoning: 'I should look first.',
    });
    expect(splitReasoning({ content: 'go', reasoning: 'why' } as never)).toEqual({
      content: 'go',
      reasoning: 'why',
    });
  });

  it('takes <think> blocks out of the content, also a lone closing tag and a cut-off block', () => {
    expect(splitReasoning({ content: '<think>plan A</think>\nAction: look' })).toEqual({
      content: 'Action: look',
      reasoning: 'plan A',
    });
    // The chat template opened the block; the reply starts inside it.
    expect(splitReasoning({ content: 'plan B</think>\n\ngo to desk 1' })).toEqual({
      content: 'go to desk 1',
      reasoning: 'plan B',
    });
    expect(splitReasoning({ content: 'Action: look\n<think>and then' })).toEqual({
      content: 'Action: look',
      reasoning: 'and then',
    });
    expect(splitReasoning({ content: null })).toEqual({ content: '' });
  });

  it("reads usage with cached and reasoning tokens, DeepSeek's cache field too", () => {
    expect(
      usageOf({
        usage: {
          prompt_tokens: 120,
          completion_tokens: 30,
          total_tokens: 150,
          prompt_tokens_details: { cached_tokens: 64 },
          completion_tokens_details: { reasoning_tokens: 12 },
        },
      } as never),
    ).toEqual({ prompt: 120, completion: 30, cached: 64, reasoning: 12, requests: 1 });
    expect(
      usageOf({
        usage: { prompt_tokens: 9, completion_tokens: 1, prompt_cache_hit_tokens: 4 },
      } as never),
    ).toEqual({ prompt: 9, completion: 1, cached: 4, requests: 1 });
    expect(usageOf({ usage: undefined } as never)).toBeUndefined();
  });
});
