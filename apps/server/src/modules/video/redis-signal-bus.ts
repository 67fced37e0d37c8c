import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { packageOnFirstUse } from '../../lib/package-on-first-use.ts';
import type { Party } from '@vetcall/shared/schemas/video';
import {
  type ClaimResult,
  otherParty,
  type RoomEvent,
  type RoomListener,
  type Seat,
  type SeatHolder,
  type SignalBus,
} from './signal-bus.ts';

/**
 * The signal bus across server instances (REDIS_URL). A room is a pub/sub channel that every instance with
 * a connection in the room subscribes to; a seat is a key holding its holder as JSON, with an expiry that
 * the holder's heartbeat pushes back, so the seat of a crashed instance frees itself. Checking and taking
 * a seat are one Lua script each: atomic however many instances race.
 *
 *   <prefix>video:<room>               channel of the room's events
 *   <prefix>video:<room>:seat:<party>  the seat's holder, expiring after seatTtlMs without a heartbeat
 */

/** KEYS: own seat, other seat. ARGV: seat JSON, presented token hash or '', TTL ms. → {admitted, peer JSON or ''} */
const CLAIM_SCRIPT = `
local current = redis.call('GET', KEYS[1])
if current then
  local holder = cjson.decode(current)
  if ARGV[2] == '' or holder.resumeTokenHash ~= ARGV[2] then return {0, ''} end
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
return {1, redis.call('GET', KEYS[2]) or ''}
`;

/**
 * KEYS: own seat, other seat. ARGV: connection id, TTL ms, seat JSON. → {held, peer JSON or ''}. A seat that
 * expired while its holder lived (a stalled instance) is taken again; one taken by another connection is not.
 */
const REFRESH_SCRIPT = `
local current = redis.call('GET', KEYS[1])
local held = 0
if not current then
  if ARGV[3] ~= '' then
    redis.call('SET', KEYS[1], ARGV[3], 'PX', ARGV[2])
    held = 1
  end
elseif cjson.decode(current).connectionId == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  held = 1
end
return {held, redis.call('GET', KEYS[2]) or ''}
`;

/** KEYS: own seat. ARGV: connection id. Deletes the seat only if that connection holds it. */
const RELEASE_SCRIPT = `
local current = redis.call('GET', KEYS[1])
if current and cjson.decode(current).connectionId == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

export interface RedisSignalBusOptions {
  url: string;
  keyPrefix: string;
  /** A seat not refreshed for this long is free again (a few heartbeats). */
  seatTtlMs: number;
  log: Pick<FastifyBaseLogger, 'error' | 'warn'>;
}

const holderOf = (json: string): SeatHolder | null => {
  if (!json) return null;
  const seat = JSON.parse(json) as Seat;
  return { connectionId: seat.connectionId, party: seat.party, name: seat.name };
};

/** Loaded only with REDIS_URL. */
const ioredis = packageOnFirstUse<{ Redis: typeof Redis }>('ioredis');

export function createRedisSignalBus(options: RedisSignalBusOptions): SignalBus {
  const redisOptions = { maxRetriesPerRequest: 3, connectTimeout: 5000 };
  const { Redis: RedisClient } = ioredis();
  const commands = new RedisClient(options.url, { ...redisOptions, connectionName: 'vetcall-signal' });
  const subscriber = new RedisClient(options.url, { ...redisOptions, connectionName: 'vetcall-signal-sub' });

  // A Redis outage repeats the same error at every reconnect attempt: log each distinct one once a minute.
  const lastLogged = new Map<string, number>();
  const logError = (connection: string) => (error: Error) => {
    const key = `${connection}:${error.message}`;
    const now = Date.now();
    if ((lastLogged.get(key) ?? 0) > now - 60_000) return;
    lastLogged.set(key, now);
    options.log.error({ err: error, connection }, 'video signalling: Redis error');
  };
  commands.on('error', logError('commands'));
  subscriber.on('error', logError('subscriber'));

  const channelOf = (room: string) => `${options.keyPrefix}video:${room}`;
  const seatKey = (room: string, party: Party) => `${options.keyPrefix}video:${room}:seat:${party}`;

  /** The seats this instance's connections hold, as stored: to take one again after it expired. */
  const seatsHeld = new Map<string, string>();
  const heldKey = (room: string, party: Party, connectionId: string) => `${room}:${party}:${connectionId}`;

  /** Local listeners per channel, and the SUBSCRIBE they wait for. */
  const channels = new Map<string, { listeners: Set<RoomListener>; ready: Promise<unknown> }>();

  subscriber.on('message', (channel: string, payload: string) => {
    const entry = channels.get(channel);
    if (!entry) return;
    let event: RoomEvent;
    try {
      event = JSON.parse(payload) as RoomEvent;
    } catch (error) {
      options.log.warn({ err: error, channel }, 'video signalling: unreadable event on Redis');
      return;
    }
    for (const listener of [...entry.listeners]) listener(event);
  });

  return {
    kind: 'redis',
    async subscribe(room, listener) {
      const channel = channelOf(room);
      let entry = channels.get(channel);
      if (!entry) {
        entry = { listeners: new Set(), ready: subscriber.subscribe(channel) };
        channels.set(channel, entry);
      }
      entry.listeners.add(listener);
      const subscribed = entry;
      try {
        await subscribed.ready;
      } catch (error) {
        subscribed.listeners.delete(listener);
        if (subscribed.listeners.size === 0 && channels.get(channel) === subscribed) channels.delete(channel);
        throw error;
      }
      return async () => {
        subscribed.listeners.delete(listener);
        if (subscribed.listeners.size > 0 || channels.get(channel) !== subscribed) return;
        channels.delete(channel);
        // SUBSCRIBE and UNSUBSCRIBE go down one connection in order: a later subscribe to the room wins.
        await subscriber.unsubscribe(channel).catch(logError('subscriber'));
      };
    },
    async claimSeat(room, seat, presentedTokenHash): Promise<ClaimResult> {
      const json = JSON.stringify(seat);
      const [admitted, peer] = (await commands.eval(
        CLAIM_SCRIPT,
        2,
        seatKey(room, seat.party),
        seatKey(room, otherParty(seat.party)),
        json,
        presentedTokenHash ?? '',
        options.seatTtlMs,
      )) as [number, string];
      if (admitted !== 1) return { admitted: false };
      seatsHeld.set(heldKey(room, seat.party, seat.connectionId), json);
      return { admitted: true, peer: holderOf(peer) };
    },
    async refreshSeat(room, party, connectionId) {
      const seat = seatsHeld.get(heldKey(room, party, connectionId));
      const [held, peer] = (await commands.eval(
        REFRESH_SCRIPT,
        2,
        seatKey(room, party),
        seatKey(room, otherParty(party)),
        connectionId,
        options.seatTtlMs,
        seat ?? '',
      )) as [number, string];
      return { held: held === 1, peer: holderOf(peer) };
    },
    async releaseSeat(room, party, connectionId) {
      seatsHeld.delete(heldKey(room, party, connectionId));
      await commands.eval(RELEASE_SCRIPT, 1, seatKey(room, party), connectionId);
    },
    async publish(room, event) {
      await commands.publish(channelOf(room), JSON.stringify(event));
    },
    async close() {
      channels.clear();
      seatsHeld.clear();
      await Promise.all(
        [commands, subscriber].map(async (connection) => {
          const quitting = connection.quit().catch(() => undefined);
          const timeout = new Promise((resolve) => setTimeout(resolve, 1000).unref());
          await Promise.race([quitting, timeout]);
          connection.disconnect();
        }),
      );
    },
  };
}
