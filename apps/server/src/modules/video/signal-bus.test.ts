import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Party } from '@vetcall/shared/schemas/video';
import { createRedisSignalBus } from './redis-signal-bus.ts';
import { createMemorySignalBus, type RoomEvent, type Seat, type SignalBus } from './signal-bus.ts';

/**
 * One contract, two buses: what the signalling sessions rely on holds in memory and through Redis. The
 * Redis half runs with TEST_REDIS_URL (redis://127.0.0.1:6379), each test under its own key prefix.
 */
const redisUrl = process.env.TEST_REDIS_URL;
const SEAT_TTL_MS = 60_000;

const seat = (party: Party, connectionId: string, resumeTokenHash = `token-of-${connectionId}`): Seat => ({
  connectionId,
  party,
  name: party === 'vet' ? 'Rui Vet' : 'Ana Dona',
  resumeTokenHash,
});

/** Collects a subscriber's events; `settle` waits until the bus had time to deliver. */
function collector() {
  const events: RoomEvent[] = [];
  return { events, listener: (event: RoomEvent) => events.push(event) };
}
const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

const buses: [string, (() => { bus: SignalBus; prefix: string }) | undefined][] = [
  ['memory', () => ({ bus: createMemorySignalBus(), prefix: '' })],
  [
    'redis',
    redisUrl
      ? () => {
          const prefix = `vetcall-test:${randomBytes(6).toString('hex')}:`;
          return {
            bus: createRedisSignalBus({ url: redisUrl, keyPrefix: prefix, seatTtlMs: SEAT_TTL_MS, log: console }),
            prefix,
          };
        }
      : undefined,
  ],
];

describe.each(buses)('%s signal bus', (_kind, make) => {
  let bus: SignalBus;
  beforeEach(() => {
    if (make) bus = make().bus;
  });
  afterEach(async () => {
    await bus?.close();
  });

  it.skipIf(!make)('gives a free seat, and refuses a taken one unless the holder’s resume token comes', async () => {
    expect(await bus.claimSeat('room-a', seat('vet', 'v1'), undefined)).toEqual({ admitted: true, peer: null });
    expect(await bus.claimSeat('room-a', seat('customer', 'c1'), undefined)).toEqual({
      admitted: true,
      peer: { connectionId: 'v1', party: 'vet', name: 'Rui Vet' },
    });
    expect(await bus.claimSeat('room-a', seat('vet', 'v2'), undefined)).toEqual({ admitted: false });
    expect(await bus.claimSeat('room-a', seat('vet', 'v2'), 'token-of-v9')).toEqual({ admitted: false });
    // Another room's seats are other seats.
    expect(await bus.claimSeat('room-b', seat('vet', 'v3'), undefined)).toEqual({ admitted: true, peer: null });

    expect(await bus.claimSeat('room-a', seat('vet', 'v2', 'token-of-v1'), 'token-of-v1')).toEqual({
      admitted: true,
      peer: { connectionId: 'c1', party: 'customer', name: 'Ana Dona' },
    });
    expect(await bus.refreshSeat('room-a', 'vet', 'v1')).toEqual({ held: false, peer: expect.anything() });
    expect(await bus.refreshSeat('room-a', 'vet', 'v2')).toEqual({
      held: true,
      peer: { connectionId: 'c1', party: 'customer', name: 'Ana Dona' },
    });
  });

  it.skipIf(!make)('frees a seat only for the connection that holds it', async () => {
    await bus.claimSeat('room-a', seat('vet', 'v1'), undefined);
    await bus.claimSeat('room-a', seat('vet', 'v2', 'token-of-v1'), 'token-of-v1');
    await bus.releaseSeat('room-a', 'vet', 'v1');
    expect(await bus.refreshSeat('room-a', 'customer', 'c1')).toMatchObject({ peer: { connectionId: 'v2' } });
    await bus.releaseSeat('room-a', 'vet', 'v2');
    expect(await bus.refreshSeat('room-a', 'customer', 'c1')).toMatchObject({ peer: null });
    expect(await bus.claimSeat('room-a', seat('vet', 'v3'), undefined)).toMatchObject({ admitted: true });
  });

  it.skipIf(!make)('delivers a room’s events in order to its subscribers only, until they unsubscribe', async () => {
    const first = collector();
    const second = collector();
    const elsewhere = collector();
    const stopFirst = await bus.subscribe('room-a', first.listener);
    await bus.subscribe('room-a', second.listener);
    await bus.subscribe('room-b', elsewhere.listener);

    const events: RoomEvent[] = [
      { kind: 'joined', holder: { connectionId: 'v1', party: 'vet', name: 'Rui Vet' } },
      ...Array.from({ length: 20 }, (_, index) => ({
        kind: 'signal' as const,
        party: 'vet' as const,
        connectionId: 'v1',
        message: { type: 'chat' as const, text: `message ${index}`, sent_at: '2026-03-10T14:00:00.000Z' },
      })),
      { kind: 'left', party: 'vet', connectionId: 'v1' },
    ];
    for (const event of events) await bus.publish('room-a', event);
    await settle();
    expect(first.events).toEqual(events);
    expect(second.events).toEqual(events);
    expect(elsewhere.events).toEqual([]);

    await stopFirst();
    await bus.publish('room-a', { kind: 'left', party: 'customer', connectionId: 'c1' });
    await settle();
    expect(first.events).toHaveLength(events.length);
    expect(second.events).toHaveLength(events.length + 1);
  });
});

describe.skipIf(!redisUrl)('redis signal bus, seats that expire', () => {
  let redis: Redis;
  let prefix: string;
  let bus: SignalBus;
  beforeEach(() => {
    redis = new Redis(redisUrl!);
    prefix = `vetcall-test:${randomBytes(6).toString('hex')}:`;
    bus = createRedisSignalBus({ url: redisUrl!, keyPrefix: prefix, seatTtlMs: 300, log: console });
  });
  afterEach(async () => {
    await bus.close();
    await redis.quit();
  });

  it('stores each seat under the prefix with an expiry that a refresh pushes back', async () => {
    await bus.claimSeat('room-a', seat('vet', 'v1'), undefined);
    const key = `${prefix}video:room-a:seat:vet`;
    expect(JSON.parse((await redis.get(key))!)).toMatchObject({ connectionId: 'v1', party: 'vet', name: 'Rui Vet' });
    expect(await redis.pttl(key)).toBeGreaterThan(0);

    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await bus.refreshSeat('room-a', 'vet', 'v1')).toMatchObject({ held: true });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await redis.exists(key)).toBe(1);
  });

  it('frees the seat of a holder that stopped refreshing (a crashed instance), and lets its holder take it again', async () => {
    await bus.claimSeat('room-a', seat('vet', 'v1'), undefined);
    await bus.claimSeat('room-a', seat('customer', 'c1'), undefined);
    await new Promise((resolve) => setTimeout(resolve, 450));
    // The customer's view after the vet's instance went silent: no vet.
    expect(await bus.refreshSeat('room-a', 'customer', 'c1')).toEqual({ held: true, peer: null });
    // A holder that was only slow takes its expired seat back, as long as nobody else did.
    expect(await bus.refreshSeat('room-a', 'vet', 'v1')).toMatchObject({ held: true });
    expect(await bus.refreshSeat('room-a', 'customer', 'c1')).toMatchObject({ peer: { connectionId: 'v1' } });
  });
});
