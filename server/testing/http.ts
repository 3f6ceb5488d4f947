// The studio's request handler (server/http.ts) on a free local port, with a stand-in for Next.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Services } from '../compose.ts';
import { type StudioHandlerOptions, studioRequestHandler } from '../http.ts';

export interface TestServer {
  server: Server;
  /** `http://127.0.0.1:<port>` */
  base: string;
  close(): Promise<void>;
}

export async function serveStudio(
  services: Services,
  o: StudioHandlerOptions,
): Promise<TestServer> {
  const server = createServer(studioRequestHandler(services, o));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      // Open SSE streams would keep server.close() waiting forever.
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
