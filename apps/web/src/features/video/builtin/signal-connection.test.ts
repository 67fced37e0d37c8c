import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SIGNAL_PATH } from '@vetcall/shared/schemas/video';
import {
  RECONNECT_DELAYS_MS,
  SignalConnection,
  type SignalConnectionOptions,
  type SignalEvent,
  signalUrl,
  type SocketLike,
} from './signal-connection';

const URL = 'ws://vetcall.test/api/video/signal';

/** Stands in for the browser's WebSocket: records what the client sends and lets a test play the server. */
class FakeSocket implements SocketLike {
  readyState = 0;
  sent: unknown[] = [];
  closedWith: { code?: number; reason?: string } | null = null;
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;

  constructor(public url: string) {}

  send(data: string) {
    if (this.readyState !== 1) throw new Error('send on a socket that is not open');
    this.sent.push(JSON.parse(data));
  }
  close(code?: number, reason?: string) {
    this.closedWith = { code, reason };
    this.readyState = 3;
  }

  // ----- the server's side
  open() {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }
  receive(message: unknown) {
    this.receiveRaw(JSON.stringify(message));
  }
  receiveRaw(data: string) {
    this.onmessage?.({ data } as MessageEvent);
  }
  serverClose(code: number, reason = '') {
    this.readyState = 3;
    this.onerror?.(new Event('error'));
    this.onclose?.({ code, reason, wasClean: code !== 1006 } as CloseEvent);
  }
}

const joined = (resumeToken: string) => ({
  type: 'joined',
  party: 'vet',
  self_name: 'Rui Vet',
  peer: { name: 'Ana Dona', party: 'customer' },
  ice_servers: [{ urls: 'stun:turn.clinic.test:3478' }],
  resume_token: resumeToken,
});

function setup(overrides: Partial<SignalConnectionOptions> = {}) {
  const sockets: FakeSocket[] = [];
  const events: SignalEvent[] = [];
  const tokens: string[] = [];
  const network = new EventTarget();
  let online = true;
  const connection = new SignalConnection({
    pin: '123456',
    url: URL,
    onEvent: (event) => events.push(event),
    onResumeToken: (token) => tokens.push(token),
    createSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    networkEvents: network as unknown as Pick<Window, 'addEventListener' | 'removeEventListener'>,
    isOnline: () => online,
    ...overrides,
  });
  return {
    connection,
    sockets,
    events,
    tokens,
    latest: () => sockets.at(-1)!,
    setOnline: (value: boolean) => {
      online = value;
    },
    fire: (name: 'online' | 'offline') => network.dispatchEvent(new Event(name)),
    types: () => events.map((event) => event.type),
  };
}

/** Starts, opens the socket and joins with `token`. */
function startJoined(token = 'token-1', overrides: Partial<SignalConnectionOptions> = {}) {
  const t = setup(overrides);
  t.connection.start();
  t.latest().open();
  t.latest().receive(joined(token));
  return t;
}

describe('SignalConnection', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('builds the socket URL from the page location', () => {
    expect(signalUrl({ protocol: 'https:', host: 'vetcall.test' })).toBe(`wss://vetcall.test${SIGNAL_PATH}`);
    expect(signalUrl({ protocol: 'http:', host: 'localhost:5173' })).toBe(`ws://localhost:5173${SIGNAL_PATH}`);
  });

  it('sends join with the PIN as the first message once the socket opens', () => {
    const t = setup();
    t.connection.start();
    expect(t.sockets).toHaveLength(1);
    expect(t.latest().url).toBe(URL);
    expect(t.latest().sent).toEqual([]);
    t.latest().open();
    expect(t.latest().sent).toEqual([{ type: 'join', pin: '123456' }]);
  });

  it('presents the resume token it was given in the join', () => {
    const t = setup({ resumeToken: 'from-a-reload' });
    t.connection.start();
    t.latest().open();
    expect(t.latest().sent).toEqual([{ type: 'join', pin: '123456', resume_token: 'from-a-reload' }]);
  });

  it('emits joined and hands the new resume token over', () => {
    const t = startJoined('token-1');
    expect(t.tokens).toEqual(['token-1']);
    expect(t.events).toEqual([{ type: 'joined', joined: joined('token-1') }]);
  });

  it('reconnects after a 1006 with the newest resume token', () => {
    const t = startJoined('token-new', { resumeToken: 'token-old' });
    expect(t.sockets[0]!.sent[0]).toEqual({ type: 'join', pin: '123456', resume_token: 'token-old' });

    t.latest().serverClose(1006);
    expect(t.types()).toEqual(['joined', 'reconnecting']);
    vi.advanceTimersByTime(RECONNECT_DELAYS_MS[0]! - 1);
    expect(t.sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(t.sockets).toHaveLength(2);

    t.latest().open();
    expect(t.latest().sent).toEqual([{ type: 'join', pin: '123456', resume_token: 'token-new' }]);
  });

  it.each([1001, 1011, 1012, 4401])('also reconnects after close code %i', (code) => {
    const t = startJoined();
    t.latest().serverClose(code, code === 1012 ? 'service_unavailable' : '');
    expect(t.types()).toEqual(['joined', 'reconnecting']);
    vi.advanceTimersByTime(RECONNECT_DELAYS_MS[0]!);
    expect(t.sockets).toHaveLength(2);
  });

  it('waits longer after each failed attempt, up to the last delay', () => {
    const t = setup();
    t.connection.start();
    const expected = [...RECONNECT_DELAYS_MS, RECONNECT_DELAYS_MS.at(-1)!, RECONNECT_DELAYS_MS.at(-1)!];
    expect(expected.slice(0, 3)).toEqual([500, 1000, 2000]);
    for (const [index, delay] of expected.entries()) {
      t.latest().serverClose(1006);
      vi.advanceTimersByTime(delay - 1);
      expect(t.sockets, `attempt ${index + 1} comes no sooner than ${delay} ms`).toHaveLength(index + 1);
      vi.advanceTimersByTime(1);
      expect(t.sockets, `attempt ${index + 1} comes after ${delay} ms`).toHaveLength(index + 2);
    }
  });

  it('starts the back-off again after a successful join', () => {
    const t = setup();
    t.connection.start();
    t.latest().serverClose(1006);
    vi.advanceTimersByTime(RECONNECT_DELAYS_MS[0]!);
    t.latest().serverClose(1006);
    vi.advanceTimersByTime(RECONNECT_DELAYS_MS[1]!);
    expect(t.sockets).toHaveLength(3);

    t.latest().open();
    t.latest().receive(joined('token-2'));
    t.latest().serverClose(1006);
    vi.advanceTimersByTime(RECONNECT_DELAYS_MS[0]!);
    expect(t.sockets).toHaveLength(4);
  });

  it('does not retry while offline, and reconnects at once when the network is back', () => {
    const t = startJoined();
    t.setOnline(false);
    t.latest().serverClose(1006);
    expect(t.types()).toEqual(['joined', 'reconnecting']);
    vi.advanceTimersByTime(60_000);
    expect(t.sockets).toHaveLength(1);

    t.setOnline(true);
    t.fire('online');
    expect(t.sockets).toHaveLength(2);
    t.latest().open();
    expect(t.latest().sent).toEqual([{ type: 'join', pin: '123456', resume_token: 'token-1' }]);
    // The online event replaced the retry: nothing else is on its way.
    vi.advanceTimersByTime(60_000);
    expect(t.sockets).toHaveLength(2);
  });

  it('gives the socket up when the browser goes offline', () => {
    const t = startJoined();
    const first = t.latest();
    t.setOnline(false);
    t.fire('offline');
    expect(first.closedWith).not.toBeNull();
    expect(t.types()).toEqual(['joined', 'reconnecting']);
    expect(t.connection.send({ type: 'media-state', audio: true, video: true })).toBe(false);
    // The dropped socket's late close is not a second drop.
    first.serverClose(1006);
    expect(t.types()).toEqual(['joined', 'reconnecting']);
    vi.advanceTimersByTime(60_000);
    expect(t.sockets).toHaveLength(1);

    t.setOnline(true);
    t.fire('online');
    expect(t.sockets).toHaveLength(2);
  });

  it('ignores online while a socket is up', () => {
    const t = startJoined();
    t.fire('online');
    expect(t.sockets).toHaveLength(1);
  });

  it.each([
    [4403, 'room_full', 'room_full'],
    [4403, '', 'room_full'],
    [4404, '', 'pin_not_found'],
    [4409, 'room_closed', 'room_closed'],
    [4409, 'room_not_open', 'room_not_open'],
    [4410, 'connection_replaced', 'connection_replaced'],
    [4410, '', 'connection_replaced'],
    [4429, '', 'too_many_requests'],
    [4400, '', 'validation_failed'],
  ])('closes for good on %i (reason %j) with %s', (code, reason, expected) => {
    const t = startJoined();
    t.latest().serverClose(code, reason);
    expect(t.events.slice(1)).toEqual([{ type: 'closed', reason: expected }]);

    vi.advanceTimersByTime(60_000);
    t.fire('offline');
    t.fire('online');
    vi.advanceTimersByTime(60_000);
    expect(t.sockets).toHaveLength(1);
    expect(t.events).toHaveLength(2);
    expect(t.connection.send({ type: 'media-state', audio: true, video: true })).toBe(false);
  });

  it('closes for good on a refusal before any joined', () => {
    const t = setup();
    t.connection.start();
    t.latest().open();
    t.latest().serverClose(4404, 'pin_not_found');
    expect(t.events).toEqual([{ type: 'closed', reason: 'pin_not_found' }]);
    expect(t.tokens).toEqual([]);
  });

  it('sends only once joined', () => {
    const t = setup();
    t.connection.start();
    expect(t.connection.send({ type: 'chat', text: 'hi' })).toBe(false);
    t.latest().open();
    expect(t.connection.send({ type: 'chat', text: 'hi' })).toBe(false);
    expect(t.latest().sent).toEqual([{ type: 'join', pin: '123456' }]);

    t.latest().receive(joined('token-1'));
    expect(t.connection.send({ type: 'chat', text: 'hi' })).toBe(true);
    expect(t.latest().sent.at(-1)).toEqual({ type: 'chat', text: 'hi' });

    t.latest().serverClose(1006);
    expect(t.connection.send({ type: 'chat', text: 'lost' })).toBe(false);
    vi.advanceTimersByTime(RECONNECT_DELAYS_MS[0]!);
    t.latest().open();
    expect(t.connection.send({ type: 'chat', text: 'early' })).toBe(false);
    expect(t.latest().sent).toEqual([{ type: 'join', pin: '123456', resume_token: 'token-1' }]);
  });

  it('leave sends leave, closes with 1000 and never reconnects', () => {
    const t = startJoined();
    const socket = t.latest();
    t.connection.leave();
    expect(socket.sent.at(-1)).toEqual({ type: 'leave' });
    expect(socket.closedWith).toEqual({ code: 1000, reason: 'left' });
    socket.serverClose(1006);
    t.fire('offline');
    t.fire('online');
    vi.advanceTimersByTime(60_000);
    expect(t.sockets).toHaveLength(1);
    expect(t.types()).toEqual(['joined']);
    expect(t.connection.send({ type: 'chat', text: 'after' })).toBe(false);
  });

  it('leave while reconnecting cancels the retry', () => {
    const t = startJoined();
    t.latest().serverClose(1006);
    t.connection.leave();
    vi.advanceTimersByTime(60_000);
    expect(t.sockets).toHaveLength(1);
  });

  it('close stops without a leave message', () => {
    const t = startJoined();
    const socket = t.latest();
    t.connection.close();
    expect(socket.sent.map((message) => (message as { type: string }).type)).toEqual(['join']);
    expect(socket.closedWith?.code).toBe(1000);
    vi.advanceTimersByTime(60_000);
    expect(t.sockets).toHaveLength(1);
  });

  it('passes peer and relayed messages on, and ignores what it cannot read', () => {
    const t = startJoined();
    const socket = t.latest();
    const chat = { type: 'chat', text: 'Olá', sent_at: '2030-03-01T09:00:00.000Z' };
    const mediaState = { type: 'media-state', audio: false, video: true };
    const offer = { type: 'offer', sdp: 'v=0 offer' };

    socket.receive({ type: 'peer-joined', name: 'Ana Dona', party: 'customer' });
    socket.receive(chat);
    socket.receiveRaw('{not json');
    socket.receive({ type: 'teleport', to: 'mars' });
    socket.receive({ type: 'chat', text: 'no time' });
    socket.receive({ type: 'media-state', audio: 'yes', video: true });
    socket.receive(mediaState);
    socket.receive(offer);
    socket.receive({ type: 'error', error: 'too_many_requests', message: 'slow down' });
    socket.receive({ type: 'peer-left' });

    expect(t.events.slice(1)).toEqual([
      { type: 'peer-joined', name: 'Ana Dona', party: 'customer' },
      { type: 'relay', message: chat },
      { type: 'relay', message: mediaState },
      { type: 'relay', message: offer },
      { type: 'refused', error: 'too_many_requests' },
      { type: 'peer-left' },
    ]);
  });

  it('stops listening to the network once stopped', () => {
    const network = new EventTarget();
    const add = vi.spyOn(network, 'addEventListener');
    const remove = vi.spyOn(network, 'removeEventListener');
    const t = startJoined('token-1', {
      networkEvents: network as unknown as Pick<Window, 'addEventListener' | 'removeEventListener'>,
    });
    expect(add.mock.calls.map(([name]) => name).sort()).toEqual(['offline', 'online']);
    t.connection.close();
    expect(remove.mock.calls.map(([name]) => name).sort()).toEqual(['offline', 'online']);
    expect(new Set(remove.mock.calls.map(([, listener]) => listener))).toEqual(
      new Set(add.mock.calls.map(([, listener]) => listener)),
    );
  });
});
