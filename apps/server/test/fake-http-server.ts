import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeHandler = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * A real HTTP server on 127.0.0.1 (random port) standing in for a third-party API. It records every
 * request and answers with whatever `handle` says; swap `handle` per test. `close()` also drops
 * connections left hanging on purpose.
 */
export async function startFakeHttpServer(initial: FakeHandler = notFoundHandler) {
  const requests: { method: string; url: string; headers: IncomingMessage['headers'] }[] = [];
  const state = { handle: initial };
  const server = createServer((request, response) => {
    requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers });
    state.handle(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    set handle(handler: FakeHandler) {
      state.handle = handler;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type FakeHttpServer = Awaited<ReturnType<typeof startFakeHttpServer>>;

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
}

export function sendText(response: ServerResponse, status: number, body: string, type = 'text/html'): void {
  response.writeHead(status, { 'content-type': `${type}; charset=utf-8` });
  response.end(body);
}

function notFoundHandler(_request: IncomingMessage, response: ServerResponse) {
  sendText(response, 404, 'Not Found', 'text/plain');
}

/** Never answers (the client's timeout must end the call). */
export const hang: FakeHandler = () => {};

/** Sends the headers, then never the body. */
export const hangAfterHeaders: FakeHandler = (_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.write('{"partial":');
};

/** A URL on which nothing listens (a port just freed). */
export async function unusedBaseUrl(): Promise<string> {
  const server = await startFakeHttpServer();
  const { baseUrl } = server;
  await server.close();
  return baseUrl;
}
