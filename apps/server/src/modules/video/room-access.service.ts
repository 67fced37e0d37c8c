import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type Party, type RoomWindow, roomWindow, roomWindowState } from '@vetcall/shared/schemas/video';
import type { AppContext } from '../../context.ts';
import { users } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { type RateRule, tooManyRequests } from '../../plugins/rate-limiter.ts';
import { findAppointmentByPin, pinLookupHash } from '../appointments/pins.ts';

/**
 * PINs are looked up without auth (docs/product-rules.md#api GET api/appointments/pin/{pin}), over HTTP and in the
 * `join` of the signalling socket alike, so failed lookups are counted per IP: 10^6 PINs at 10 guesses per 10 minutes
 * is years per address. A PIN that is found (inside its window or not) counts nothing.
 */
export const PIN_LOOKUP_FAILURES_PER_IP: RateRule = { limit: 10, windowMs: 10 * 60 * 1000 };

type Deps = Pick<AppContext, 'db' | 'secrets' | 'clock' | 'limiter'>;

export interface RoomAdmission {
  kind: 'open';
  appointmentId: number;
  /** The appointment hash: the room's name. */
  hash: string;
  party: Party;
  user: { name: string; email: string };
  window: RoomWindow;
}

/** The PIN is right, but its room is not open now: too early, or over. */
export interface RoomOutsideWindow {
  kind: 'room_not_open' | 'room_closed';
  window: RoomWindow;
}

export const pinNotFound = () =>
  new AppError('pin_not_found', 404, { message: 'No appointment is waiting for this PIN.' });

export const roomWindowMessage = (outside: RoomOutsideWindow): string =>
  outside.kind === 'room_not_open'
    ? `The room opens at ${outside.window.opensAt.toISOString()}, 30 minutes before the appointment.`
    : `The room closed at ${outside.window.closesAt.toISOString()}, 1 hour after the start of the appointment.`;

/**
 * A short reference to a PIN for the log: the first characters of its keyed hash (server secret), so that
 * repeated attempts with the same PIN can be told apart without the log revealing the PIN.
 */
export const pinLogReference = (deps: Pick<AppContext, 'secrets'>, pin: string): string =>
  pinLookupHash(deps.secrets, pin).slice(0, 10);

/**
 * The room a PIN opens, and to whom (docs/product-rules.md#pin-screen, #limits): only a confirmed appointment's PIN,
 * and only from 30 minutes before the start until 1 hour after it. Unknown PIN: 404 pin_not_found, counted against the
 * caller's IP; 429 once the IP used its failures. Every failed lookup is logged, without the PIN.
 */
export async function openRoomByPin(
  deps: Deps,
  pin: string,
  request: { ip: string; log: Pick<FastifyBaseLogger, 'warn'> },
): Promise<RoomAdmission | RoomOutsideWindow> {
  const ipKey = `pin-lookup:ip:${request.ip}`;
  const logFailure = (outcome: string) =>
    request.log.warn({ pinRef: pinLogReference(deps, pin), ip: request.ip, outcome }, 'PIN lookup failed');

  const allowance = await deps.limiter.check(ipKey, PIN_LOOKUP_FAILURES_PER_IP);
  if (!allowance.allowed) {
    logFailure('too_many_requests');
    throw tooManyRequests(allowance);
  }

  const found = await findAppointmentByPin(deps, pin);
  // A requested appointment has no PINs yet; only a confirmed one opens a room (docs/product-rules.md#states).
  if (!found || found.appointment.status !== 'TK_Confirmed') {
    await deps.limiter.hit(ipKey, PIN_LOOKUP_FAILURES_PER_IP);
    logFailure('pin_not_found');
    throw pinNotFound();
  }

  const { appointment, party } = found;
  const window = roomWindow(appointment.schedule);
  const state = roomWindowState(window, deps.clock.now());
  if (state !== 'open') {
    logFailure(`room_${state}`);
    return { kind: `room_${state}`, window };
  }

  const userId = party === 'vet' ? appointment.vetUserId : appointment.customerUserId;
  const [user] = await deps.db
    .select({ name: users.name, email: users.email })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!user) throw new Error(`user ${userId} of appointment ${appointment.id} is missing`);
  return { kind: 'open', appointmentId: appointment.id, hash: appointment.hash, party, user, window };
}
