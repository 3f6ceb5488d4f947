// An SSE client of a run's live stream (the tRPC subscription runs.live), as the browser's
// EventSource would be, over its own connection: the HTTP load test and bench/live.ts read with it.
import { type IncomingMessage, request } from 'node:http';

export interface ReceivedEvent {
  id: string;
  createdAt: string;
  type: string;
  /** Date.now() when the chunk holding the event arrived. */
  at: number;
}

/**
 * Follows a run's stream from `lastEventId` until the server's `return` event (after
 * run_completed), timestamping each event's arrival and the stream's `connected` event.
 */
export function followRunEvents(
  base: string,
  runId: string,
  lastEventId: string,
): Promise<{ events: ReceivedEvent[]; connectedAt: number }> {
  const input = encodeURIComponent(JSON.stringify({ runId, lastEventId }));
  return new Promise((resolve, reject) => {
    const events: ReceivedEvent[] = [];
    let connectedAt = Number.NaN;
    const req = request(
      `${base}/api/trpc/runs.live?input=${input}`,
      { agent: false, headers: { Accept: 'text/event-stream' } },
      (res: IncomingMessage) => {
        if (res.statusCode !== 200) {
          reject(new Error(`runs.live answered ${res.statusCode}`));
          res.resume();
          return;
        }
        res.setEncoding('utf8');
        let buffer = '';
        let ended = false;
        const finish = () => {
          if (ended) return;
          ended = true;
          req.destroy();
          resolve({ events, connectedAt });
        };
        res.on('data', (chunk: string) => {
          const at = Date.now();
          buffer += chunk;
          for (let cut = buffer.indexOf('\n\n'); cut >= 0; cut = buffer.indexOf('\n\n')) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            let event = 'message';
            let id: string | undefined;
            const data: string[] = [];
            for (const line of block.split('\n')) {
              if (line.startsWith('event:')) event = line.slice(6).trim();
              else if (line.startsWith('id:')) id = line.slice(3).trim();
              else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
            }
            if (event === 'connected') connectedAt = at;
            else if (event === 'return') return finish();
            else if (event === 'serialized-error') {
              reject(new Error(`runs.live failed: ${data.join('\n')}`));
              return finish();
            } else if (event === 'message' && id !== undefined) {
              const e = JSON.parse(data.join('\n')) as {
                id: string;
                createdAt: string;
                type: string;
              };
              events.push({ id: e.id, createdAt: e.createdAt, type: e.type, at });
            }
          }
        });
        res.on('end', finish);
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}
