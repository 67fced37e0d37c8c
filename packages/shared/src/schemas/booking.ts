import { z } from 'zod';
import { APPOINTMENT_STATUSES } from '../appointment-status.ts';
import { LOCALES } from '../locales.ts';
import { ACCESS_CODE_MAX } from './access-code.ts';
import { emailField, idParam, requiredText } from './fields.ts';
import { eventIdParam } from './scheduling.ts';

/**
 * Booking, payment and confirmation contracts (docs/product-rules.md#states Booking flow, #api Appointments and
 * Payment). One schema per contract, shared by the route and the form.
 */

/** Chief complaint (docs/product-rules.md#validation): required, trimmed. */
export const DESCRIPTION_MAX = 4000;
/** Fourteen hours either side of UTC, in seconds: every real zone's offset. */
const MAX_TIMEZONE_DIFF = 14 * 3600;
/**
 * Minutes a booking waits for its payment before its slot goes back (no slot stays blocked by an abandoned payment).
 */
export const PAYMENT_WINDOW_MINUTES = 30;

const positiveId = z.number({ error: 'required' }).int().positive().max(2_147_483_647);
const timezoneDiffField = z
  .number({ error: 'required' })
  .int()
  .min(-MAX_TIMEZONE_DIFF, { error: 'invalid_value' })
  .max(MAX_TIMEZONE_DIFF, { error: 'invalid_value' });

/**
 * POST /api/appointments, the `appointment_data` part (JSON) of the multipart body. customer_user_id must
 * be the session's customer; schedule must be the hold's start; vet_observations must be empty (a
 * customer writes none). access_code is ours: the code typed on the booking screen, if any.
 */
export const appointmentDataSchema = z.object({
  customer_user_id: positiveId,
  pet_id: positiveId,
  vet_user_id: positiveId,
  description: requiredText({ max: DESCRIPTION_MAX }),
  schedule: z.iso.datetime({ offset: true, error: 'invalid_format' }),
  calendar_event_id: eventIdParam,
  /** The customer's UTC offset in seconds (local = UTC + timezone_diff). */
  timezone_diff: timezoneDiffField,
  vet_observations: z.literal('', { error: 'invalid_value' }).optional(),
  access_code: z.string().trim().max(ACCESS_CODE_MAX, { error: 'too_long' }).optional(),
});
export type AppointmentData = z.input<typeof appointmentDataSchema>;

export const appointmentCreatedSchema = z.object({
  appointment_hash: z.string(),
  payment_hash: z.string(),
  /** What the customer pays, in integer cents (EUR). */
  price_cents: z.number().int(),
  item_name: z.string(),
  /** An included access code made it free: the payment provider is skipped. */
  included: z.boolean(),
});
export type AppointmentCreated = z.infer<typeof appointmentCreatedSchema>;

/** GET /api/appointments/quote: the price shown before paying (the server computes it again on booking). */
export const quoteQuerySchema = z.object({
  vet_user_id: z.coerce.number({ error: 'required' }).int().positive().max(2_147_483_647),
  access_code: z.string().trim().max(ACCESS_CODE_MAX, { error: 'too_long' }).optional(),
});
export const quoteSchema = z.object({
  price_cents: z.number().int(),
  /** Before the vet's discount. */
  list_price_cents: z.number().int(),
  discount_percent: z.number().int(),
  item_name: z.string(),
  included: z.boolean(),
  currency: z.literal('EUR'),
});
export type Quote = z.infer<typeof quoteSchema>;

/** POST /api/payment/{locale}: the browser's form post (urlencoded) of docs/product-rules.md#api. */
export const paymentFormSchema = z.object({
  payment_hash: z.string().trim().min(1, { error: 'required' }).max(128, { error: 'too_long' }),
  payment_email: emailField,
  customer_user_id: z.coerce.number({ error: 'required' }).int().positive().max(2_147_483_647),
  /** The session token: a form post cannot carry an Authorization header. Never logged. */
  auth_token: z.string().min(1, { error: 'required' }).max(200, { error: 'too_long' }),
  ga_client_id: z.string().max(100, { error: 'too_long' }).optional().default(''),
  appointment_included: z.enum(['0', '1'], { error: 'invalid_value' }),
});
export const paymentLocaleParam = z.enum(LOCALES, { error: 'invalid_value' });

/** GET /api/appointments/paymenthash/{payment_hash} (the owning customer): what Request Sent needs. */
export const paymentLookupSchema = z.object({
  payment_hash: z.string(),
  status: z.enum(APPOINTMENT_STATUSES),
  paid: z.boolean(),
  /** Cents, as Request Confirmed's `value` query. */
  value: z.number().int(),
  item_name: z.string(),
  /** The customer's first paid appointment. */
  is_first_purchase: z.boolean(),
  schedule: z.string(),
  vet_name: z.string(),
  pet_name: z.string(),
});
export type PaymentLookup = z.infer<typeof paymentLookupSchema>;

/** PUT /api/appointments/confirmpayment/{payment_hash}/{language}: truthy on success. */
export const confirmPaymentSchema = z.object({ success: z.literal(true) });

/** The built-in checkout (PAYMENT_PROVIDER=builtin): what the hosted page shows. */
export const checkoutSchema = z.object({
  payment_hash: z.string(),
  amount_cents: z.number().int(),
  currency: z.literal('EUR'),
  item_name: z.string(),
  schedule: z.string(),
  vet_name: z.string(),
  pet_name: z.string(),
  status: z.enum(APPOINTMENT_STATUSES),
  /** When the slot goes back if nothing is paid. */
  expires_at: z.string(),
});
export type Checkout = z.infer<typeof checkoutSchema>;

/** The built-in checkout's test card form. */
export const checkoutPaySchema = z.object({
  card_number: z
    .string({ error: 'required' })
    .transform((value) => value.replace(/[\s-]/g, ''))
    .pipe(z.string().regex(/^\d{12,19}$/, { error: 'invalid_format' })),
  expiry: z
    .string({ error: 'required' })
    .trim()
    .regex(/^(0[1-9]|1[0-2])\/\d{2}$/, { error: 'invalid_format' }),
  cvc: z
    .string({ error: 'required' })
    .trim()
    .regex(/^\d{3,4}$/, { error: 'invalid_format' }),
  name: requiredText({ max: 120 }),
});
export type CheckoutPay = z.input<typeof checkoutPaySchema>;
/** Where the browser goes next. */
export const checkoutResultSchema = z.object({ redirect_url: z.string() });

/** GET /api/appointments/info/{hash}: what the confirmation page shows; nothing private. */
export const appointmentInfoSchema = z.object({
  hash: z.string(),
  schedule: z.string(),
  duration_minutes: z.number().int(),
  status: z.enum(APPOINTMENT_STATUSES),
  vet_name: z.string(),
  pet_name: z.string(),
  /** The vet's profile zone, to prefill the picker in it. */
  vet_timezone: z.string(),
});
export type AppointmentInfo = z.infer<typeof appointmentInfoSchema>;

/** 'Y-m-d H:i' of docs/product-rules.md#confirmation-page (24-hour). */
export const CONFIRM_SCHEDULE_PATTERN = /^\d{4}-\d{2}-\d{2} ([01]\d|2[0-3]):[0-5]\d$/;

/**
 * POST /api/appointments/confirm/{hash}: the vet's email and the date-time as the vet's browser shows it,
 * with that browser's offset (instant = schedule − timezone_diff).
 */
export const confirmAppointmentSchema = z.object({
  hash: z.string().trim().min(1, { error: 'required' }).max(128, { error: 'too_long' }),
  email: z
    .string({ error: 'required' })
    .trim()
    .toLowerCase()
    .min(1, { error: 'required' })
    .min(6, { error: 'too_short' })
    .max(254, { error: 'too_long' }),
  schedule: z
    .string({ error: 'required' })
    .trim()
    .min(1, { error: 'required' })
    .regex(CONFIRM_SCHEDULE_PATTERN, { error: 'invalid_format' }),
  timezone_diff: timezoneDiffField,
});
export type ConfirmAppointmentInput = z.input<typeof confirmAppointmentSchema>;
export const confirmAppointmentResultSchema = z.object({ appointment_pin: z.string() });

export const hashParam = z.string().regex(/^[A-Za-z0-9_-]{16,128}$/, { error: 'invalid_format' });
export { idParam };
