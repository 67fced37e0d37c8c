import { describe, expect, it } from 'vitest';
import {
  iceServerSchema,
  MAX_CHAT_TEXT_LENGTH,
  roomWindow,
  roomWindowState,
  signalClientMessageSchema,
  signalServerMessageSchema,
} from './video.ts';

describe('roomWindow', () => {
  const window = roomWindow(new Date('2026-03-10T14:00:00Z'));

  it('opens 30 minutes before the start and closes 1 hour after it (docs/product-rules.md#limits)', () => {
    expect(window).toEqual({
      opensAt: new Date('2026-03-10T13:30:00Z'),
      closesAt: new Date('2026-03-10T15:00:00Z'),
    });
  });

  it.each([
    ['2026-03-10T13:29:59.999Z', 'not_open'],
    ['2026-03-10T13:30:00.000Z', 'open'],
    ['2026-03-10T15:00:00.000Z', 'open'],
    ['2026-03-10T15:00:00.001Z', 'closed'],
  ] as const)('at %s is %s (both ends included)', (now, state) => {
    expect(roomWindowState(window, new Date(now))).toBe(state);
  });
});

describe('signalling messages', () => {
  it('takes a join with a six-digit PIN only', () => {
    expect(signalClientMessageSchema.safeParse({ type: 'join', pin: '012345' }).success).toBe(true);
    for (const pin of ['12345', '1234567', 'abcdef', 123456]) {
      expect(signalClientMessageSchema.safeParse({ type: 'join', pin }).success, String(pin)).toBe(false);
    }
  });

  it('trims chat text and bounds it to 2000 characters', () => {
    expect(signalClientMessageSchema.parse({ type: 'chat', text: '  hi  ' })).toEqual({ type: 'chat', text: 'hi' });
    expect(signalClientMessageSchema.safeParse({ type: 'chat', text: '   ' }).success).toBe(false);
    const longest = 'x'.repeat(MAX_CHAT_TEXT_LENGTH);
    expect(signalClientMessageSchema.safeParse({ type: 'chat', text: longest }).success).toBe(true);
    expect(signalClientMessageSchema.safeParse({ type: 'chat', text: `${longest}x` }).success).toBe(false);
  });

  it('takes the browser’s candidate.toJSON() and null for the end of candidates', () => {
    const candidate = {
      candidate: 'candidate:1 1 udp 1 127.0.0.1 9 typ host',
      sdpMid: '0',
      sdpMLineIndex: 0,
      usernameFragment: 'ab',
    };
    expect(signalClientMessageSchema.parse({ type: 'ice-candidate', candidate })).toEqual({
      type: 'ice-candidate',
      candidate,
    });
    expect(signalClientMessageSchema.parse({ type: 'ice-candidate', candidate: null })).toEqual({
      type: 'ice-candidate',
      candidate: null,
    });
  });

  it('describes what the server sends', () => {
    expect(
      signalServerMessageSchema.parse({
        type: 'joined',
        party: 'vet',
        self_name: 'Rui',
        peer: null,
        ice_servers: [],
        resume_token: 't',
      }),
    ).toMatchObject({ type: 'joined' });
    expect(signalServerMessageSchema.parse({ type: 'peer-left' })).toEqual({ type: 'peer-left' });
    expect(signalServerMessageSchema.safeParse({ type: 'chat', text: 'hi' }).success).toBe(false);
  });
});

describe('iceServerSchema', () => {
  it.each([
    { urls: 'stun:stun.example.org:3478' },
    { urls: ['stun:a.example.org', 'stuns:b.example.org:5349'] },
    { urls: 'turn:turn.example.org:3478?transport=tcp', username: 'u', credential: 'c' },
  ])('takes %j', (server) => {
    expect(iceServerSchema.safeParse(server).success).toBe(true);
  });

  it.each([
    { urls: 'https://stun.example.org' },
    { urls: [] },
    { urls: 'turn:turn.example.org', username: 'u' },
    { urls: ['stun:a.example.org', 'turns:b.example.org'] },
    { urls: 'stun:a.example.org', extra: true },
  ])('refuses %j', (server) => {
    expect(iceServerSchema.safeParse(server).success).toBe(false);
  });
});
