import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Locale } from '@vetcall/shared/locales';
import { buildAppointment, buildCustomer, buildManager, buildPet, buildVet } from '../src/demo-data/factories.ts';
import { appointments, calendarEvents, sessions } from '../src/db/schema.ts';
import { generateToken, hashToken } from '../src/lib/tokens.ts';
import type { TestApp } from './build-test-app.ts';

/**
 * People and unpaid appointments for the payment tests, made with the factories (not through the booking
 * route): an appointment waiting for its payment with a hold linked to it, as POST /api/appointments
 * leaves it.
 */

/** A session of its own for a user, straight into the table: its bearer token and headers. */
export async function sessionFor(t: TestApp, userId: number) {
  const token = generateToken();
  const now = t.context.clock.now();
  await t.db.insert(sessions).values({
    userId,
    tokenHash: hashToken(token),
    createdAt: now,
    lastUsedAt: now,
    expiresAt: new Date(now.getTime() + 7 * 86_400_000),
  });
  return { token, headers: { authorization: `Bearer ${token}` } };
}

async function customerWithSession(t: TestApp, name: string, locale: Locale) {
  const tag = randomBytes(4).toString('hex');
  const { user, customer } = await buildCustomer(t.db, {
    name,
    email: `${name.toLowerCase()}-${tag}@example.test`,
    locale,
  });
  const pet = await buildPet(t.db, customer.id, { name: `${name}'s cat`, species: 'Cat' });
  return { user, customer, pet, ...(await sessionFor(t, user.id)) };
}

/**
 * Vet Rui (writes in pt-BR, works in America/Sao_Paulo), customers Ana (en) and Bia (pt), each with a pet
 * and a session, and a manager.
 */
export async function buildPaymentWorld(t: TestApp) {
  const tag = randomBytes(4).toString('hex');
  const rui = await buildVet(t.db, {
    name: 'Rui Vet',
    email: `rui-${tag}@clinic.test`,
    locale: 'pt-BR',
    profile: { timezone: 'America/Sao_Paulo' },
  });
  const manager = await buildManager(t.db, { email: `boss-${tag}@clinic.test` });
  return {
    rui: { ...rui, ...(await sessionFor(t, rui.user.id)) },
    ana: await customerWithSession(t, 'Ana', 'en'),
    bia: await customerWithSession(t, 'Bia', 'pt'),
    manager: { ...manager, ...(await sessionFor(t, manager.user.id)) },
  };
}

export type PaymentWorld = Awaited<ReturnType<typeof buildPaymentWorld>>;
type Customer = PaymentWorld['ana'];

/**
 * An appointment of `customer` with Rui waiting for its payment (TK_PendingPayment), and its hold: by
 * default 2500 cents, 1 December 2026 10:00 UTC, the customer at UTC+01:00, the hold good for 20 more
 * minutes.
 */
export async function buildUnpaidAppointment(
  t: TestApp,
  world: PaymentWorld,
  customer: Customer,
  options: {
    priceCents?: number;
    schedule?: Date;
    holdExpiresAt?: Date;
    holdReleasedAt?: Date | null;
    timezoneDiff?: number;
    status?: (typeof appointments.$inferSelect)['status'];
    /** The product's name as the booking stored it (in the customer's language then). */
    itemName?: string;
  } = {},
) {
  const now = t.context.clock.now();
  const schedule = options.schedule ?? new Date('2026-12-01T10:00:00Z');
  const appointment = await buildAppointment(
    t.db,
    { customerUserId: customer.user.id, petId: customer.pet.id, vetUserId: world.rui.user.id },
    {
      paymentHash: randomBytes(16).toString('base64url'),
      status: options.status ?? 'TK_PendingPayment',
      statusDate: now,
      schedule,
      priceCents: options.priceCents ?? 2500,
      itemName: options.itemName ?? 'Video consultation',
      timezoneDiff: options.timezoneDiff ?? 3600,
      description: 'Sneezing <a lot> since Monday.',
      createdAt: now,
    },
  );
  const [hold] = await t.db
    .insert(calendarEvents)
    .values({
      eventId: randomBytes(16).toString('base64url'),
      vetUserId: world.rui.user.id,
      customerUserId: customer.user.id,
      profileId: world.rui.profile.id,
      kind: 'hold',
      startsAt: schedule,
      endsAt: new Date(schedule.getTime() + 30 * 60_000),
      expiresAt: options.holdExpiresAt ?? new Date(now.getTime() + 20 * 60_000),
      releasedAt: options.holdReleasedAt ?? null,
      appointmentId: appointment.id,
      createdAt: now,
    })
    .returning();
  await t.db.update(appointments).set({ calendarEventId: hold!.eventId }).where(eq(appointments.id, appointment.id));
  return { appointment, hold: hold!, paymentHash: appointment.paymentHash! };
}

/** The appointment and its calendar entry as they are now. */
export async function readAppointment(t: TestApp, appointmentId: number) {
  const [appointment] = await t.db.select().from(appointments).where(eq(appointments.id, appointmentId));
  const [event] = await t.db.select().from(calendarEvents).where(eq(calendarEvents.appointmentId, appointmentId));
  return { appointment: appointment!, event: event! };
}

/** The payment form as the booking screen posts it (urlencoded). */
export function paymentForm(customer: Customer, paymentHash: string, overrides: Record<string, string> = {}) {
  return new URLSearchParams({
    payment_hash: paymentHash,
    payment_email: customer.user.email,
    customer_user_id: String(customer.user.id),
    auth_token: customer.token,
    ga_client_id: 'GA1.1.123.456',
    appointment_included: '0',
    ...overrides,
  }).toString();
}

export const FORM_HEADERS = { 'content-type': 'application/x-www-form-urlencoded' };
