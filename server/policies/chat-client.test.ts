// The thin chat-completions client against the SDK it replaces on the policy's hot path: the same
// bytes reach the server, and every answer (a completion, an HTTP error in any body shape, a
// timeout, a refused connection) comes back as the same value or the same error.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatClient } from './chat-client.ts';
import { llmClient } from './llm-endpoint.ts';
import { answer, outcome, params, ROUTES } from './testing/chat-replies.ts';

let server: Server;
let base: string;
const seen: { body: string; headers: IncomingHttpHeaders; url: string | undefined }[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ body, headers: req.headers, url: req.url });
      answer(body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('ChatClient', () => {
  it('sends what the SDK sends (body bytes, path, key and content headers)', async () => {
    seen.length = 0;
    const body = JSON.stringify(params('ok'));
    await llmClient({ baseURL: base, apiKey: 'sk-1' }).chat.completions.create(params('ok'));
    await new ChatClient({ baseURL: base, apiKey: 'sk-1', timeoutMs: 5000 }).create(body);
    const [sdk, thin] = seen;
    expect(thin?.body).toBe(sdk?.body);
    expect(thin?.body).toBe(body);
    expect(thin?.url).toBe('/v1/chat/completions');
    expect(thin?.url).toBe(sdk?.url);
    for (const h of ['authorization', 'content-type', 'accept', 'content-length', 'user-agent'])
      expect([h, thin?.headers[h]]).toEqual([h, sdk?.headers[h]]);
    // A base URL with a trailing slash joins the same way.
    await new ChatClient({ baseURL: `${base}/`, timeoutMs: 5000 }).create(body);
    expect(seen[2]?.url).toBe('/v1/chat/completions');
    expect(seen[2]?.headers.authorization).toBe('Bearer not-needed');
  });

  it.each(Object.keys(ROUTES))('answers %s as the SDK does', async (model) => {
    const sdk = await outcome(
      llmClient({ baseURL: base, timeoutMs: 5000 }).chat.completions.create(params(model)),
    );
    const thin = await outcome(
      new ChatClient({ baseURL: base, timeoutMs: 5000 }).create(JSON.stringify(params(model))),
    );
    expect(thin).toEqual(sdk);
    if (model !== 'ok') expect(thin).toHaveProperty('class');
  });

  it('times out as the SDK does, and a refused connection is its connection error', async () => {
    const hang = JSON.stringify(params('hang'));
    const sdk = await outcome(
      llmClient({ baseURL: base, timeoutMs: 100 }).chat.completions.create(params('hang')),
    );
    const thin = await outcome(new ChatClient({ baseURL: base, timeoutMs: 100 }).create(hang));
    expect(thin).toEqual(sdk);
    expect(thin).toMatchObject({ class: 'APIConnectionTimeoutError' });

    const dead = 'http://127.0.0.1:1/v1';
    const sdkDead = await outcome(
      llmClient({ baseURL: dead, timeoutMs: 5000 }).chat.completions.create(params('ok')),
    );
    const thinDead = await outcome(new ChatClient({ baseURL: dead, timeoutMs: 5000 }).create(hang));
    expect(thinDead).toEqual(sdkDead);
    expect(thinDead).toMatchObject({ class: 'APIConnectionError', message: 'Connection error.' });
  });
});
