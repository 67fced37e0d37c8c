import websocket, { type WebsocketPluginOptions } from '@fastify/websocket';
import type { FastifyBaseLogger, FastifyInstance, FastifyPluginAsync } from 'fastify';
import {
  MAX_SIGNAL_MESSAGE_BYTES,
  SIGNAL_CLOSE_CODES,
  SIGNAL_HEARTBEAT_MS,
  SIGNAL_JOIN_TIMEOUT_MS,
} from '@vetcall/shared/schemas/video';
import type { Config } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import { createRedisSignalBus } from './redis-signal-bus.ts';
import { createMemorySignalBus, type SignalBus } from './signal-bus.ts';
import { type SignalSession, startSignalSession } from './signal-session.ts';

/** Options of @fastify/websocket (registered by the signalling routes, for them alone). */
const WEBSOCKET_OPTIONS: WebsocketPluginOptions = {
  // ws closes the connection with 1009 on a larger message, before reading it whole.
  options: { maxPayload: MAX_SIGNAL_MESSAGE_BYTES },
  // On shutdown every socket is closed with 1012 "service restart" (the plugin's default gives no code), so
  // clients reconnect, to another instance if there is one; new upgrades are refused with 503 from here on.
  preClose(this: FastifyInstance, done: () => void) {
    const code = SIGNAL_CLOSE_CODES.service_unavailable;
    for (const client of this.websocketServer.clients) client.close(code, 'service_unavailable');
    this.websocketServer.close();
    done();
  },
};

/** A Redis seat outlives this many missed heartbeats before it frees itself. */
const SEAT_TTL_HEARTBEATS = 3;

/** In memory for one instance; through Redis pub/sub when REDIS_URL is set (many instances). */
export function createSignalBus(config: Config, log: FastifyBaseLogger, heartbeatMs = SIGNAL_HEARTBEAT_MS): SignalBus {
  if (!config.redis.url) return createMemorySignalBus();
  return createRedisSignalBus({
    url: config.redis.url,
    keyPrefix: config.redis.keyPrefix,
    seatTtlMs: heartbeatMs * SEAT_TTL_HEARTBEATS,
    log,
  });
}

export interface SignallingOptions {
  context: AppContext;
  /** A bus of the caller's (closed by the caller); by default one made from the configuration. */
  bus?: SignalBus;
  joinTimeoutMs?: number;
  heartbeatMs?: number;
}

/**
 * GET /api/video/signal, upgraded to a WebSocket: the signalling of the built-in WebRTC room
 * (docs/video-signalling.md). Media never passes here: only offers, answers, ICE candidates, chat and
 * microphone/camera states, between the two parties of one appointment.
 */
export const signallingRoutes: FastifyPluginAsync<SignallingOptions> = async (app, options) => {
  // Here, not on the whole app: the plugin's request and response hooks (is this an upgrade?) would otherwise
  // run on every HTTP request, about 1 µs of a kept answer's 25 µs of CPU.
  await app.register(websocket, WEBSOCKET_OPTIONS);
  const heartbeatMs = options.heartbeatMs ?? SIGNAL_HEARTBEAT_MS;
  const bus = options.bus ?? createSignalBus(options.context.config, app.log, heartbeatMs);
  const sessions = new Set<SignalSession>();

  const heartbeat = setInterval(() => {
    for (const session of sessions) void session.heartbeat();
  }, heartbeatMs);
  heartbeat.unref();

  app.addHook('preClose', async () => {
    clearInterval(heartbeat);
    await Promise.all([...sessions].map((session) => session.shutdown()));
  });
  app.addHook('onClose', async () => {
    if (!options.bus) await bus.close();
  });

  app.get('/signal', { websocket: true, schema: { hide: true } }, (socket, request) => {
    const session = startSignalSession(socket, request, {
      context: options.context,
      bus,
      joinTimeoutMs: options.joinTimeoutMs ?? SIGNAL_JOIN_TIMEOUT_MS,
    });
    sessions.add(session);
    void session.finished.then(() => sessions.delete(session));
  });
};
