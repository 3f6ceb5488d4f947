// The thin chat-completions client over https (node:https and its keep-alive agent, the path every
// hosted endpoint takes) against the SDK it replaces: the same completion, the same errors. The
// server's certificate is self-signed (a fixture below, valid until 2126): untrusted, both fail to
// connect the same way; trusted (NODE_TLS_REJECT_UNAUTHORIZED=0, for this file's process only),
// every answer must match.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatClient } from './chat-client.ts';
import { llmClient } from './llm-endpoint.ts';
import { answer, COMPLETION, outcome, params } from './testing/chat-replies.ts';

const KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQglO39MiEQtyW7aqAZ
7NoUPf0KrzUDjISG3zAu8l56WBehRANCAARjZYOnjStwCHniGmLenTAK3UZNKJYp
7uiWFnF2tfR6IjzUmlgH2oJMzduZs0HOJEygtxfdbB72Wel0ZHzTj4E6
-----END PRIVATE KEY-----
`;
const CERT = `-----BEGIN CERTIFICATE-----
MIIBnDCCAUGgAwIBAgIUZX05E7KFWtsAlCQzuQap6eFxTvgwCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTIwMjIwMjQzOFoYDzIxMjYxMTA4
MjAyNDM4WjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAARjZYOnjStwCHniGmLenTAK3UZNKJYp7uiWFnF2tfR6IjzUmlgH2oJM
zduZs0HOJEygtxfdbB72Wel0ZHzTj4E6o28wbTAdBgNVHQ4EFgQUgJ2FgLS2KtHf
DwCgWnATrnpwlLwwHwYDVR0jBBgwFoAUgJ2FgLS2KtHfDwCgWnATrnpwlLwwDwYD
VR0TAQH/BAUwAwEB/zAaBgNVHREEEzARgglsb2NhbGhvc3SHBH8AAAEwCgYIKoZI
zj0EAwIDSQAwRgIhAP7QNlllgsd4cxYz+INHTY4LBMte7FXrrfz3WzAcpSFAAiEA
/fjvP8Ciry5jbLTYPkg8r+1I7k5cFoIa0ARrpN6llBQ=
-----END CERTIFICATE-----
`;

/** The reply shapes checked over https (chat-client.test.ts checks every one over http). */
const SHAPES = ['ok', 'limited', 'html', 'detail'];

let server: Server;
let base: string;
let requests = 0;
beforeAll(async () => {
  server = createServer({ key: KEY, cert: CERT }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests += 1;
      answer(Buffer.concat(chunks).toString('utf8'), res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `https://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const sdk = (model: string, timeoutMs = 5000) =>
  outcome(llmClient({ baseURL: base, timeoutMs }).chat.completions.create(params(model)));
const thin = (model: string, timeoutMs = 5000) =>
  outcome(new ChatClient({ baseURL: base, timeoutMs }).create(JSON.stringify(params(model))));

describe('ChatClient over https', () => {
  it('fails to connect to an untrusted certificate as the SDK does, and sends nothing', async () => {
    const before = requests;
    const theirs = await sdk('ok');
    const ours = await thin('ok');
    expect(ours).toEqual(theirs);
    expect(ours).toMatchObject({ class: 'APIConnectionError', message: 'Connection error.' });
    expect(requests).toBe(before);
  });

  it.each(SHAPES)('answers %s as the SDK does once the certificate is trusted', async (model) => {
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
    const ours = await thin(model);
    expect(ours).toEqual(await sdk(model));
    if (model === 'ok') expect(ours).toEqual({ value: COMPLETION });
    else expect(ours).toHaveProperty('class');
  });

  it('times out as the SDK does, on a kept-alive connection too', async () => {
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
    const client = new ChatClient({ baseURL: base, timeoutMs: 150 });
    expect(await outcome(client.create(JSON.stringify(params('ok'))))).toEqual({
      value: COMPLETION,
    });
    const ours = await outcome(client.create(JSON.stringify(params('hang'))));
    expect(ours).toEqual(await sdk('hang', 150));
    expect(ours).toMatchObject({ class: 'APIConnectionTimeoutError' });
    // The agent still serves the next request after a timed-out one.
    expect(await outcome(client.create(JSON.stringify(params('ok'))))).toEqual({
      value: COMPLETION,
    });
  });
});
