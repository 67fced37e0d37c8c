import Fastify from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  MAX_CHAT_TEXT_LENGTH,
  MAX_SIGNAL_MESSAGE_BYTES,
  SIGNAL_CLOSE_CODES,
  SIGNAL_CLOSE_LEFT,
  SIGNAL_CLOSE_TOO_BIG,
  SIGNAL_MESSAGE_BURST,
} from '@vetcall/shared/schemas/video';
import { fixedClock } from '../../clock.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { connectSignalClient, listenForSignalling, type SignalClient } from '../../../test/signal-client.ts';
import { buildVideoAppointment } from '../../../test/video-world.ts';
import { PIN_LOOKUP_FAILURES_PER_IP } from './room-access.service.ts';
import { signallingRoutes } from './signalling.routes.ts';

const START = new Date('2026-03-10T14:00:00Z');
const NOW = '2026-03-10T13:50:00Z';
const ICE_SERVERS = [{ urls: 'stun:stun.clinic.test:3478' }];
const OFFER = { type: 'offer', sdp: 'v=0\r\no=- 46117317 2 IN IP4 127.0.0.1\r\ns=-\r\n' } as const;
const ANSWER = { type: 'answer', sdp: 'v=0\r\no=- 99 2 IN IP4 127.0.0.1\r\ns=-\r\n' } as const;
const CANDIDATE = {
  type: 'ice-candidate',
  candidate: { candidate: 'candidate:1 1 udp 2122260223 127.0.0.1 50000 typ host', sdpMid: '0', sdpMLineIndex: 0 },
} as const;

/** Clients opened by a test, closed after it. */
const clients: SignalClient[] = [];
async function connect(url: string, options?: Parameters<typeof connectSignalClient>[1]) {
  const client = await connectSignalClient(url, options);
  clients.push(client);
  return client;
}
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

describe('video signalling (one instance, in-memory bus)', () => {
  let t: TestApp;
  let url: string;
  const clock = fixedClock(NOW);
  beforeEach(async () => {
    clock.set(NOW);
    t = await buildTestApp({ clock, env: { ICE_SERVERS: JSON.stringify(ICE_SERVERS) } });
    url = await listenForSignalling(t.app);
  });
  afterEach(async () => {
    await t.close();
  });

  /** The vet and the customer of one appointment, both in its room. */
  async function bothJoined(
    names: { vetName: string; customerName: string } = { vetName: 'Rui Vet', customerName: 'Ana Dona' },
  ) {
    const world = await buildVideoAppointment(t, { schedule: START, ...names });
    const vet = await connect(url);
    const vetJoined = await vet.join(world.pins.vet);
    const customer = await connect(url);
    const customerJoined = await customer.join(world.pins.customer);
    await vet.next('peer-joined');
    return { world, vet, customer, vetJoined, customerJoined };
  }

  it('admits the two parties of an appointment and tells each the other’s name', async () => {
    const world = await buildVideoAppointment(t, { schedule: START, vetName: 'Rui Vet', customerName: 'Ana Dona' });
    const vet = await connect(url);
    const vetJoined = await vet.join(world.pins.vet);
    expect(vetJoined).toEqual({
      type: 'joined',
      party: 'vet',
      self_name: 'Rui Vet',
      peer: null,
      ice_servers: ICE_SERVERS,
      resume_token: expect.any(String),
    });

    const customer = await connect(url);
    expect(await customer.join(world.pins.customer)).toEqual({
      type: 'joined',
      party: 'customer',
      self_name: 'Ana Dona',
      peer: { name: 'Rui Vet', party: 'vet' },
      ice_servers: ICE_SERVERS,
      resume_token: expect.any(String),
    });
    expect(await vet.next('peer-joined')).toEqual({ type: 'peer-joined', name: 'Ana Dona', party: 'customer' });
    await vet.expectNothing();
    await customer.expectNothing();
  });

  it('passes offer, answer, ICE candidates, chat and media state to the other party only', async () => {
    const { vet, customer } = await bothJoined();
    customer.send(OFFER);
    expect(await vet.next('offer')).toEqual(OFFER);
    vet.send(ANSWER);
    expect(await customer.next('answer')).toEqual(ANSWER);
    vet.send(CANDIDATE);
    customer.send({ type: 'ice-candidate', candidate: null });
    expect(await customer.next('ice-candidate')).toEqual(CANDIDATE);
    expect(await vet.next('ice-candidate')).toEqual({ type: 'ice-candidate', candidate: null });
    customer.send({ type: 'chat', text: '  Olá, doutor!  ' });
    expect(await vet.next('chat')).toEqual({
      type: 'chat',
      text: 'Olá, doutor!',
      sent_at: new Date(NOW).toISOString(),
    });
    vet.send({ type: 'media-state', audio: false, video: true });
    expect(await customer.next('media-state')).toEqual({ type: 'media-state', audio: false, video: true });
    // Nothing comes back to the sender.
    await vet.expectNothing();
    await customer.expectNothing();
  });

  it('routes messages only within their room, with two rooms in use at once', async () => {
    const first = await bothJoined({ vetName: 'Rui Vet', customerName: 'Ana Dona' });
    const second = await bothJoined({ vetName: 'Inês Vet', customerName: 'João Dono' });
    expect(second.customerJoined.peer).toEqual({ name: 'Inês Vet', party: 'vet' });

    first.customer.send({ type: 'chat', text: 'in the first room' });
    second.vet.send({ type: 'chat', text: 'in the second room' });
    expect(await first.vet.next('chat')).toMatchObject({ text: 'in the first room' });
    expect(await second.customer.next('chat')).toMatchObject({ text: 'in the second room' });
    await Promise.all([first.vet, first.customer, second.vet, second.customer].map((client) => client.expectNothing()));

    first.customer.send({ type: 'leave' });
    expect(await first.vet.next('peer-left')).toEqual({ type: 'peer-left' });
    await second.vet.expectNothing();
    await second.customer.expectNothing();
  });

  it('refuses a third connection: the same PIN again without the resume token gets 4403 room_full', async () => {
    const { world, vet, customer } = await bothJoined();
    const intruder = await connect(url);
    intruder.send({ type: 'join', pin: world.pins.customer });
    expect(await intruder.closed).toEqual({ code: SIGNAL_CLOSE_CODES.room_full, reason: 'room_full' });
    const wrongToken = await connect(url);
    wrongToken.send({ type: 'join', pin: world.pins.vet, resume_token: 'not-the-token' });
    expect(await wrongToken.closed).toEqual({ code: 4403, reason: 'room_full' });

    // The two in the room noticed nothing and still talk.
    await vet.expectNothing();
    await customer.expectNothing();
    vet.send({ type: 'chat', text: 'still here' });
    expect(await customer.next('chat')).toMatchObject({ text: 'still here' });
  });

  it('lets a reconnect with the resume token replace the party’s older connection', async () => {
    const { world, vet, customer, customerJoined } = await bothJoined();
    const again = await connect(url);
    const rejoined = await again.join(world.pins.customer, customerJoined.resume_token);
    expect(rejoined).toMatchObject({ party: 'customer', peer: { name: 'Rui Vet', party: 'vet' } });
    expect(rejoined.resume_token).toBe(customerJoined.resume_token);
    expect(await customer.closed).toEqual({ code: 4410, reason: 'connection_replaced' });
    // The vet sees the customer's new connection (to negotiate again), and no 'peer-left'.
    expect(await vet.next('peer-joined')).toEqual({ type: 'peer-joined', name: 'Ana Dona', party: 'customer' });
    await vet.expectNothing();

    vet.send(OFFER);
    expect(await again.next('offer')).toEqual(OFFER);
    again.send(ANSWER);
    expect(await vet.next('answer')).toEqual(ANSWER);
  });

  it('frees the seat when its connection closes: the same PIN can join again without a token', async () => {
    const { world, vet, customer } = await bothJoined();
    await customer.close();
    expect(await vet.next('peer-left')).toEqual({ type: 'peer-left' });
    const back = await connect(url);
    expect(await back.join(world.pins.customer)).toMatchObject({ peer: { name: 'Rui Vet' } });
    expect(await vet.next('peer-joined')).toMatchObject({ name: 'Ana Dona' });
  });

  it('tells the peer when the other party leaves, and closes the leaver with 1000', async () => {
    const { vet, customer } = await bothJoined();
    vet.send({ type: 'leave' });
    expect(await vet.closed).toEqual({ code: SIGNAL_CLOSE_LEFT, reason: 'left' });
    expect(await customer.next('peer-left')).toEqual({ type: 'peer-left' });
    // Alone in the room, messages go nowhere.
    customer.send({ type: 'chat', text: 'anyone?' });
    await customer.expectNothing();
  });

  it('closes with 1009 a message over 64 KB, and refuses a chat text over 2000 characters', async () => {
    const { vet, customer } = await bothJoined();
    vet.send({ type: 'chat', text: 'x'.repeat(MAX_CHAT_TEXT_LENGTH + 1) });
    expect(await vet.next('error')).toMatchObject({ error: 'validation_failed' });
    vet.send({ type: 'chat', text: 'x'.repeat(MAX_CHAT_TEXT_LENGTH) });
    expect((await customer.next('chat')).text).toHaveLength(MAX_CHAT_TEXT_LENGTH);

    // A large offer passes; a message over the limit ends the connection.
    customer.send({ type: 'offer', sdp: 'a'.repeat(60_000) });
    expect(await vet.next('offer')).toMatchObject({ type: 'offer' });
    customer.sendRaw(JSON.stringify({ type: 'offer', sdp: 'a'.repeat(MAX_SIGNAL_MESSAGE_BYTES) }));
    expect((await customer.closed).code).toBe(SIGNAL_CLOSE_TOO_BIG);
    expect(await vet.next('peer-left')).toEqual({ type: 'peer-left' });
  });

  it('answers an error for an invalid message after joining and keeps the connection', async () => {
    const { vet, customer } = await bothJoined();
    vet.sendRaw('not json');
    expect(await vet.next('error')).toMatchObject({ error: 'invalid_json' });
    vet.send({ type: 'teleport', to: 'mars' });
    expect(await vet.next('error')).toMatchObject({ error: 'validation_failed' });
    vet.send({ type: 'media-state', audio: 'yes', video: true });
    expect(await vet.next('error')).toMatchObject({ error: 'validation_failed' });
    vet.send({ type: 'join', pin: '123456' });
    expect(await vet.next('error')).toMatchObject({ error: 'validation_failed', message: 'Already joined.' });
    await customer.expectNothing();
    vet.send({ type: 'media-state', audio: true, video: true });
    expect(await customer.next('media-state')).toEqual({ type: 'media-state', audio: true, video: true });
  });

  it('drops messages over the rate limit with one error, then passes them again', async () => {
    const { vet, customer } = await bothJoined();
    const burst = SIGNAL_MESSAGE_BURST + 60;
    for (let index = 0; index < burst; index++) vet.send({ type: 'media-state', audio: index % 2 === 0, video: true });
    expect(await vet.next('error')).toMatchObject({ error: 'too_many_requests' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const received = customer.takeAll();
    expect(new Set(received.map((message) => message.type))).toEqual(new Set(['media-state']));
    const delivered = received.length;
    // The allowance is counted from the `join`, which used one.
    expect(delivered).toBeGreaterThanOrEqual(SIGNAL_MESSAGE_BURST - 1);
    expect(delivered).toBeLessThan(burst);
    await vet.expectNothing();
    // The allowance refills (20 a second): a message now passes.
    vet.send({ type: 'chat', text: 'calm again' });
    expect(await customer.next('chat')).toMatchObject({ text: 'calm again' });
  });

  it('closes a join with an unknown PIN (4404), outside the window (4409) or malformed (4400)', async () => {
    const world = await buildVideoAppointment(t, { schedule: START });
    const unknown = await connect(url);
    unknown.send({ type: 'join', pin: world.pins.vet === '000000' ? '000001' : '000000' });
    expect(await unknown.closed).toEqual({ code: 4404, reason: 'pin_not_found' });

    const early = await buildVideoAppointment(t, { schedule: new Date('2026-03-10T15:00:00Z') });
    const tooEarly = await connect(url);
    tooEarly.send({ type: 'join', pin: early.pins.customer });
    expect(await tooEarly.closed).toEqual({ code: 4409, reason: 'room_not_open' });

    clock.set('2026-03-10T15:00:01Z');
    const tooLate = await connect(url);
    tooLate.send({ type: 'join', pin: world.pins.customer });
    expect(await tooLate.closed).toEqual({ code: 4409, reason: 'room_closed' });

    for (const first of [
      'hello',
      JSON.stringify({ type: 'offer', sdp: 'v=0' }),
      JSON.stringify({ type: 'join', pin: '12' }),
    ]) {
      const client = await connect(url);
      client.sendRaw(first);
      expect(await client.closed).toEqual({ code: 4400, reason: 'validation_failed' });
    }
  });

  it('shares the PIN failure allowance with the HTTP lookup: 10 failures, then 4429', async () => {
    const world = await buildVideoAppointment(t, { schedule: START });
    const wrong = ['000000', '000001', '000002'].find((pin) => !Object.values(world.pins).includes(pin))!;
    for (let index = 0; index < PIN_LOOKUP_FAILURES_PER_IP.limit - 1; index++) {
      const client = await connect(url);
      client.send({ type: 'join', pin: wrong });
      expect((await client.closed).code).toBe(4404);
    }
    const http = await t.app.inject({
      method: 'GET',
      url: `/api/appointments/pin/${wrong}`,
      remoteAddress: '127.0.0.1',
    });
    expect(http.statusCode).toBe(404);
    const refused = await connect(url);
    refused.send({ type: 'join', pin: world.pins.vet });
    expect(await refused.closed).toEqual({ code: 4429, reason: 'too_many_requests' });
  });

  it('ends every connection when the server shuts down, so clients reconnect elsewhere', async () => {
    const { vet, customer } = await bothJoined();
    await t.app.close();
    const [vetClosed, customerClosed] = await Promise.all([vet.closed, customer.closed]);
    expect([vetClosed.code, customerClosed.code]).toEqual([1012, 1012]);
  });
});

describe('video signalling timers', () => {
  let t: TestApp;
  let server: ReturnType<typeof Fastify>;
  let url: string;
  beforeEach(async () => {
    t = await buildTestApp({ clock: fixedClock(NOW) });
    // The real plugin on a small app of its own, with timers short enough for a test.
    server = Fastify();
    await server.register(signallingRoutes, {
      prefix: '/api/video',
      context: t.context,
      joinTimeoutMs: 300,
      // Long enough that a loaded test machine does not miss a pong (client and server share one event loop).
      heartbeatMs: 500,
    });
    url = await listenForSignalling(server);
  });
  afterEach(async () => {
    await server.close();
    await t.close();
  });

  it('closes a connection that does not join in time with 4401', async () => {
    const idle = await connect(url);
    expect(await idle.closed).toEqual({ code: 4401, reason: 'join_timeout' });
  });

  it('keeps a connection that answers pings, and drops one that does not: its peer gets peer-left', async () => {
    const world = await buildVideoAppointment(t, { schedule: START });
    const vet = await connect(url);
    await vet.join(world.pins.vet);
    const customer = await connect(url, { autoPong: false });
    await customer.join(world.pins.customer);
    await vet.next('peer-joined');

    expect((await customer.closed).code).toBe(1006);
    expect(await vet.next('peer-left')).toEqual({ type: 'peer-left' });
    // The vet answered every ping (several periods went by) and is still connected.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(vet.socket.readyState).toBe(vet.socket.OPEN);
  });
});
