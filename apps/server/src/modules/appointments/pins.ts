import { randomInt } from 'node:crypto';
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { AppointmentStatus } from '@vetcall/shared/appointment-status';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { appointments } from '../../db/schema.ts';
import type { Secrets } from '../../secrets.ts';
import type { AppointmentRow } from '../../db/appointment-transition.ts';

/**
 * The two 6-digit PINs of a confirmed appointment (docs/product-rules.md#pin-screen): the customer joins with
 * customer_pin, the vet with vet_pin. The database keeps only an HMAC of each (to find the appointment by PIN) and both
 * sealed with the server secret (to send them again), so a database read alone reveals no PIN.
 */
export interface AppointmentPins {
  customer: string;
  vet: string;
}

/** Statuses whose PINs open a video room: the partial unique indexes on the PIN hashes cover these. */
export const LIVE_PIN_STATUSES = ['TK_Requested', 'TK_Confirmed'] as const satisfies readonly AppointmentStatus[];

export const PIN_PATTERN = /^\d{6}$/;
const PIN_MAC_PURPOSE = 'pin';
const PIN_SEAL_PURPOSE = 'appointment-pins';
/** pg_advisory_xact_lock key serialising PIN issuance (the migration lock is 73_570_001). */
const PIN_ISSUE_LOCK_KEY = 73_570_002;
/** 10^6 PINs and a few thousand live appointments: a free pair is found at the first try but for bad luck. */
const MAX_PICKS = 20;

/** Six random digits, uniformly (crypto.randomInt), leading zeros kept. */
export const randomPin = (): string => String(randomInt(0, 1_000_000)).padStart(6, '0');

/** What the PIN hash columns hold for a PIN. */
export const pinLookupHash = (secrets: Pick<Secrets, 'mac'>, pin: string): string => secrets.mac(PIN_MAC_PURPOSE, pin);

export const sealPins = (secrets: Pick<Secrets, 'seal'>, pins: AppointmentPins): string =>
  secrets.seal(PIN_SEAL_PURPOSE, JSON.stringify({ customer: pins.customer, vet: pins.vet }));

export function openPins(secrets: Pick<Secrets, 'open'>, sealed: string): AppointmentPins {
  const value = JSON.parse(secrets.open(PIN_SEAL_PURPOSE, sealed)) as Partial<AppointmentPins>;
  if (
    typeof value.customer !== 'string' ||
    typeof value.vet !== 'string' ||
    !PIN_PATTERN.test(value.customer) ||
    !PIN_PATTERN.test(value.vet)
  ) {
    throw new Error('sealed PINs are malformed');
  }
  return { customer: value.customer, vet: value.vet };
}

export interface IssuedPins {
  pins: AppointmentPins;
  customerPinHash: string;
  vetPinHash: string;
  pinCipher: string;
}

/**
 * Picks a customer PIN and a vet PIN, different from each other and from every PIN of a live appointment
 * in either role (so a PIN names one appointment and one party). Run it inside the transaction that stores
 * them: the advisory lock makes concurrent issuers take turns until commit, so the check cannot race. The
 * partial unique indexes stay the last guard; callers retry on their unique violation.
 */
export async function issuePins(
  tx: Pick<Database, 'select' | 'execute'>,
  secrets: Pick<Secrets, 'mac' | 'seal'>,
  nextPin: () => string = randomPin,
): Promise<IssuedPins> {
  await tx.execute(sql`select pg_advisory_xact_lock(${sql.raw(String(PIN_ISSUE_LOCK_KEY))})`);
  for (let pick = 0; pick < MAX_PICKS; pick++) {
    const pins = { customer: nextPin(), vet: nextPin() };
    if (pins.customer === pins.vet) continue;
    const hashes = [pinLookupHash(secrets, pins.customer), pinLookupHash(secrets, pins.vet)];
    const taken = await tx
      .select({ id: appointments.id })
      .from(appointments)
      .where(
        and(
          inArray(appointments.status, [...LIVE_PIN_STATUSES]),
          or(inArray(appointments.customerPinHash, hashes), inArray(appointments.vetPinHash, hashes)),
        ),
      )
      .limit(1);
    if (taken.length > 0) continue;
    return { pins, customerPinHash: hashes[0]!, vetPinHash: hashes[1]!, pinCipher: sealPins(secrets, pins) };
  }
  throw new Error(`no free PIN pair after ${MAX_PICKS} picks`);
}

export interface AppointmentByPin {
  appointment: AppointmentRow;
  /** Whose PIN it is: the customer's or the vet's. */
  party: 'customer' | 'vet';
}

/**
 * The live appointment a PIN opens, and whose PIN it is; undefined for anything else. Callers expose
 * this without authentication (docs/product-rules.md#api GET api/appointments/pin/{pin}), so they rate-limit it.
 */
export async function findAppointmentByPin(
  deps: Pick<AppContext, 'db' | 'secrets'>,
  pin: string,
): Promise<AppointmentByPin | undefined> {
  if (!PIN_PATTERN.test(pin)) return undefined;
  const hash = pinLookupHash(deps.secrets, pin);
  const [appointment] = await deps.db
    .select()
    .from(appointments)
    .where(
      and(
        inArray(appointments.status, [...LIVE_PIN_STATUSES]),
        or(eq(appointments.customerPinHash, hash), eq(appointments.vetPinHash, hash)),
      ),
    )
    .limit(1);
  if (!appointment) return undefined;
  return { appointment, party: appointment.customerPinHash === hash ? 'customer' : 'vet' };
}
