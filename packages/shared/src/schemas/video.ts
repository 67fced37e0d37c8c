import { z } from 'zod';
import { JOIN_LINK_VALID_AFTER_START_MS } from '../constants.ts';
import type { ErrorCode } from '../error-codes.ts';

/**
 * Video consultation contracts (docs/product-rules.md#pin-screen, #api `GET api/appointments/pin/{pin}` and Video
 * conference, #limits): the PIN lookup, the room's time window, the ICE servers of the built-in WebRTC room and the
 * messages of its signalling WebSocket (docs/video-signalling.md).
 */

/** A PIN opens its appointment's room from 30 minutes before the start … */
export const ROOM_OPENS_BEFORE_START_MS = 30 * 60 * 1000;
/** … until 1 hour after the start, as the join link (docs/product-rules.md#states, #limits). */
export const ROOM_CLOSES_AFTER_START_MS = JOIN_LINK_VALID_AFTER_START_MS;

export interface RoomWindow {
  opensAt: Date;
  closesAt: Date;
}

export function roomWindow(schedule: Date): RoomWindow {
  return {
    opensAt: new Date(schedule.getTime() - ROOM_OPENS_BEFORE_START_MS),
    closesAt: new Date(schedule.getTime() + ROOM_CLOSES_AFTER_START_MS),
  };
}

/**
 * Both ends are inclusive: at start + 1 h the schedule is "not more than 1 hour in the past"
 * (docs/product-rules.md#states).
 */
export function roomWindowState(window: RoomWindow, now: Date): 'not_open' | 'open' | 'closed' {
  if (now.getTime() < window.opensAt.getTime()) return 'not_open';
  if (now.getTime() > window.closesAt.getTime()) return 'closed';
  return 'open';
}

/** Six digits, leading zeros kept (the numeric input of docs/product-rules.md#pin-screen). */
export const pinField = z.string().regex(/^\d{6}$/, { error: 'invalid_format' });
export const pinParamsSchema = z.object({ pin: pinField });

export const partySchema = z.enum(['customer', 'vet']);
export type Party = z.infer<typeof partySchema>;

/**
 * GET /api/appointments/pin/{pin}: the person the PIN belongs to (docs/product-rules.md#entities: user_email,
 * user_name, hash). `party`, `opens_at` and `closes_at` are ours: whose PIN it is and the room's window
 * (docs/product-rules.md#limits); `jitsi_jwt` too: only with a Jitsi Meet that uses token auth (JITSI_APP_ID), its JWT
 * for this room.
 */
export const pinLookupSchema = z.object({
  user_email: z.string(),
  user_name: z.string(),
  /** The appointment hash: the room's name. */
  hash: z.string(),
  party: partySchema,
  opens_at: z.iso.datetime(),
  closes_at: z.iso.datetime(),
  /** Only with VIDEO_PROVIDER=jitsi and token auth: the JWT that lets this person into the room. */
  jitsi_jwt: z.string().optional(),
});
export type PinLookup = z.infer<typeof pinLookupSchema>;

/** 409 of the PIN lookup outside the window: the usual error body plus when the room opens and closes. */
export const roomWindowErrorSchema = z.object({
  error: z.enum(['room_not_open', 'room_closed']),
  message: z.string(),
  opens_at: z.iso.datetime(),
  closes_at: z.iso.datetime(),
});
export type RoomWindowError = z.infer<typeof roomWindowErrorSchema>;

/** Which video room the web app shows: the built-in WebRTC room or a self-hosted Jitsi Meet. */
export const VIDEO_PROVIDERS = ['builtin', 'jitsi'] as const;
export type VideoProvider = (typeof VIDEO_PROVIDERS)[number];

const ICE_URL_PATTERN = /^(stun|stuns|turn|turns):[^\s]+$/i;
const iceUrl = z.string().regex(ICE_URL_PATTERN, { error: 'must be a stun:, stuns:, turn: or turns: URL' });

/**
 * One entry of RTCConfiguration.iceServers (ICE_SERVERS). Browsers refuse a TURN server without
 * username and credential, so this does too, at start rather than in the middle of a call.
 */
export const iceServerSchema = z
  .strictObject({
    urls: z.union([iceUrl, z.array(iceUrl).min(1)]),
    username: z.string().min(1).optional(),
    credential: z.string().min(1).optional(),
  })
  .refine(
    (server) =>
      [server.urls].flat().every((url) => !/^turns?:/i.test(url)) ||
      (server.username !== undefined && server.credential !== undefined),
    { error: 'a turn: or turns: server needs username and credential' },
  );
export type IceServer = z.infer<typeof iceServerSchema>;
export const iceServersSchema = z.array(iceServerSchema);

// ---------------------------------------------------------------------------------------------------------
// Signalling: GET /api/video/signal, upgraded to a WebSocket; JSON text messages (docs/video-signalling.md).

export const SIGNAL_PATH = '/api/video/signal';
/** Largest message in either direction; the server closes the socket with 1009 on a larger one. */
export const MAX_SIGNAL_MESSAGE_BYTES = 64 * 1024;
export const MAX_CHAT_TEXT_LENGTH = 2000;
/** The first message must be `join`, within this time. */
export const SIGNAL_JOIN_TIMEOUT_MS = 10_000;
/** The server pings every socket this often and drops one that did not answer the previous ping. */
export const SIGNAL_HEARTBEAT_MS = 20_000;
/** Messages a connection may send in a burst, and how fast that allowance refills. */
export const SIGNAL_MESSAGE_BURST = 100;
export const SIGNAL_MESSAGES_PER_SECOND = 20;

/**
 * Close codes the server uses, each with its reason (an error code the web app translates). 4xxx mirror
 * the HTTP statuses; 1012 is "service restart": reconnect (with the resume token).
 */
export const SIGNAL_CLOSE_CODES = {
  validation_failed: 4400,
  join_timeout: 4401,
  room_full: 4403,
  pin_not_found: 4404,
  room_not_open: 4409,
  room_closed: 4409,
  connection_replaced: 4410,
  too_many_requests: 4429,
  service_unavailable: 1012,
} as const satisfies Partial<Record<ErrorCode, number>>;
export type SignalCloseReason = keyof typeof SIGNAL_CLOSE_CODES;
/** The normal end after a `leave`. */
export const SIGNAL_CLOSE_LEFT = 1000;
/** What ws answers a message over MAX_SIGNAL_MESSAGE_BYTES with (RFC 6455 "message too big"). */
export const SIGNAL_CLOSE_TOO_BIG = 1009;

const sdpField = z.string().min(1).max(60_000);

/** RTCIceCandidateInit as the browser's `candidate.toJSON()` gives it; null: end of candidates. */
export const iceCandidateSchema = z.object({
  candidate: z.string().max(4096),
  sdpMid: z.string().max(256).nullish(),
  sdpMLineIndex: z.number().int().min(0).max(1024).nullish(),
  usernameFragment: z.string().max(256).nullish(),
});

const offerMessage = z.object({ type: z.literal('offer'), sdp: sdpField });
const answerMessage = z.object({ type: z.literal('answer'), sdp: sdpField });
const iceCandidateMessage = z.object({ type: z.literal('ice-candidate'), candidate: iceCandidateSchema.nullable() });
const mediaStateMessage = z.object({ type: z.literal('media-state'), audio: z.boolean(), video: z.boolean() });
const chatText = z.string().trim().min(1, { error: 'required' }).max(MAX_CHAT_TEXT_LENGTH, { error: 'too_long' });

export const joinMessageSchema = z.object({
  type: z.literal('join'),
  pin: pinField,
  /** The token of an earlier `joined`: with it, a reconnect takes over the party's older connection. */
  resume_token: z.string().min(1).max(100).optional(),
});

/** What a client sends. `join` first; then any of the rest; `leave` ends the call for the sender. */
export const signalClientMessageSchema = z.discriminatedUnion('type', [
  joinMessageSchema,
  offerMessage,
  answerMessage,
  iceCandidateMessage,
  z.object({ type: z.literal('chat'), text: chatText }),
  mediaStateMessage,
  z.object({ type: z.literal('leave') }),
]);
export type SignalClientMessage = z.infer<typeof signalClientMessageSchema>;

/** Client messages the server passes to the other party (chat with the server's time added). */
export const relayedChatSchema = z.object({ type: z.literal('chat'), text: z.string(), sent_at: z.iso.datetime() });
export const relayedSignalMessageSchema = z.discriminatedUnion('type', [
  offerMessage,
  answerMessage,
  iceCandidateMessage,
  relayedChatSchema,
  mediaStateMessage,
]);
export type RelayedSignalMessage = z.infer<typeof relayedSignalMessageSchema>;

export const peerSchema = z.object({ name: z.string(), party: partySchema });

/** What the server sends. */
export const signalServerMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('joined'),
    party: partySchema,
    self_name: z.string(),
    /** The other party when already in the room; null until then (then `peer-joined` comes). */
    peer: peerSchema.nullable(),
    ice_servers: iceServersSchema,
    /** Present it in the `join` of a reconnect to take over this seat from a connection that died. */
    resume_token: z.string(),
  }),
  peerSchema.extend({ type: z.literal('peer-joined') }),
  z.object({ type: z.literal('peer-left') }),
  ...relayedSignalMessageSchema.options,
  /** A message that was refused (invalid, too many); the connection stays open. */
  z.object({ type: z.literal('error'), error: z.string(), message: z.string() }),
]);
export type SignalServerMessage = z.infer<typeof signalServerMessageSchema>;
