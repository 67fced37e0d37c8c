import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { fixedClock } from '../../clock.ts';
import { createContext } from '../../create-context.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { connectSignalClient, listenForSignalling, type SignalClient } from '../../../test/signal-client.ts';
import { buildVideoAppointment } from '../../../test/video-world.ts';

/**
 * Two server instances on one database, meeting through Redis (TEST_REDIS_URL, e.g. redis://127.0.0.1:6379):
 * the vet on instance A, the customer on instance B. Each test uses its own key prefix.
 */
const redisUrl = process.env.TEST_REDIS_URL;

const START = new Date('2026-03-10T14:00:00Z');
const NOW = '2026-03-10T13:45:00Z';
const OFFER = { type: 'offer', sdp: 'v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\n' } as const;
const ANSWER = { type: 'answer', sdp: 'v=0\r\no=- 2 2 IN IP4 127.0.0.1\r\ns=-\r\n' } as const;

describe.skipIf(!redisUrl)('video signalling across two instances through Redis', () => {
  let a: TestApp;
  let b: FastifyInstance;
  let urlA: string;
  let urlB: string;
  let prefix: string;
  const clients: SignalClient[] = [];
  const connect = async (url: string) => {
    const client = await connectSignalClient(url);
    clients.push(client);
    return client;
  };

  beforeEach(async () => {
    prefix = `vetcall-test:${randomBytes(6).toString('hex')}:`;
    const clock = fixedClock(NOW);
    a = await buildTestApp({
      clock,
      env: { REDIS_URL: redisUrl!, REDIS_KEY_PREFIX: prefix, APP_SECRET: randomBytes(32).toString('hex') },
    });
    // Instance B: the same configuration and database, its own process state (bus, Redis connections, limits).
    b = await buildApp(createContext(a.config, a.context.database, { clock, mailer: a.context.mailer }));
    urlA = await listenForSignalling(a.app);
    urlB = await listenForSignalling(b);
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await b.close();
    await a.close();
  });

  async function vetOnAcustomerOnB() {
    const world = await buildVideoAppointment(a, { schedule: START, vetName: 'Rui Vet', customerName: 'Ana Dona' });
    const vet = await connect(urlA);
    expect(await vet.join(world.pins.vet)).toMatchObject({ party: 'vet', peer: null });
    const customer = await connect(urlB);
    const customerJoined = await customer.join(world.pins.customer);
    expect(customerJoined).toMatchObject({ party: 'customer', self_name: 'Ana Dona', peer: { name: 'Rui Vet' } });
    expect(await vet.next('peer-joined')).toEqual({ type: 'peer-joined', name: 'Ana Dona', party: 'customer' });
    return { world, vet, customer, customerJoined };
  }

  it('lets the vet on A and the customer on B meet: offer, answer, ICE, chat and media state cross', async () => {
    const { vet, customer } = await vetOnAcustomerOnB();
    customer.send(OFFER);
    expect(await vet.next('offer')).toEqual(OFFER);
    vet.send(ANSWER);
    expect(await customer.next('answer')).toEqual(ANSWER);
    vet.send({
      type: 'ice-candidate',
      candidate: { candidate: 'candidate:1 1 udp 1 127.0.0.1 9 typ host', sdpMid: '0' },
    });
    expect(await customer.next('ice-candidate')).toMatchObject({ candidate: { sdpMid: '0' } });
    customer.send({ type: 'chat', text: 'Olá de B' });
    expect(await vet.next('chat')).toMatchObject({ text: 'Olá de B' });
    vet.send({ type: 'media-state', audio: false, video: false });
    expect(await customer.next('media-state')).toEqual({ type: 'media-state', audio: false, video: false });
    await vet.expectNothing();
    await customer.expectNothing();

    customer.send({ type: 'leave' });
    expect(await vet.next('peer-left')).toEqual({ type: 'peer-left' });
  });

  it('refuses a third connection on the other instance, and keeps rooms apart across instances', async () => {
    const first = await vetOnAcustomerOnB();
    const intruder = await connect(urlA);
    intruder.send({ type: 'join', pin: first.world.pins.customer });
    expect(await intruder.closed).toEqual({ code: 4403, reason: 'room_full' });

    const other = await buildVideoAppointment(a, { schedule: START, vetName: 'Inês Vet', customerName: 'João Dono' });
    const otherVet = await connect(urlB);
    await otherVet.join(other.pins.vet);
    const otherCustomer = await connect(urlA);
    expect(await otherCustomer.join(other.pins.customer)).toMatchObject({ peer: { name: 'Inês Vet' } });
    await otherVet.next('peer-joined');

    first.vet.send({ type: 'chat', text: 'room one' });
    otherCustomer.send({ type: 'chat', text: 'room two' });
    expect(await first.customer.next('chat')).toMatchObject({ text: 'room one' });
    expect(await otherVet.next('chat')).toMatchObject({ text: 'room two' });
    await Promise.all([first.vet, first.customer, otherVet, otherCustomer].map((client) => client.expectNothing(200)));
  });

  it('moves the customer from B to A with the resume token: the old connection is replaced', async () => {
    const { world, vet, customer, customerJoined } = await vetOnAcustomerOnB();
    const moved = await connect(urlA);
    expect(await moved.join(world.pins.customer, customerJoined.resume_token)).toMatchObject({
      peer: { name: 'Rui Vet' },
    });
    expect(await customer.closed).toEqual({ code: 4410, reason: 'connection_replaced' });
    expect(await vet.next('peer-joined')).toMatchObject({ name: 'Ana Dona' });
    await vet.expectNothing(200);
    vet.send({ type: 'chat', text: 'same instance now' });
    expect(await moved.next('chat')).toMatchObject({ text: 'same instance now' });
  });

  it('leaves nothing in Redis once everyone has gone', async () => {
    const { vet, customer } = await vetOnAcustomerOnB();
    const redis = new Redis(redisUrl!);
    try {
      expect(await redis.keys(`${prefix}*`)).toHaveLength(2);
      vet.send({ type: 'leave' });
      await customer.next('peer-left');
      await customer.close();
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await redis.keys(`${prefix}*`)).toEqual([]);
    } finally {
      await redis.quit();
    }
  });

  it('tells the vet on A when instance B shuts down, and B’s customer gets 1012 to reconnect', async () => {
    const { vet, customer } = await vetOnAcustomerOnB();
    await b.close();
    expect((await customer.closed).code).toBe(1012);
    expect(await vet.next('peer-left')).toEqual({ type: 'peer-left' });
  });
});
