import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import {
  type Party,
  type RelayedSignalMessage,
  SIGNAL_CLOSE_CODES,
  SIGNAL_CLOSE_LEFT,
  SIGNAL_MESSAGE_BURST,
  SIGNAL_MESSAGES_PER_SECOND,
  type SignalClientMessage,
  signalClientMessageSchema,
  type SignalCloseReason,
  type SignalServerMessage,
} from '@vetcall/shared/schemas/video';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { openRoomByPin } from './room-access.service.ts';
import type { RoomEvent, SeatHolder, SignalBus } from './signal-bus.ts';

/**
 * One signalling connection (docs/video-signalling.md): it waits for `join`, takes its party's seat in the
 * appointment's room, then passes messages to and from the other party through the bus. What it sends its
 * client follows the room's events, and the heartbeat's view of the seats when an event was missed.
 */

export interface SignalSessionDeps {
  context: Pick<AppContext, 'db' | 'secrets' | 'clock' | 'limiter' | 'config'>;
  bus: SignalBus;
  joinTimeoutMs: number;
}

export interface SignalSession {
  /** Called every heartbeat period: drops a socket that did not answer the last ping, refreshes the seat. */
  heartbeat(): Promise<void>;
  /** Server shutdown: leaves the room and closes with 1012, so the client reconnects elsewhere. */
  shutdown(): Promise<void>;
  /** Settles once the socket closed and the seat was given back. */
  readonly finished: Promise<void>;
}

interface Membership {
  room: string;
  appointmentId: number;
  party: Party;
  name: string;
  unsubscribe: () => Promise<void>;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

export function startSignalSession(
  socket: WebSocket,
  request: { ip: string; log: FastifyBaseLogger },
  deps: SignalSessionDeps,
): SignalSession {
  const { bus, context } = deps;
  const connectionId = randomUUID();
  const log = request.log.child({ signalConnection: connectionId });

  let phase: 'awaiting-join' | 'joining' | 'joined' | 'closing' | 'closed' = 'awaiting-join';
  let membership: Membership | undefined;
  let peer: SeatHolder | null = null;
  /** Events that came while joining: handled once the client has its `joined`. */
  let earlyEvents: RoomEvent[] | null = null;
  /** A newer connection of the same party took the seat: this one leaves without telling the peer. */
  let replaced = false;
  let answeredPing = true;
  let work: Promise<void> = Promise.resolve();

  // Token bucket: SIGNAL_MESSAGE_BURST messages at once, refilled at SIGNAL_MESSAGES_PER_SECOND.
  let tokens = SIGNAL_MESSAGE_BURST;
  let refilledAt = performance.now();
  let droppedInARow = 0;

  let markFinished: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => {
    markFinished = resolve;
  });

  const send = (message: SignalServerMessage) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  };
  const sendError = (error: string, message: string) => send({ type: 'error', error, message });

  const closeWith = (reason: SignalCloseReason | 'left') => {
    if (phase !== 'closed') phase = 'closing';
    const code = reason === 'left' ? SIGNAL_CLOSE_LEFT : SIGNAL_CLOSE_CODES[reason];
    if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING) socket.close(code, reason);
  };

  const joinTimer = setTimeout(() => {
    if (phase === 'awaiting-join') {
      log.info('video signalling: no join in time');
      closeWith('join_timeout');
    }
  }, deps.joinTimeoutMs);

  /** Gives the seat back and tells the peer, once; a replaced connection does not speak for the seat. */
  async function leaveRoom() {
    const left = membership;
    membership = undefined;
    if (!left) return;
    const { room, party } = left;
    await bus.releaseSeat(room, party, connectionId).catch((error: unknown) => {
      log.error({ err: error }, 'video signalling: seat not released');
    });
    if (!replaced) {
      await bus.publish(room, { kind: 'left', party, connectionId }).catch((error: unknown) => {
        log.error({ err: error }, 'video signalling: leave not published');
      });
    }
    await left.unsubscribe().catch((error: unknown) => {
      log.error({ err: error }, 'video signalling: unsubscribe failed');
    });
    log.info({ appointmentId: left.appointmentId, party, replaced }, 'video participant left');
  }

  function peerChanged(holder: SeatHolder | null) {
    if ((holder?.connectionId ?? null) === (peer?.connectionId ?? null)) return;
    peer = holder;
    send(holder ? { type: 'peer-joined', name: holder.name, party: holder.party } : { type: 'peer-left' });
  }

  function wasReplaced() {
    replaced = true;
    log.info('video signalling: replaced by a newer connection of the same party');
    closeWith('connection_replaced');
  }

  /** Another connection of our party says it joined: it replaced us only if it holds the seat now. */
  async function checkSeat() {
    const current = membership;
    if (!current) return;
    const { held } = await bus.refreshSeat(current.room, current.party, connectionId);
    if (!held && membership === current) wasReplaced();
  }

  function onRoomEvent(event: RoomEvent) {
    if (earlyEvents) {
      earlyEvents.push(event);
      return;
    }
    if (phase !== 'joined' || !membership) return;
    const own = membership.party;
    switch (event.kind) {
      case 'joined':
        if (event.holder.connectionId === connectionId) return;
        if (event.holder.party === own) {
          checkSeat().catch((error: unknown) => log.error({ err: error }, 'video signalling: seat check failed'));
        } else {
          peerChanged(event.holder);
        }
        return;
      case 'left':
        if (event.party !== own && event.connectionId === peer?.connectionId) peerChanged(null);
        return;
      case 'signal':
        // Only from the peer this client knows of: never from a replaced connection still draining.
        if (event.party !== own && event.connectionId === peer?.connectionId) send(event.message);
        return;
    }
  }

  async function join(message: Extract<SignalClientMessage, { type: 'join' }>) {
    phase = 'joining';
    clearTimeout(joinTimer);
    let access;
    try {
      access = await openRoomByPin(context, message.pin, request);
    } catch (error) {
      if (error instanceof AppError && (error.code === 'pin_not_found' || error.code === 'too_many_requests')) {
        closeWith(error.code);
        return;
      }
      throw error;
    }
    if (access.kind !== 'open') {
      closeWith(access.kind);
      return;
    }
    if (phase !== 'joining') return;

    const room = access.hash;
    const party = access.party;
    const resumeToken = message.resume_token ?? randomBytes(24).toString('base64url');
    earlyEvents = [];
    let unsubscribe: Membership['unsubscribe'] = async () => undefined;
    let claim;
    try {
      unsubscribe = await bus.subscribe(room, onRoomEvent);
      claim = await bus.claimSeat(
        room,
        { connectionId, party, name: access.user.name, resumeTokenHash: hashToken(resumeToken) },
        message.resume_token === undefined ? undefined : hashToken(message.resume_token),
      );
    } catch (error) {
      earlyEvents = null;
      await unsubscribe().catch(() => undefined);
      throw error;
    }
    if (!claim.admitted) {
      earlyEvents = null;
      await unsubscribe();
      log.warn({ appointmentId: access.appointmentId, party }, 'video signalling: seat taken, connection refused');
      closeWith('room_full');
      return;
    }
    membership = { room, appointmentId: access.appointmentId, party, name: access.user.name, unsubscribe };
    if (phase !== 'joining') {
      // The socket closed while joining: give the seat straight back.
      await leaveRoom();
      return;
    }
    phase = 'joined';
    peer = claim.peer;
    send({
      type: 'joined',
      party,
      self_name: access.user.name,
      peer: peer ? { name: peer.name, party: peer.party } : null,
      ice_servers: context.config.video.iceServers,
      resume_token: resumeToken,
    });
    const pending = earlyEvents;
    earlyEvents = null;
    for (const event of pending) onRoomEvent(event);
    await bus.publish(room, { kind: 'joined', holder: { connectionId, party, name: access.user.name } });
    log.info({ appointmentId: access.appointmentId, party, peerPresent: peer !== null }, 'video participant joined');
  }

  function takeToken(): boolean {
    const now = performance.now();
    tokens = Math.min(SIGNAL_MESSAGE_BURST, tokens + ((now - refilledAt) / 1000) * SIGNAL_MESSAGES_PER_SECOND);
    refilledAt = now;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  }

  async function relay(message: Exclude<SignalClientMessage, { type: 'join' } | { type: 'leave' }>) {
    if (!membership) return;
    const relayed: RelayedSignalMessage =
      message.type === 'chat'
        ? { type: 'chat', text: message.text, sent_at: context.clock.now().toISOString() }
        : message;
    await bus.publish(membership.room, {
      kind: 'signal',
      party: membership.party,
      connectionId,
      message: relayed,
    });
  }

  async function handle(data: RawData, isBinary: boolean) {
    if (phase === 'closing' || phase === 'closed') return;
    let parsed: unknown;
    try {
      if (isBinary) throw new Error('binary message');
      parsed = JSON.parse(data.toString());
    } catch {
      if (phase === 'awaiting-join') closeWith('validation_failed');
      else sendError('invalid_json', 'Messages are JSON text.');
      return;
    }
    const result = signalClientMessageSchema.safeParse(parsed);
    if (phase === 'awaiting-join') {
      if (result.success && result.data.type === 'join') await join(result.data);
      else closeWith('validation_failed');
      return;
    }
    if (!result.success) {
      const type = (parsed as { type?: unknown } | null)?.type;
      sendError('validation_failed', `Invalid ${typeof type === 'string' ? type.slice(0, 40) : 'message'}.`);
      return;
    }
    const message = result.data;
    if (message.type === 'join') {
      sendError('validation_failed', 'Already joined.');
      return;
    }
    if (message.type === 'leave') {
      await leaveRoom();
      closeWith('left');
      return;
    }
    await relay(message);
  }

  socket.on('message', (data, isBinary) => {
    if (phase === 'closing' || phase === 'closed') return;
    // Counted from the first message: a client flooding before its join completes queues nothing either.
    if (!takeToken()) {
      droppedInARow += 1;
      if (droppedInARow === 1) sendError('too_many_requests', 'Too many messages: some were dropped.');
      if (droppedInARow >= SIGNAL_MESSAGE_BURST) closeWith('too_many_requests');
      return;
    }
    droppedInARow = 0;
    // One message at a time, in order: a message sent right after `join` waits for the join to finish.
    work = work
      .then(() => handle(data, isBinary))
      .catch((error: unknown) => {
        log.error({ err: error }, 'video signalling: message failed');
        closeWith('service_unavailable');
      });
  });

  socket.on('pong', () => {
    answeredPing = true;
  });

  socket.on('close', () => {
    phase = 'closed';
    clearTimeout(joinTimer);
    // After any message still being handled, so that a join in progress sees the close.
    work = work.then(leaveRoom).finally(markFinished);
  });

  return {
    finished,
    async heartbeat() {
      if (phase === 'closed') return;
      if (!answeredPing) {
        log.info('video signalling: no answer to ping, dropping the connection');
        socket.terminate();
        return;
      }
      answeredPing = false;
      socket.ping();
      const current = membership;
      if (phase !== 'joined' || !current) return;
      try {
        const seats = await bus.refreshSeat(current.room, current.party, connectionId);
        if (membership !== current) return;
        if (!seats.held) wasReplaced();
        else peerChanged(seats.peer);
      } catch (error) {
        log.error({ err: error }, 'video signalling: seat refresh failed');
      }
    },
    async shutdown() {
      await leaveRoom();
      closeWith('service_unavailable');
    },
  };
}
