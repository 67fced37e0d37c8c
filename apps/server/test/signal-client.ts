import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { WebSocket } from 'ws';
import { SIGNAL_PATH, type SignalServerMessage } from '@vetcall/shared/schemas/video';

/**
 * A real WebSocket client of the signalling endpoint (the `ws` package, as a browser would connect), that
 * keeps what the server sends in order so a test can take the messages one by one.
 */

const WAIT_MS = 5000;

type MessageOf<Type extends SignalServerMessage['type']> = Extract<SignalServerMessage, { type: Type }>;

export interface SignalClient {
  readonly socket: WebSocket;
  send(message: unknown): void;
  sendRaw(data: string | Buffer): void;
  /** The next message, which must be of `type`. */
  next<Type extends SignalServerMessage['type']>(type: Type): Promise<MessageOf<Type>>;
  /** Sends `join` and answers the `joined`. */
  join(pin: string, resumeToken?: string): Promise<MessageOf<'joined'>>;
  /** Everything received and not yet taken, taken now. */
  takeAll(): SignalServerMessage[];
  /** Fails if any message comes within `ms`. */
  expectNothing(ms?: number): Promise<void>;
  /** How the server closed the socket. */
  readonly closed: Promise<{ code: number; reason: string }>;
  close(): Promise<void>;
}

/** ws://127.0.0.1:<port>/api/video/signal of an app listening on 127.0.0.1:0. */
export async function listenForSignalling(app: FastifyInstance): Promise<string> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return `ws://127.0.0.1:${port}${SIGNAL_PATH}`;
}

export async function connectSignalClient(
  url: string,
  options: { autoPong?: boolean; headers?: Record<string, string> } = {},
): Promise<SignalClient> {
  const socket = new WebSocket(url, { autoPong: options.autoPong ?? true, headers: options.headers });
  const unread: SignalServerMessage[] = [];
  let waiter: (() => void) | undefined;
  let closedInfo: { code: number; reason: string } | undefined;

  socket.on('message', (data) => {
    unread.push(JSON.parse(data.toString()) as SignalServerMessage);
    waiter?.();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    socket.on('close', (code, reason) => {
      closedInfo = { code, reason: reason.toString() };
      resolve(closedInfo);
      waiter?.();
    });
  });
  socket.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });

  async function nextMessage(): Promise<SignalServerMessage> {
    const deadline = Date.now() + WAIT_MS;
    while (unread.length === 0) {
      if (closedInfo) throw new Error(`socket closed (${closedInfo.code} ${closedInfo.reason}) with nothing unread`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('no message within 5 s');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        waiter = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      waiter = undefined;
    }
    return unread.shift()!;
  }

  const client: SignalClient = {
    socket,
    closed,
    send: (message) => socket.send(JSON.stringify(message)),
    sendRaw: (data) => socket.send(data),
    async next(type) {
      const message = await nextMessage();
      if (message.type !== type) throw new Error(`expected ${type}, got ${JSON.stringify(message).slice(0, 300)}`);
      return message as never;
    },
    async join(pin, resumeToken) {
      client.send({ type: 'join', pin, ...(resumeToken ? { resume_token: resumeToken } : {}) });
      return client.next('joined');
    },
    takeAll: () => unread.splice(0),
    async expectNothing(ms = 150) {
      await new Promise((resolve) => setTimeout(resolve, ms));
      if (unread.length > 0) throw new Error(`unexpected message ${JSON.stringify(unread[0]).slice(0, 300)}`);
    },
    async close() {
      if (socket.readyState === socket.CLOSED) return;
      socket.close();
      await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 1000))]);
      socket.terminate();
    },
  };
  return client;
}
