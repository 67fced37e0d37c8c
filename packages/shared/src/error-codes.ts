/**
 * Stable error codes sent as `{ error: code }` in 4xx bodies. The web app shows `t('errors.<code>')`,
 * so every code here has a catalog entry (a test checks it). The error_* keys of docs/product-rules.md#errors are kept
 * as named.
 */
export const ERROR_CODES = [
  // generic HTTP
  'validation_failed',
  'invalid_json',
  'payload_too_large',
  'unsupported_media_type',
  'not_found',
  'method_not_allowed',
  'unauthorized',
  'forbidden',
  'too_many_requests',
  'internal_error',
  'service_unavailable',
  // auth (docs/product-rules.md#errors and the foundation issue)
  'invalid_login_attempt',
  'invalid_or_expired_token',
  'account_inactive',
  // customers and pets
  'email_in_use',
  'invalid_postal_code',
  // products and access codes
  'access_code_exists',
  // staff administration
  'cannot_remove_self',
  'last_manager',
  'customers_are_view_only',
  // scheduling (holds on slots)
  'slot_taken',
  'too_many_holds',
  // calendar linking (docs/product-rules.md#calendar-callback, #api)
  'calendar_token_invalid',
  'calendar_unreachable',
  'calendar_auth_failed',
  'calendar_provider_unavailable',
  'builtin_calendar_disabled',
  // the appointment's life after booking
  'invalid_transition',
  'cancellation_closed',
  'reschedule_closed',
  'completion_too_early',
  'already_confirmed',
  // booking, payment and confirmation
  'hold_not_found',
  'hold_expired',
  'invalid_access_code',
  'files_too_large',
  'file_type_not_allowed',
  'no_product',
  'payment_not_completed',
  'payment_closed',
  'card_declined',
  'payment_provider_unavailable',
  'webhook_signature_invalid',
  'appointment_not_confirmable',
  'cant_activate_appointment',
  // video consultations (docs/product-rules.md#pin-screen, #limits; docs/video-signalling.md)
  'pin_not_found',
  'room_not_open',
  'room_closed',
  'room_full',
  'connection_replaced',
  'join_timeout',
  // docs/product-rules.md#errors thrown keys
  'invalid_payment_hash',
  'error_updating_appointment',
  'error_notifying_file_added',
  'error_creating_new_file',
  'error_deleting_file',
  'error_creating_new_user',
  'error_removing_user',
  'error_changing_user_name',
  'error_changing_user_email',
  'error_changing_vet_specialty',
  'error_changing_vet_phone',
  'error_changing_customer_phone',
  'error_changing_user_image',
  'error_checking_email',
  'error_updating_manager',
  'error_creating_new_customer',
  'error_creating_new_pet',
  'error_updating_customer',
  'error_updating_pet',
  'error_deleting_pet',
  'error_updating_vet',
  'error_updating_token',
  'error_removing_token',
  'error_updating_availability_profile',
  'error_creating_new_product',
  'error_removing_product',
  'error_changing_product_price',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** Per-field validation codes carried in `fields` of a 400 answer; the form shows `t('validation.<code>')`. */
export const FIELD_ERROR_CODES = [
  'required',
  'invalid_email',
  'too_short',
  'too_long',
  'too_small',
  'too_big',
  'invalid_format',
  'invalid_value',
  'passwords_mismatch',
  'weak_password',
  'taken',
  // working intervals (docs/product-rules.md#validation)
  'end_before_start',
  'overlap',
] as const;

export type FieldErrorCode = (typeof FIELD_ERROR_CODES)[number];

/** The body of every 4xx/5xx answer of the API. */
export interface ApiErrorBody {
  error: ErrorCode;
  message: string;
  fields?: Record<string, FieldErrorCode>;
}
