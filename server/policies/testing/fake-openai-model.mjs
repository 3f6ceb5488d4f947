// The fake OpenAI server's own "model" (fake-openai-server.mjs --mode …): a scripted stand-in for
// an endpoint, so tests and the e2e run LLM policies with no real model. It is NOT a language model:
// it reads the admissible commands in the last message and picks the next unvisited `go to …`
// (else `look`), deterministically. Modes (comma-separated, combinable) shape how it answers:
//
//   tools       answer with a tool call to the request's first tool (the default)
//   no-tools    a request that carries tools gets vLLM's 400 (server started without
//               --enable-auto-tool-choice); requests without tools get ReAct text
//   react       always answer in ReAct text ("Thought: …" + "Action: <command>"), never a tool call
//   think       every third ReAct reply is an ALFWorld-style "think: …" line
//   reasoning   the message carries reasoning_content (vLLM / SGLang reasoning parsers)
//   think-tags  the content starts with a <think>…</think> block
//   usage       the reply carries `usage` (prompt, completion, cached tokens); without it, none
//   error-body  every chat request gets HTTP 400 with an OpenAI-style error body
//
// Whatever the modes, a request for a model whose name starts with `rate-limited` gets HTTP 429 with
// `Retry-After: 2` (OpenAI's rate-limit body): the e2e's one endpoint can show a back-off too.
export const MODES = [
  'tools',
  'no-tools',
  'react',
  'think',
  'reasoning',
  'think-tags',
  'usage',
  'error-body',
];

/** Models named so are always rate limited (429, Retry-After: 2). */
export const RATE_LIMITED_MODEL = 'rate-limited';

export const VLLM_AUTO_TOOL_CHOICE =
  '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set';
export const OPENAI_ERROR_MESSAGE =
  "This model's maximum context length is 4096 tokens. However, your messages resulted in 5120 tokens. Please reduce the length of the messages.";

export function parseModes(text) {
  const modes = String(text ?? '')
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean);
  const unknown = modes.filter((m) => !MODES.includes(m));
  if (unknown.length > 0)
    throw new Error(`unknown fake mode(s) ${unknown.join(', ')}; known: ${MODES.join(', ')}`);
  return new Set(modes);
}

const text = (content) =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((c) => (typeof c?.text === 'string' ? c.text : '')).join('')
      : '';

/** The command the fake picks: the first `go to` target not visited yet, else `look`. */
function pickCommand(messages) {
  const last = [...messages].reverse().find((m) => m.role === 'user' || m.role === 'tool');
  const listed = /Admissible commands: (.*)$/m.exec(text(last?.content))?.[1];
  const admissible = listed ? listed.split(', ').map((c) => c.trim()) : [];
  const said = messages
    .filter((m) => m.role === 'assistant')
    .map((m) => `${text(m.content)} ${JSON.stringify(m.tool_calls ?? '')}`)
    .join('\n');
  const next = admissible.find((c) => c.startsWith('go to ') && !said.includes(c));
  return next ?? 'look';
}

function usageOf(body, completionText, index) {
  const prompt = Math.ceil(JSON.stringify(body.messages ?? []).length / 4);
  const completion = Math.max(1, Math.ceil(completionText.length / 4));
  const cached = index === 0 ? 0 : Math.floor(prompt / 2);
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: cached },
  };
}

/** The reply to one chat request: `{ status?, body }`. */
export function modelReply(body, index, modes) {
  const hasTools = Array.isArray(body?.tools) && body.tools.length > 0;
  if (String(body?.model ?? '').startsWith(RATE_LIMITED_MODEL)) {
    return {
      status: 429,
      headers: { 'retry-after': '2' },
      body: {
        error: {
          message: `Rate limit reached for ${body.model}: requests per minute. Please try again in 2s.`,
          type: 'requests',
          code: 'rate_limit_exceeded',
        },
      },
    };
  }
  if (modes.has('error-body')) {
    return {
      status: 400,
      body: {
        error: {
          message: OPENAI_ERROR_MESSAGE,
          type: 'invalid_request_error',
          param: 'messages',
          code: 'context_length_exceeded',
        },
      },
    };
  }
  if (modes.has('no-tools') && hasTools) {
    const auto = body.tool_choice === undefined || body.tool_choice === 'auto';
    return {
      status: 400,
      body: {
        object: 'error',
        message: auto ? VLLM_AUTO_TOOL_CHOICE : 'this server has no tool calling support',
        type: 'BadRequestError',
        param: null,
        code: 400,
      },
    };
  }
  const messages = Array.isArray(body?.messages) ? body.messages : [];
  const command = pickCommand(messages);
  const turn = messages.filter((m) => m.role === 'assistant').length;
  const thinking = modes.has('think') && turn % 3 === 0;
  const reasoning = `The goal names what to find. I have not looked at ${command.replace(/^go to /, '')} yet, so ${command} is next.`;
  const message = { role: 'assistant', content: null, refusal: null };
  const asText = !hasTools || modes.has('react') || modes.has('no-tools');
  let said;
  if (asText) {
    said = thinking
      ? `think: I will search the receptacles one by one, starting with ${command.replace(/^go to /, '')}.`
      : `Thought: ${command} is the next place to look.\nAction: ${command}`;
    message.content = said;
  } else {
    const tool = body.tools[0].function;
    const props = Object.keys(tool.parameters?.properties ?? {});
    said = JSON.stringify({ [props[0] ?? 'command']: command });
    message.tool_calls = [
      { id: `call_${index}_0`, type: 'function', function: { name: tool.name, arguments: said } },
    ];
  }
  if (modes.has('think-tags'))
    message.content = `<think>${reasoning}</think>\n${message.content ?? ''}`;
  if (modes.has('reasoning')) message.reasoning_content = reasoning;
  const reply = {
    id: `chatcmpl-fake-${index}`,
    object: 'chat.completion',
    created: 1_700_000_000 + index,
    model: body?.model ?? 'fake-model',
    choices: [
      {
        index: 0,
        message,
        finish_reason: message.tool_calls ? 'tool_calls' : 'stop',
        logprobs: null,
      },
    ],
  };
  if (modes.has('usage')) {
    const thought = modes.has('reasoning') || modes.has('think-tags') ? reasoning : '';
    reply.usage = usageOf(body, `${thought}${said}`, index);
  }
  return { body: reply };
}
