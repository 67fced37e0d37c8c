import { eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { appointments, paymentEvents } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { constructStripeEvent, type StripeClient } from '../../providers/payments/stripe.ts';
import { endUnpaidAppointment, markAppointmentPaid } from '../appointments/mark-paid.ts';
import { markRefunded } from '../appointments/refunds.ts';
import type { NotifyDeps } from '../appointments/request-emails.ts';

/** `stripe` finds the Checkout Session of a refunded payment (a refund event names only the payment). */
export type WebhookDeps = NotifyDeps & { webhookSecret: string; stripe: StripeClient };

const stripeEventSchema = z.object({
  id: z.string().min(1).max(255),
  type: z.string().min(1).max(255),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});
type StripeEvent = z.infer<typeof stripeEventSchema>;

/** The fields of the Checkout Session in an event that we read. */
const checkoutSessionSchema = z.object({
  id: z.string().min(1),
  payment_status: z.string().nullish(),
  amount_total: z.number().int().nullish(),
  currency: z.string().nullish(),
  client_reference_id: z.string().nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
});
type EventSession = z.infer<typeof checkoutSessionSchema>;

/** The fields of the Charge in a charge.refunded event that we read. */
const chargeSchema = z.object({
  id: z.string().min(1),
  // A string in events (not expanded); null for a charge made without a PaymentIntent, never ours.
  payment_intent: z.string().min(1).nullish(),
  refunded: z.boolean(),
  amount: z.number().int(),
  amount_refunded: z.number().int(),
  currency: z.string().nullish(),
});
type EventCharge = z.infer<typeof chargeSchema>;

const signatureInvalid = () => new AppError('webhook_signature_invalid', 400);

/**
 * POST /api/payment/webhook/stripe. The signature is checked on the raw body by the Stripe SDK (stripe.ts),
 * then the event is handled once: its id goes into payment_events first (a replay or a retry of a handled
 * event finds it there and changes nothing). When handling fails unexpectedly the id is taken out again and
 * the error answers 500, so Stripe delivers the event again.
 *
 * - checkout.session.completed (payment_status 'paid') and checkout.session.async_payment_succeeded: the
 *   appointment with that payment hash is marked paid, if Stripe took its price in EUR;
 * - checkout.session.expired and checkout.session.async_payment_failed: an appointment still waiting for
 *   this session's payment ends as TK_PaymentFailed and its slot is given back. Arriving after the payment
 *   (out of order) it changes nothing: the state machine has no way back from paid.
 * - charge.refunded, fully refunded: the refund is recorded on the appointment whose Checkout Session took
 *   the payment (found through Stripe, which the event does not name; refunds.ts): a pending one, or one
 *   VetCall never asked for (made in the dashboard), with a warning. Recorded once, whichever of the
 *   refund job and the event comes first, so a job whose answer from Stripe was lost is covered. A partial
 *   refund records nothing: the appointment was still paid for.
 * - anything else: acknowledged and ignored.
 */
export async function handleStripeWebhook(
  deps: WebhookDeps,
  rawBody: Buffer | undefined,
  signatureHeader: string | undefined,
): Promise<{ received: true }> {
  const now = deps.clock.now();
  if (!rawBody) throw signatureInvalid();
  let verified: ReturnType<typeof constructStripeEvent>;
  try {
    verified = constructStripeEvent(rawBody, signatureHeader, deps.webhookSecret, now);
  } catch (error) {
    if (error instanceof SyntaxError) throw new AppError('invalid_json', 400);
    throw error;
  }
  if (!verified.verified) throw signatureInvalid();
  const event = stripeEventSchema.safeParse(verified.event);
  if (!event.success) throw new AppError('validation_failed', 400, { message: 'Not a Stripe event.' });

  const [fresh] = await deps.db
    .insert(paymentEvents)
    .values({ id: event.data.id, provider: 'stripe', type: event.data.type, receivedAt: now })
    .onConflictDoNothing()
    .returning({ id: paymentEvents.id });
  if (!fresh) {
    deps.log.info({ eventId: event.data.id, type: event.data.type }, 'stripe event already handled');
    return { received: true };
  }
  try {
    await applyEvent(deps, event.data);
  } catch (error) {
    await deps.db.delete(paymentEvents).where(eq(paymentEvents.id, event.data.id));
    throw error;
  }
  return { received: true };
}

function objectOf<T>(event: StripeEvent, schema: z.ZodType<T>, name: string): T {
  const object = schema.safeParse(event.data.object);
  if (!object.success) {
    throw new AppError('validation_failed', 400, { message: `The event carries no ${name}.`, cause: object.error });
  }
  return object.data;
}

const sessionOf = (event: StripeEvent): EventSession => objectOf(event, checkoutSessionSchema, 'Checkout Session');

async function applyEvent(deps: WebhookDeps, event: StripeEvent): Promise<void> {
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = sessionOf(event);
      // Delayed payment methods complete the session unpaid; async_payment_succeeded follows.
      if (session.payment_status !== 'paid') return;
      return paySession(deps, event, session);
    }
    case 'checkout.session.async_payment_succeeded':
      return paySession(deps, event, sessionOf(event));
    case 'checkout.session.expired':
    case 'checkout.session.async_payment_failed':
      return failSession(deps, event, sessionOf(event));
    case 'charge.refunded':
      return refundCharge(deps, event, objectOf(event, chargeSchema, 'Charge'));
    default:
      deps.log.info({ eventId: event.id, type: event.type }, 'stripe event ignored');
  }
}

async function appointmentOfSession(deps: WebhookDeps, event: StripeEvent, session: EventSession) {
  const paymentHash = session.client_reference_id ?? session.metadata?.payment_hash;
  const [appointment] = paymentHash
    ? await deps.db.select().from(appointments).where(eq(appointments.paymentHash, paymentHash)).limit(1)
    : [];
  if (!appointment) {
    deps.log.warn({ eventId: event.id, sessionId: session.id }, 'stripe event for no known appointment');
  }
  return appointment ?? null;
}

async function paySession(deps: WebhookDeps, event: StripeEvent, session: EventSession): Promise<void> {
  const appointment = await appointmentOfSession(deps, event, session);
  if (!appointment) return;
  if (session.currency !== 'eur' || session.amount_total !== appointment.priceCents) {
    deps.log.error(
      {
        eventId: event.id,
        sessionId: session.id,
        appointmentId: appointment.id,
        amountTotal: session.amount_total,
        currency: session.currency,
        priceCents: appointment.priceCents,
      },
      'REFUND NEEDED: Stripe took an amount that is not the appointment’s price; not marked paid',
    );
    return;
  }
  try {
    await markAppointmentPaid(deps, appointment.id, {
      provider: 'stripe',
      reference: session.id,
      amountCents: session.amount_total,
    });
  } catch (error) {
    // Recorded on the appointment and logged for a refund by markAppointmentPaid; Stripe needs no retry.
    if (error instanceof AppError && error.code === 'payment_closed') return;
    throw error;
  }
}

async function failSession(deps: WebhookDeps, event: StripeEvent, session: EventSession): Promise<void> {
  const appointment = await appointmentOfSession(deps, event, session);
  if (!appointment) return;
  // A session the appointment no longer waits for (it has another) says nothing about it.
  if (appointment.providerReference && appointment.providerReference !== session.id) return;
  const ended = await endUnpaidAppointment(deps, appointment.id, 'TK_PaymentFailed');
  if (!ended) {
    deps.log.info(
      { eventId: event.id, appointmentId: appointment.id, status: appointment.status },
      'stripe session ended for an appointment no longer waiting for payment; nothing changed',
    );
  }
}

/** The appointment paid through the Checkout Session that took this payment (its provider_reference). */
async function appointmentOfPayment(deps: WebhookDeps, paymentIntentId: string) {
  const sessions = await deps.stripe.listCheckoutSessionsOfPayment(paymentIntentId);
  if (sessions.length === 0) return null;
  const sessionIds = sessions.map((session) => session.id);
  const [appointment] = await deps.db
    .select()
    .from(appointments)
    .where(inArray(appointments.providerReference, sessionIds))
    .limit(1);
  return appointment ?? null;
}

async function refundCharge(deps: WebhookDeps, event: StripeEvent, charge: EventCharge): Promise<void> {
  const context = {
    eventId: event.id,
    chargeId: charge.id,
    paymentIntent: charge.payment_intent,
    amount: charge.amount,
    amountRefunded: charge.amount_refunded,
    currency: charge.currency,
  };
  if (!charge.refunded) {
    // VetCall refunds whole payments only: a part given back (in the dashboard) leaves the appointment paid.
    deps.log.info(context, 'stripe charge partly refunded; nothing recorded');
    return;
  }
  const appointment = charge.payment_intent ? await appointmentOfPayment(deps, charge.payment_intent) : null;
  if (!appointment) {
    deps.log.warn(context, 'stripe refund of a payment of no known appointment');
    return;
  }
  const recorded = await markRefunded(deps.db, appointment.id, deps.clock.now(), { unrequested: true });
  const about = { ...context, appointmentId: appointment.id, status: appointment.status };
  if (recorded === 'unrequested') {
    // Money went back without a cancellation asking for it: someone must see whether the appointment stands.
    deps.log.warn(about, 'stripe payment refunded outside VetCall; refund recorded, appointment status unchanged');
  } else if (recorded === 'pending') {
    deps.log.info(about, 'stripe refund recorded from its event');
  } else {
    deps.log.info(about, 'stripe refund already recorded; nothing changed');
  }
}
