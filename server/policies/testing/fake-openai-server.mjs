// The process side of startFakeOpenAI / startFakeModel (fake-openai.ts): a bare HTTP server speaking
// the OpenAI chat-completions wire format. Two ways to run:
//
// * scripted (forked by startFakeOpenAI, no --mode): it decides nothing itself; each request goes to
//   the parent over IPC and the parent's answer (status, body, headers, delay, or "drop the
//   connection") is written back, so tests script replies in TypeScript while the client talks HTTP;
// * a fake model (--mode tools|no-tools|react|think|reasoning|think-tags|usage|error-body, see
//   fake-openai-model.mjs): it answers by itself — standalone for the e2e and manual tries
//   (`node server/policies/testing/fake-openai-server.mjs --mode no-tools,usage --port 3211`), or
//   forked by startFakeModel, which is told every exchange over IPC.
//   GET /fake/usage returns the totals of the `usage` it sent: {prompt, completion, cached, requests}.
//   Standalone, `--delay-ms N` answers each chat request N ms late (a model's latency; bench/llm-bound.ts)
//   and GET /fake/stats returns {answered, inFlight}.
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { modelReply, parseModes } from './fake-openai-model.mjs';

const { values } = parseArgs({
  options: {
    mode: { type: 'string' },
    port: { type: 'string', default: '0' },
    /** A fake model answers each chat request this late (a model's latency, for benches). */
    'delay-ms': { type: 'string', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
  },
});
// Started by hand without --mode there is no parent to ask: answer as the default fake model.
const modes =
  values.mode !== undefined
    ? parseModes(values.mode)
    : process.send
      ? undefined
      : parseModes('tools');
const delayMs = Number(values['delay-ms']);
const totals = { prompt: 0, completion: 0, cached: 0, requests: 0 };
/** Chat requests answered so far and waiting now (GET /fake/stats). */
const stats = { answered: 0, inFlight: 0 };
let chatIndex = 0;

let nextId = 0;
const pending = new Map();

process.on('message', (msg) => {
  if (msg?.type !== 'reply' && msg?.type !== 'ack') return;
  const done = pending.get(msg.id);
  if (done) {
    pending.delete(msg.id);
    done(msg.reply);
  }
});

/** The fake model's answer to one request (no parent involved). */
function ownReply(request) {
  const path = request.path ?? '';
  if (request.method === 'GET' && path.endsWith('/fake/usage')) return { body: totals };
  if (request.method === 'GET' && path.endsWith('/fake/stats')) return { body: stats };
  if (request.method === 'GET' && path.endsWith('/models')) {
    return {
      body: {
        object: 'list',
        data: [{ id: 'fake-model', object: 'model', created: 0, owned_by: 'fake' }],
      },
    };
  }
  if (!path.endsWith('/chat/completions')) {
    return {
      status: 404,
      body: { error: { message: `no route ${path}`, type: 'invalid_request_error' } },
    };
  }
  const reply = modelReply(request.body ?? {}, chatIndex++, modes);
  const u = reply.body?.usage;
  if (u) {
    totals.prompt += u.prompt_tokens;
    totals.completion += u.completion_tokens;
    totals.cached += u.prompt_tokens_details?.cached_tokens ?? 0;
    totals.requests += 1;
  }
  return reply;
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const id = nextId++;
    const raw = Buffer.concat(chunks).toString('utf8');
    let body = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      body = raw;
    }
    const request = { method: req.method, path: req.url, headers: req.headers, body };
    const write = (reply) => {
      if (reply.drop) {
        req.socket.destroy();
        return;
      }
      const headers = { 'content-type': 'application/json', ...(reply.headers ?? {}) };
      res.writeHead(reply.status ?? 200, headers);
      res.end(JSON.stringify(reply.body ?? {}));
    };
    if (modes) {
      const reply = ownReply(request);
      if (!process.send) {
        if (!(delayMs > 0 && request.method === 'POST')) return write(reply);
        stats.inFlight += 1;
        setTimeout(() => {
          stats.inFlight -= 1;
          stats.answered += 1;
          write(reply);
        }, delayMs);
        return;
      }
      // The parent logs the exchange before the client sees the answer (tests read the log then).
      pending.set(id, () => write(reply));
      process.send({ type: 'exchange', id, request, reply });
      return;
    }
    pending.set(id, (reply) => {
      if (reply.delayMs) setTimeout(() => write(reply), reply.delayMs);
      else write(reply);
    });
    process.send?.({ type: 'request', id, request });
  });
});

server.listen(Number(values.port), values.host, () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  if (process.send) process.send({ type: 'listening', port });
  else
    console.log(
      `fake OpenAI server (${[...(modes ?? [])].join(',') || 'scripted'}) on http://${values.host}:${port}/v1`,
    );
});

// The parent going away (test runner killed) must not leave this server behind.
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
