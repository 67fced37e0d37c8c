import { z } from 'zod';
import { APPOINTMENT_STATUSES } from '../appointment-status.ts';
import { DESCRIPTION_MAX } from './booking.ts';
import { localeField, requiredText } from './fields.ts';
import { CANCEL_REASON_MAX } from '../constants.ts';

/**
 * Appointment detail, edit, files and lists (docs/product-rules.md#vet-screens–#pet-records, #entities Appointment and
 * Appointment file, #api). Every answer is shaped per role: customers never get vet_observations nor the vet's PIN;
 * vets never the customer's PIN; managers read observations and get no PIN.
 */

/** cancellationTerms (appointment-rules.ts) for the reader, now: refused and why, or allowed and refunded or not. */
export const cancellationTermsSchema = z.discriminatedUnion('allowed', [
  z.object({ allowed: z.literal(false), reason: z.enum(['invalid_transition', 'cancellation_closed']) }),
  z.object({ allowed: z.literal(true), refund: z.boolean() }),
]);
/** rescheduleTerms (appointment-rules.ts) for the reader, now. */
export const rescheduleTermsSchema = z.discriminatedUnion('allowed', [
  z.object({ allowed: z.literal(false), reason: z.enum(['invalid_transition', 'reschedule_closed']) }),
  z.object({ allowed: z.literal(true) }),
]);
/** completionTerms (appointment-rules.ts) for the reader, now. */
export const completionTermsSchema = z.discriminatedUnion('allowed', [
  z.object({
    allowed: z.literal(false),
    reason: z.enum(['forbidden', 'invalid_transition', 'completion_too_early']),
  }),
  z.object({ allowed: z.literal(true) }),
]);

/**
 * The appointment's life after booking (ours, beyond docs/product-rules.md#api, added to its answer): who
 * cancelled, when and why, the refund, completion, and what the reader may do with it now, so screens offer
 * only what the server would accept.
 */
export const appointmentLifecycleSchema = z.strictObject({
  canceled_at: z.string().nullable(),
  /** The name of who cancelled; null when VetCall did (a request the vet never confirmed). */
  canceled_by_name: z.string().nullable(),
  cancel_reason: z.string().nullable(),
  /** none: nothing to give back; pending: asked of the payment provider; refunded: given back. */
  refund_status: z.enum(['none', 'pending', 'refunded']).nullable(),
  refunded_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  /** The vet's record id and the availability profile the time was taken from: where a new time is picked. */
  vet_id: z.number().int().nullable(),
  profile_id: z.number().int().nullable(),
  can: z.strictObject({
    cancel: cancellationTermsSchema,
    reschedule: rescheduleTermsSchema,
    complete: completionTermsSchema,
  }),
});
export type AppointmentLifecycle = z.infer<typeof appointmentLifecycleSchema>;

/** What every role may see of an appointment it may open. */
const appointmentCommon = {
  appointment_id: z.number().int(),
  id: z.number().int(),
  hash: z.string(),
  schedule: z.string(),
  duration_minutes: z.number().int(),
  customer_user_id: z.number().int(),
  customer_name: z.string(),
  customerEmail: z.string(),
  pet_id: z.number().int(),
  pet_name: z.string(),
  /** Only when insurance is in use (docs/product-rules.md#appointment-records); otherwise null. */
  pet_policy: z.string().nullable(),
  vet_user_id: z.number().int(),
  vet_name: z.string(),
  vetEmail: z.string(),
  description: z.string(),
  appointment_status_key: z.enum(APPOINTMENT_STATUSES),
  /** The status in the language asked (Accept-Language or ?lang), for lists that show it as text. */
  appointment_status: z.string(),
  status_date: z.string(),
  calendar_event_id: z.string().nullable(),
  timezone_diff: z.number().int(),
  /** Integer cents, EUR. */
  price: z.number().int(),
  lifecycle: appointmentLifecycleSchema,
};

export const customerAppointmentSchema = z.strictObject({
  ...appointmentCommon,
  viewer: z.literal('customer'),
  /** The customer's own PIN, once confirmed. */
  customer_pin: z.string().nullable(),
});
export const vetAppointmentSchema = z.strictObject({
  ...appointmentCommon,
  viewer: z.literal('vet'),
  vet_observations: z.string(),
  /** The vet's own PIN, once confirmed. */
  vet_pin: z.string().nullable(),
});
export const managerAppointmentSchema = z.strictObject({
  ...appointmentCommon,
  viewer: z.literal('manager'),
  vet_observations: z.string(),
});
/** GET /api/appointments/byid/{id}: discriminated by `viewer`, so no role's shape can pass for another's. */
export const appointmentSchema = z.discriminatedUnion('viewer', [
  customerAppointmentSchema,
  vetAppointmentSchema,
  managerAppointmentSchema,
]);
export type AppointmentDto = z.infer<typeof appointmentSchema>;

/** PUT /api/appointments/{appointment_id}: a customer sends description, a vet vet_observations. */
export const appointmentUpdateSchema = z
  .object({
    description: requiredText({ max: DESCRIPTION_MAX }).optional(),
    vet_observations: z.string().max(20_000, { error: 'too_long' }).optional(),
  })
  .refine((value) => value.description !== undefined || value.vet_observations !== undefined, {
    error: 'required',
    path: ['description'],
  });
export type AppointmentUpdate = z.input<typeof appointmentUpdateSchema>;
export const appointmentUpdatedSchema = z.object({ user_id: z.number().int() });

/** File description (docs/product-rules.md#validation): required, 2 to 80 characters. */
export const fileDescriptionField = requiredText({ min: 2, max: 80 });

/** POST /api/appointments/file/{appointment_id}, the `file_data` part (JSON). */
export const fileDataSchema = z.object({
  appointment_id: z.number({ error: 'required' }).int().positive(),
  file_description: fileDescriptionField,
});
export type FileData = z.input<typeof fileDataSchema>;

/** docs/product-rules.md#entities Appointment file. */
export const appointmentFileSchema = z.object({
  file_id: z.number().int(),
  appointment_id: z.number().int(),
  file_name: z.string(),
  file_description: z.string(),
  /** Sniffed from the bytes. */
  file_type: z.string(),
  /** Bytes. */
  file_size: z.number().int(),
  upload_time: z.string(),
  /** Who added it: the customer, the vet or a manager. */
  uploaded_by: z.enum(['customer', 'vet', 'manager']).nullable(),
  /** /api/appointments/download-file.php?file_id={file_id}: fetched with the bearer header. */
  download_url: z.string(),
});
export type AppointmentFile = z.infer<typeof appointmentFileSchema>;

/** PUT /api/appointments/newfileadded/{appointment_id}/{bywhom}/{language}. */
export const fileAddedByParam = z.enum(['customer', 'vet', 'manager'], { error: 'invalid_value' });

// ---------------------------------------------------------------------------------------------------------
// Lists
// ---------------------------------------------------------------------------------------------------------

/** Appointment date filters (docs/product-rules.md#validation): from 1950-01-01 to one month from today. */
export const APPOINTMENT_FILTER_FLOOR = '1950-01-01';
/** docs/product-rules.md#limits: the default filter window is 15 days either side of today. */
export const DEFAULT_FILTER_DAYS = 15;
/** Rows per page of the appointment lists (and of the histories in the pet and vet records). */
export const APPOINTMENT_PAGE_SIZE = 200;

/**
 * GET /api/appointments/mngrecord/{param}: the manager's list. `param` is the filter,
 * `<from>_<to>_<vet>`: dates YYYY-MM-DD (inclusive, in `tz` of the query, default UTC) and a vet user id or
 * `all`; for example `2026-11-06_2026-12-06_all`. Query: `cursor` (from the previous page), `tz`, `lang`.
 */
export const MNGRECORD_PARAM_PATTERN = /^(\d{4}-\d{2}-\d{2})_(\d{4}-\d{2}-\d{2})_(all|\d{1,9})$/;

/** One row of the manager's and the vet's appointment lists. */
export const appointmentListItemSchema = z.object({
  appointment_id: z.number().int(),
  schedule: z.string(),
  customer_user_id: z.number().int(),
  customer_name: z.string(),
  pet_id: z.number().int(),
  pet_name: z.string(),
  vet_user_id: z.number().int(),
  vet_name: z.string(),
  appointment_status_key: z.enum(APPOINTMENT_STATUSES),
  appointment_status: z.string(),
  status_date: z.string(),
  price: z.number().int(),
});
export type AppointmentListItem = z.infer<typeof appointmentListItemSchema>;
export const appointmentPageSchema = z.object({
  items: z.array(appointmentListItemSchema),
  /** Pass as `cursor` for the next page; null at the end. */
  next_cursor: z.string().nullable(),
});
export type AppointmentPage = z.infer<typeof appointmentPageSchema>;

/** Which of a customer's appointments: still ahead (or in their open room), or behind. */
export const MY_APPOINTMENTS_WHEN = ['upcoming', 'past'] as const;
export type MyAppointmentsWhen = (typeof MY_APPOINTMENTS_WHEN)[number];

/** GET /api/appointments/mine: the query. `cursor` is the previous page's next_cursor. */
export const myAppointmentsQuerySchema = z.object({
  when: z.enum(MY_APPOINTMENTS_WHEN, { error: 'invalid_value' }),
  cursor: z.string().max(200, { error: 'too_long' }).optional(),
  /** Language of appointment_status; default: the customer's own. */
  lang: localeField.optional(),
});
export type MyAppointmentsQuery = z.input<typeof myAppointmentsQuerySchema>;

/** One row of the customer's own list: no customer fields (it is theirs), what cancelling would do now. */
export const myAppointmentItemSchema = appointmentListItemSchema
  .omit({ customer_user_id: true, customer_name: true, status_date: true })
  .extend({ cancel: cancellationTermsSchema, reschedule: rescheduleTermsSchema });
export type MyAppointmentItem = z.infer<typeof myAppointmentItemSchema>;
export const myAppointmentPageSchema = z.object({
  items: z.array(myAppointmentItemSchema),
  /** Pass as `cursor` for the next page; null at the end. */
  next_cursor: z.string().nullable(),
});
export type MyAppointmentPage = z.infer<typeof myAppointmentPageSchema>;

/** docs/product-rules.md#vet-screens vet customers mode: the customers who have appointments with this vet. */
export const vetCustomerSchema = z.object({
  user_id: z.number().int(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  address: z.string(),
  tax_id: z.string(),
});
export type VetCustomer = z.infer<typeof vetCustomerSchema>;

/** POST /api/appointments/{appointment_id}/cancel: an optional reason, told to the other party. */
export const cancelAppointmentSchema = z.object({
  reason: z.string({ error: 'invalid_type' }).trim().max(CANCEL_REASON_MAX, { error: 'too_long' }).optional(),
});
export type CancelAppointmentInput = z.input<typeof cancelAppointmentSchema>;

/**
 * POST /api/appointments/{appointment_id}/reschedule: the hold on the new time (POST /api/scheduling/holds,
 * made by the one moving it, on the same vet and as long as the appointment).
 */
export const rescheduleAppointmentSchema = z.object({
  event_id: z.string({ error: 'required' }).trim().min(1, { error: 'required' }).max(200, { error: 'too_long' }),
});
export type RescheduleAppointmentInput = z.input<typeof rescheduleAppointmentSchema>;
