// Runs inside an IsolatedPool worker: loads the handlers module, attaches the hook watchdog, then
// runs one job at a time and posts back its value or a serialised error.
import { parentPort, workerData } from 'node:worker_threads';
import { toWireError } from '../errors.ts';
import { attachWatchdog } from './sandbox/index.ts';

type Handler = (input: unknown) => Promise<unknown>;

interface Boot {
  module: string;
  watchdog: SharedArrayBuffer;
}

const boot = workerData as Boot;
attachWatchdog(boot.watchdog);
const port = parentPort;
if (!port) throw new Error('worker-entry must run in a worker thread');

const loaded = (await import(boot.module)) as {
  handlers?: Record<string, Handler>;
  default?: Record<string, Handler>;
};
const handlers = loaded.handlers ?? loaded.default ?? {};

port.on('message', async (msg: { id: number; handler: string; input: unknown }) => {
  const handler = handlers[msg.handler];
  if (!handler) {
    port.postMessage({
      id: msg.id,
      ok: false,
      error: { name: 'Error', message: `no handler '${msg.handler}' in ${boot.module}` },
    });
    return;
  }
  try {
    const value = await handler(msg.input);
    port.postMessage({ id: msg.id, ok: true, value });
  } catch (e) {
    port.postMessage({ id: msg.id, ok: false, error: toWireError(e) });
  }
});
port.postMessage({ ready: true });
