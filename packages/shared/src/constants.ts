/** Business constants of docs/product-rules.md#limits, named once and used by the server and the web app. */

export const MAX_CUSTOMER_UPLOAD_BYTES = 20_971_520;
export const MAX_STAFF_UPLOAD_BYTES = 41_943_040;

export const SCHEDULING_WINDOW_MONTHS = 1;
export const DATE_FLOOR = '1950-01-01';

export const ERROR_TOAST_MS = 5000;
export const PROCESSED_CALENDAR_EVENT_TTL_MS = 600_000;
export const PAYMENT_LOADING_DELAY_MS = 2000;
export const PIN_CONNECTING_DELAY_MS = 2000;
export const JOIN_LINK_VALID_AFTER_START_MS = 60 * 60 * 1000;

export const MIN_PASSWORD_LENGTH = 6;
export const MIN_PHONE_LENGTH = 6;
export const MIN_SPECIALTY_LENGTH = 6;
export const MIN_CONFIRMATION_EMAIL_LENGTH = 6;
export const MIN_NAME_LENGTH = 2;

export const PET_WEIGHT_MIN = 0;
export const PET_WEIGHT_MAX = 999;
export const PET_WEIGHT_STEP = 0.1;
export const PRICE_STEP = 0.01;
export const FILE_DESCRIPTION_MIN = 2;
export const FILE_DESCRIPTION_MAX = 80;
export const POLICY_MIN = 8;
export const POLICY_MAX = 19;
export const DISCOUNT_MIN = 0;
export const DISCOUNT_MAX = 100;
export const DISCOUNT_STEP = 5;

export const DEFAULT_APPOINTMENT_FILTER_DAYS = 15;
export const DEFAULT_INTERVAL = { start: '09:00', end: '17:00' } as const;
export const AVAILABILITY_WEEKS = 10;
export const DEFAULT_AVAILABILITY_HORIZON = 'P10W';
export const DEFAULT_TIMEZONE = 'GMT';
export const DEFAULT_VET_DESCRIPTION = 'Vet appointments';
export const DEFAULT_DISCOUNT = 0;

export const CURRENCY = 'EUR';

/** Largest accepted password: argon2 hashes any length, but unbounded input is a denial-of-service vector. */
export const MAX_PASSWORD_LENGTH = 128;
/** RFC 5321 caps a forward path at 256 octets including brackets; 254 is the usable address length. */
export const MAX_EMAIL_LENGTH = 254;

/** A customer's cancellation is refunded in full until this long before the start (docs/product-rules.md#states). */
export const FREE_CANCELLATION_BEFORE_START_MS = 24 * 60 * 60 * 1000;
/** A customer moves their own appointment until this long before the start; vets and managers until the start. */
export const CUSTOMER_RESCHEDULE_BEFORE_START_MS = 24 * 60 * 60 * 1000;
/** The longest reason a cancellation may carry. */
export const CANCEL_REASON_MAX = 500;
