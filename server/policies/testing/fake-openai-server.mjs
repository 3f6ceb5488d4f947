// The process side of startFakeOpenAI (fake-openai.ts): a bare HTTP server speaking the
// OpenAI chat-completions wire format. It decides nothing itself: each request goes to the parent
// over IPC and the parent's answer (status, body, headers, delay, or "drop the connection") is
// written back, so tests script replies in TypeScript while the client talks real HTTP.
import { createServer } from 'node:http';

let nextId = 0;
const pending = new Map();

process.on('message', (msg) => {
  if (msg?.type !== 'reply') return;
  const done = pending.get(msg.id);
  if (done) {
    pending.delete(msg.id);
    done(msg.reply);
  }
});

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
    pending.set(id, (reply) => {
      const write = () => {
        if (reply.drop) {
          req.socket.destroy();
          return;
        }
        const headers = { 'content-type': 'application/json', ...(reply.headers ?? {}) };
        res.writeHead(reply.status ?? 200, headers);
        res.end(JSON.stringify(reply.body ?? {}));
      };
      if (reply.delayMs) setTimeout(write, reply.delayMs);
      else write();
    });
    process.send?.({
      type: 'request',
      id,
      request: { method: req.method, path: req.url, headers: req.headers, body },
    });
  });
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send?.({
    type: 'listening',
    port: typeof address === 'object' && address ? address.port : 0,
  });
});

// The parent going away (test runner killed) must not leave this server behind.
process.on('disconnect', () => process.exit(0));
