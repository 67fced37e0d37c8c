import { and, count, eq, inArray, isNotNull, lt, ne, or } from 'drizzle-orm';
import type { Locale } from '@vetcall/shared/locales';
import type { z } from 'zod';
import type { Checkout, PaymentLookup, paymentFormSchema } from '@vetcall/shared/schemas/booking';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { appointments, calendarEvents, pets, users } from '../../db/schema.ts';
import { AppError, forbidden } from '../../errors.ts';
import { assertAllowed } from '../../plugins/rate-limiter.ts';
import {
  type StripeClient,
  STRIPE_MIN_SESSION_MINUTES,
  StripeRequestRefused,
  StripeUnavailable,
} from '../../providers/payments/stripe.ts';
import type { AppointmentRow } from '../../db/appointment-transition.ts';
import { type Actor, authenticateToken } from '../auth/auth.service.ts';
import {
  endUnpaidAppointment,
  findLiveHold,
  invalidPaymentHash,
  markAppointmentPaid,
  paymentClosed,
} from './mark-paid.ts';
import { canPayForAppointment, isPaidStatus, PAID_STATUSES } from './appointment.policy.ts';
import { itemNameIn } from '../products/products.service.ts';
import { type NotifyDeps, notifyRequestReceived } from './request-emails.ts';

export type PaymentDeps = NotifyDeps & Pick<AppContext, 'limiter'> & { stripe: StripeClient | null };

type PaymentForm = z.output<typeof paymentFormSchema>;

const MINUTE_MS = 60_000;

/** Card attempts on the built-in checkout, per appointment: enough for typos, not for trying numbers. */
export const CHECKOUT_PAY_RATE_LIMIT = { limit: 10, windowMs: 15 * MINUTE_MS } as const;

/** The built-in checkout's test cards (it is a demo provider: no money moves, no other card is accepted). */
export const TEST_CARD_SUCCEEDS = '4242424242424242';
export const TEST_CARD_DECLINED = '4000000000000002';

/** Stripe refuses an expires_at closer than 30 minutes; a minute more absorbs clock skew. */
const STRIPE_EXPIRY_MARGIN_MS = (STRIPE_MIN_SESSION_MINUTES + 1) * MINUTE_MS;

export const cardDeclined = () => new AppError('card_declined', 402);
const providerUnavailable = (cause: unknown) =>
  new AppError('payment_provider_unavailable', 502, { message: 'The payment provider cannot be reached.', cause });

const requestSentPath = (paymentHash: string, locale: Locale) =>
  `/requestsent/${encodeURIComponent(paymentHash)}?lang=${encodeURIComponent(locale)}`;

async function findByPaymentHash(db: Pick<Database, 'select'>, paymentHash: string) {
  const [row] = await db
    .select({ appointment: appointments, vetName: users.name, petName: pets.name })
    .from(appointments)
    .innerJoin(users, eq(users.id, appointments.vetUserId))
    .innerJoin(pets, eq(pets.id, appointments.petId))
    .where(eq(appointments.paymentHash, paymentHash))
    .limit(1);
  return row ?? null;
}

/** The actor's own appointment by payment hash; unknown and someone else's look the same (404). */
async function findOwnedByPaymentHash(db: Pick<Database, 'select'>, actor: Actor, paymentHash: string) {
  const row = await findByPaymentHash(db, paymentHash);
  if (!row || !canPayForAppointment(actor, row.appointment)) throw invalidPaymentHash();
  return row;
}

/**
 * No paid appointment of the same customer came before this one (docs/product-rules.md#request-confirmed
 * is_first_purchase).
 */
export async function isFirstPurchase(db: Pick<Database, 'select'>, appointment: AppointmentRow): Promise<boolean> {
  const paidEarlier = appointment.paidAt
    ? or(
        lt(appointments.paidAt, appointment.paidAt),
        and(eq(appointments.paidAt, appointment.paidAt), lt(appointments.id, appointment.id)),
      )
    : undefined;
  const [row] = await db
    .select({ earlier: count() })
    .from(appointments)
    .where(
      and(
        eq(appointments.customerUserId, appointment.customerUserId),
        ne(appointments.id, appointment.id),
        inArray(appointments.status, PAID_STATUSES),
        isNotNull(appointments.paidAt),
        paidEarlier,
      ),
    );
  return (row?.earlier ?? 0) === 0;
}

/** Ends an appointment whose hold lapsed before it was paid, and refuses the payment. */
async function closeLapsed(deps: PaymentDeps, appointmentId: number): Promise<never> {
  await endUnpaidAppointment(deps, appointmentId, 'TK_PaymentFailed');
  throw paymentClosed();
}

/**
 * POST /api/payment/{locale} (docs/product-rules.md#api Payment): the browser's form post. The session token in the
 * form must be the customer's who owns the appointment (and is customer_user_id); the appointment must be
 * waiting for its payment with its hold still good. Answers where the browser goes (303): Request
 * Confirmed for a free appointment (paid at 0 here), the built-in checkout page, or Stripe Checkout.
 * An appointment already paid (a double submit) goes to Request Sent.
 */
export async function startPayment(
  deps: PaymentDeps,
  locale: Locale,
  form: PaymentForm,
): Promise<{ location: string }> {
  const actor = await authenticateToken(deps, form.auth_token);
  if (actor.type !== 'customer' || actor.userId !== form.customer_user_id) throw forbidden();
  const row = await findByPaymentHash(deps.db, form.payment_hash);
  if (!row || !canPayForAppointment(actor, row.appointment)) throw forbidden();
  const { appointment } = row;

  if (isPaidStatus(appointment.status)) return { location: requestSentPath(form.payment_hash, locale) };
  if (appointment.status !== 'TK_PendingPayment') throw paymentClosed();
  const now = deps.clock.now();
  const hold = await findLiveHold(deps.db, appointment.id, now);
  if (!hold?.expiresAt) return closeLapsed(deps, appointment.id);

  // The server decides what is free (its price), whatever the browser believes.
  const isFree = appointment.priceCents === 0;
  if ((form.appointment_included === '1') !== isFree) {
    deps.log.warn(
      { appointmentId: appointment.id, appointmentIncluded: form.appointment_included },
      'appointment_included disagrees with the price; the price decides',
    );
  }
  if (isFree) {
    const { appointment: paid } = await markAppointmentPaid(deps, appointment.id, { provider: 'free', amountCents: 0 });
    const query = new URLSearchParams({
      paymentHash: form.payment_hash,
      lang: locale,
      value: '0',
      item_name: paid.itemName,
      is_first_purchase: String(await isFirstPurchase(deps.db, paid)),
    });
    return { location: `/requestconfirmed/?${query.toString()}` };
  }
  if (deps.config.payment.provider === 'builtin' || !deps.stripe) {
    return { location: `/checkout/${encodeURIComponent(form.payment_hash)}?lang=${encodeURIComponent(locale)}` };
  }
  return { location: await stripeCheckoutUrl(deps, deps.stripe, appointment, actor, locale, hold.expiresAt) };
}

/** One Checkout Session per appointment: the key Stripe dedupes its creation by. */
export const checkoutSessionIdempotencyKey = (paymentHash: string) => `checkout-session-${paymentHash}`;

/**
 * The Stripe Checkout page of an appointment: the session made for it earlier while it is open, else a
 * new one (Idempotency-Key checkout-session-<payment hash>, so a retried call gets the same session; the
 * hash is random, so the key never repeats after a database reset or in another deployment on the same
 * Stripe account, as an appointment id would). Its expiry is the hold's when Stripe accepts it (at least
 * 30 minutes ahead), else 31 minutes from now: never Stripe's 24-hour default, so a late payment for a
 * released slot stays unlikely (one that comes anyway is recorded and logged for a refund by
 * markAppointmentPaid).
 */
async function stripeCheckoutUrl(
  deps: PaymentDeps,
  stripe: StripeClient,
  appointment: AppointmentRow,
  actor: Actor,
  locale: Locale,
  holdExpiresAt: Date,
): Promise<string> {
  const paymentHash = appointment.paymentHash!;
  try {
    if (appointment.providerReference) {
      const existing = await stripe.retrieveCheckoutSession(appointment.providerReference);
      if (existing?.status === 'open' && existing.url) return existing.url;
      // Paid on Stripe: the webhook marks it; Request Sent waits for that.
      if (existing?.status === 'complete') return requestSentPath(paymentHash, locale);
      if (existing) throw paymentClosed();
    }
    const now = deps.clock.now();
    const earliest = now.getTime() + STRIPE_EXPIRY_MARGIN_MS;
    const expiresAt = new Date(Math.max(holdExpiresAt.getTime(), earliest));
    const { publicUrl } = deps.config;
    const session = await stripe.createCheckoutSession(
      {
        amountCents: appointment.priceCents,
        itemName: (await itemNameIn(deps.db, appointment.itemName, locale)) || 'VetCall',
        customerEmail: actor.email,
        paymentHash,
        successUrl: `${publicUrl}${requestSentPath(paymentHash, locale)}`,
        cancelUrl: `${publicUrl}${canceledPaymentPath(locale)}`,
        expiresAt,
        locale,
      },
      checkoutSessionIdempotencyKey(paymentHash),
    );
    if (!session.url) throw new StripeUnavailable('the new Checkout Session has no url');
    await deps.db
      .update(appointments)
      .set({ providerReference: session.id })
      .where(and(eq(appointments.id, appointment.id), eq(appointments.status, 'TK_PendingPayment')));
    return session.url;
  } catch (error) {
    if (error instanceof StripeUnavailable || error instanceof StripeRequestRefused) throw providerUnavailable(error);
    throw error;
  }
}

/**
 * GET /api/payment/checkout/{payment_hash}: what the built-in checkout page shows (the owner only), the product
 * named in the page's language (`locale`; by default the one the booking stored it in).
 */
export async function getCheckout(
  deps: PaymentDeps,
  actor: Actor,
  paymentHash: string,
  locale?: Locale,
): Promise<Checkout> {
  const { appointment, vetName, petName } = await findOwnedByPaymentHash(deps.db, actor, paymentHash);
  const [hold] = await deps.db
    .select({ expiresAt: calendarEvents.expiresAt, releasedAt: calendarEvents.releasedAt })
    .from(calendarEvents)
    .where(eq(calendarEvents.appointmentId, appointment.id))
    .limit(1);
  // Once it is no longer waiting for payment, expires_at says when that ended.
  const expiresAt = hold?.expiresAt ?? appointment.paidAt ?? appointment.statusDate;
  return {
    payment_hash: paymentHash,
    amount_cents: appointment.priceCents,
    currency: 'EUR',
    item_name: locale ? await itemNameIn(deps.db, appointment.itemName, locale) : appointment.itemName,
    schedule: appointment.schedule.toISOString(),
    vet_name: vetName,
    pet_name: petName,
    status: appointment.status,
    expires_at: expiresAt.toISOString(),
  };
}

/**
 * POST /api/payment/checkout/{payment_hash}/pay: the built-in checkout's test card form. 4242 4242 4242
 * 4242 pays; every other number is declined (402 card_declined; the appointment stays payable).
 * Attempts are rate-limited per appointment. Paying an appointment already paid answers the same redirect.
 */
export async function payCheckout(
  deps: PaymentDeps,
  actor: Actor,
  paymentHash: string,
  card: { card_number: string },
  locale: Locale,
): Promise<{ redirect_url: string }> {
  const { appointment } = await findOwnedByPaymentHash(deps.db, actor, paymentHash);
  assertAllowed(await deps.limiter.hit(`checkout-pay:appointment:${appointment.id}`, CHECKOUT_PAY_RATE_LIMIT));
  const redirect = { redirect_url: requestSentPath(paymentHash, locale) };
  if (isPaidStatus(appointment.status)) return redirect;
  if (appointment.status !== 'TK_PendingPayment') throw paymentClosed();
  if (!(await findLiveHold(deps.db, appointment.id, deps.clock.now()))) return closeLapsed(deps, appointment.id);
  if (card.card_number !== TEST_CARD_SUCCEEDS) throw cardDeclined();
  await markAppointmentPaid(deps, appointment.id, { provider: 'builtin', amountCents: appointment.priceCents });
  return redirect;
}

/**
 * Where a canceled payment returns: the customer's data screen, which says the time was released. Not
 * /customer: a page load there is a direct entry, which docs/product-rules.md#navigation-guard answers by logging out;
 * from CustomerData the customer goes on to book again.
 */
export const canceledPaymentPath = (locale: string) =>
  `/customerdata?lang=${encodeURIComponent(locale)}&access=customer&payment_canceled=1`;

/**
 * POST /api/payment/checkout/{payment_hash}/cancel: the customer leaves the built-in checkout; the
 * appointment is canceled and its slot given back. Again on an ended one: the same answer. A paid one
 * cannot be canceled here (409 payment_closed).
 */
export async function cancelCheckout(
  deps: PaymentDeps,
  actor: Actor,
  paymentHash: string,
  locale: Locale,
): Promise<{ redirect_url: string }> {
  const { appointment } = await findOwnedByPaymentHash(deps.db, actor, paymentHash);
  const done = { redirect_url: canceledPaymentPath(locale) };
  if (appointment.status === 'TK_Canceled' || appointment.status === 'TK_PaymentFailed') return done;
  if (await endUnpaidAppointment(deps, appointment.id, 'TK_Canceled')) return done;
  // Not waiting for payment (any more): paid meanwhile, or ended by someone else.
  const { appointment: current } = await findOwnedByPaymentHash(deps.db, actor, paymentHash);
  if (isPaidStatus(current.status)) throw paymentClosed();
  return done;
}

/**
 * GET /api/appointments/paymenthash/{payment_hash} (docs/product-rules.md#request-sent): the owner's payment, for
 * Request Sent.
 */
export async function lookupPayment(deps: PaymentDeps, actor: Actor, paymentHash: string): Promise<PaymentLookup> {
  const { appointment, vetName, petName } = await findOwnedByPaymentHash(deps.db, actor, paymentHash);
  return {
    payment_hash: paymentHash,
    status: appointment.status,
    paid: isPaidStatus(appointment.status),
    value: appointment.priceCents,
    item_name: appointment.itemName,
    is_first_purchase: await isFirstPurchase(deps.db, appointment),
    schedule: appointment.schedule.toISOString(),
    vet_name: vetName,
    pet_name: petName,
  };
}

/**
 * PUT /api/appointments/confirmpayment/{payment_hash}/{language} (docs/product-rules.md#request-sent): truthy once
 * paid, as often as asked; 409 payment_not_completed before. It also sends the request emails if they have not gone out
 * yet (a mail server that was down when the payment came).
 */
export async function confirmPayment(deps: PaymentDeps, actor: Actor, paymentHash: string): Promise<{ success: true }> {
  const { appointment } = await findOwnedByPaymentHash(deps.db, actor, paymentHash);
  if (!isPaidStatus(appointment.status)) throw new AppError('payment_not_completed', 409);
  if (!appointment.requestNotifiedAt) await notifyRequestReceived(deps, appointment.id);
  return { success: true };
}
