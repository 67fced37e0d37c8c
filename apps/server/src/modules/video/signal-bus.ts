import type { Party, RelayedSignalMessage } from '@vetcall/shared/schemas/video';

/**
 * Where the signalling rooms live. A room (one per appointment hash) has two seats, the customer's and the
 * vet's; each is held by at most one connection, possibly on another server instance. The bus keeps the
 * seats and carries a room's events to every connection of that room, wherever it is: in process memory
 * for one instance, through Redis (REDIS_URL) for many. Connections decide what an event means to them
 * (signal-session.ts); the bus only stores and delivers.
 */

/** Who holds a seat, as the other connections of the room see it. */
export interface SeatHolder {
  connectionId: string;
  party: Party;
  name: string;
}

/** A seat holder and the hash of the resume token that lets a reconnect of the same party take over. */
export interface Seat extends SeatHolder {
  resumeTokenHash: string;
}

export type RoomEvent =
  /** A connection took a seat (first join, or a reconnect that replaced the party's older connection). */
  | { kind: 'joined'; holder: SeatHolder }
  /** A connection left its seat (or closed). */
  | { kind: 'left'; party: Party; connectionId: string }
  /** A message for the other party. */
  | { kind: 'signal'; party: Party; connectionId: string; message: RelayedSignalMessage };

export type RoomListener = (event: RoomEvent) => void;

export type ClaimResult =
  /** The seat is ours now; `peer` is the other seat's holder, if any. */
  | { admitted: true; peer: SeatHolder | null }
  /** Someone else holds the seat and the resume token presented (if any) is not theirs. */
  | { admitted: false };

export interface SignalBus {
  readonly kind: 'memory' | 'redis';
  /**
   * Delivers the room's events to `listener`, in the order they were published, from when the promise
   * resolves; answers the function that stops it. Subscribe before claiming a seat, so that no event
   * published after the claim is missed.
   */
  subscribe(room: string, listener: RoomListener): Promise<() => Promise<void>>;
  /**
   * Takes `seat.party`'s seat when it is free, or when `presentedTokenHash` is the holder's (a reconnect:
   * the older connection learns of it from the `joined` event the caller then publishes).
   */
  claimSeat(room: string, seat: Seat, presentedTokenHash: string | undefined): Promise<ClaimResult>;
  /**
   * The heartbeat: keeps the connection's seat alive (Redis seats expire unless refreshed) and answers
   * whether it still holds it and who holds the other one, so a missed event is caught up.
   */
  refreshSeat(room: string, party: Party, connectionId: string): Promise<{ held: boolean; peer: SeatHolder | null }>;
  /** Frees the seat if this connection still holds it. */
  releaseSeat(room: string, party: Party, connectionId: string): Promise<void>;
  publish(room: string, event: RoomEvent): Promise<void>;
  close(): Promise<void>;
}

export const otherParty = (party: Party): Party => (party === 'vet' ? 'customer' : 'vet');

const publicHolder = (seat: Seat): SeatHolder => ({
  connectionId: seat.connectionId,
  party: seat.party,
  name: seat.name,
});

/** One server instance: seats and listeners in a Map; events delivered asynchronously, in order. */
export function createMemorySignalBus(): SignalBus {
  const rooms = new Map<string, { seats: Map<Party, Seat>; listeners: Set<RoomListener> }>();

  const roomOf = (room: string) => {
    let state = rooms.get(room);
    if (!state) {
      state = { seats: new Map(), listeners: new Set() };
      rooms.set(room, state);
    }
    return state;
  };
  const forgetIfEmpty = (room: string) => {
    const state = rooms.get(room);
    if (state && state.seats.size === 0 && state.listeners.size === 0) rooms.delete(room);
  };

  return {
    kind: 'memory',
    async subscribe(room, listener) {
      roomOf(room).listeners.add(listener);
      return async () => {
        rooms.get(room)?.listeners.delete(listener);
        forgetIfEmpty(room);
      };
    },
    async claimSeat(room, seat, presentedTokenHash) {
      const state = roomOf(room);
      const holder = state.seats.get(seat.party);
      if (holder && (presentedTokenHash === undefined || holder.resumeTokenHash !== presentedTokenHash)) {
        return { admitted: false };
      }
      state.seats.set(seat.party, seat);
      const peer = state.seats.get(otherParty(seat.party));
      return { admitted: true, peer: peer ? publicHolder(peer) : null };
    },
    async refreshSeat(room, party, connectionId) {
      const state = rooms.get(room);
      const peer = state?.seats.get(otherParty(party));
      return {
        held: state?.seats.get(party)?.connectionId === connectionId,
        peer: peer ? publicHolder(peer) : null,
      };
    },
    async releaseSeat(room, party, connectionId) {
      const state = rooms.get(room);
      if (state?.seats.get(party)?.connectionId === connectionId) state.seats.delete(party);
      forgetIfEmpty(room);
    },
    async publish(room, event) {
      const listeners = [...(rooms.get(room)?.listeners ?? [])];
      // Asynchronous like Redis, so that no caller depends on delivery happening inside publish().
      queueMicrotask(() => {
        for (const listener of listeners) listener(event);
      });
    },
    async close() {
      rooms.clear();
    },
  };
}
