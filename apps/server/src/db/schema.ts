import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** Binary column (PostgreSQL bytea) as a Node Buffer. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** Every person who can log in. Emails are stored lower-cased, so uniqueness is case-insensitive. */
export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    type: text('type', { enum: ['customer', 'vet', 'manager'] }).notNull(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phone: text('phone').notNull().default(''),
    address: text('address').notNull().default(''),
    passwordHash: text('password_hash').notNull(),
    locale: text('locale', { enum: ['en', 'pt', 'pt-BR'] })
      .notNull()
      .default('pt'),
    /** Removed staff stay as inactive rows so appointment history keeps their names. */
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('users_email_unique').on(table.email),
    // A vet's customers table is read by name in keyset pages of (name, id) (lists.service.ts).
    index('users_name_idx').on(table.name, table.id),
    check('users_email_lowercase', sql`${table.email} = lower(${table.email})`),
  ],
);

export const customers = pgTable('customers', {
  id: serial('id').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .unique()
    .references(() => users.id, { onDelete: 'cascade' }),
  taxId: text('tax_id').notNull().default(''),
  postalCode: text('postal_code').notNull().default(''),
  city: text('city').notNull().default(''),
  state: text('state').notNull().default(''),
  country: text('country').notNull().default(''),
  vetCenter: text('vet_center').notNull().default(''),
});

export const vets = pgTable(
  'vets',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .unique()
      .references(() => users.id, { onDelete: 'cascade' }),
    specialty: text('specialty').notNull().default(''),
    /** External calendar token (docs/product-rules.md#entities); empty means no calendar is linked. */
    accountToken: text('account_token').notNull().default(''),
    discount: integer('discount').notNull().default(0),
    /** SHA-256 of the secret in the vet's private ICS subscription URL; null until one is made. */
    icsTokenHash: text('ics_token_hash'),
  },
  (table) => [check('vets_discount_range', sql`${table.discount} between 0 and 100`)],
);

export const managers = pgTable('managers', {
  id: serial('id').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .unique()
    .references(() => users.id, { onDelete: 'cascade' }),
});

/** Login sessions. Only a SHA-256 of the bearer token is stored. */
export const sessions = pgTable(
  'sessions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('sessions_token_hash_unique').on(table.tokenHash),
    index('sessions_user_idx').on(table.userId),
  ],
);

/** Single-use password reset tokens, stored hashed. */
export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('password_reset_tokens_hash_unique').on(table.tokenHash),
    index('password_reset_tokens_user_idx').on(table.userId),
  ],
);

/**
 * A customer's animal (docs/product-rules.md#entities Pet). Pets with appointment history are archived, never deleted.
 */
export const pets = pgTable(
  'pets',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    /** 'Dog', 'Cat', 'Other' or free text. */
    species: text('species').notNull(),
    /** A breed of the curated catalogue (shown in the viewer's language), or null for free text. */
    breedId: integer('breed_id'),
    breed: text('breed').notNull().default(''),
    gender: text('gender', { enum: ['F', 'M'] }).notNull(),
    birth: date('birth', { mode: 'string' }).notNull(),
    fertileStatus: text('fertile_status', { enum: ['intact', 'neutered'] }).notNull(),
    weight: numeric('weight', { precision: 4, scale: 1, mode: 'number' }).notNull(),
    policy: text('policy'),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('pets_customer_idx').on(table.customerId),
    check('pets_weight_range', sql`${table.weight} between 0 and 999`),
  ],
);

/**
 * Appointments (docs/product-rules.md#entities). A booking starts as TK_PendingPayment holding its slot through a
 * calendar event (a hold until paid, then a booking); the lifecycle is docs/appointment-lifecycle.md and
 * packages/shared/src/appointment-status.ts.
 */
export const appointments = pgTable(
  'appointments',
  {
    id: serial('id').primaryKey(),
    /** Unguessable identifier used in URLs and as the video room name. */
    hash: text('hash').notNull(),
    /**
     * Unguessable identifier of the payment (docs/product-rules.md#api payment_hash); null for rows made before
     * payments.
     */
    paymentHash: text('payment_hash'),
    customerUserId: integer('customer_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    petId: integer('pet_id')
      .notNull()
      .references(() => pets.id, { onDelete: 'restrict' }),
    vetUserId: integer('vet_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    description: text('description').notNull(),
    vetObservations: text('vet_observations').notNull().default(''),
    schedule: timestamp('schedule', { withTimezone: true }).notNull(),
    durationMinutes: integer('duration_minutes').notNull().default(30),
    status: text('status', {
      enum: ['TK_PendingPayment', 'TK_PaymentFailed', 'TK_Requested', 'TK_Confirmed', 'TK_Canceled', 'TK_Completed'],
    })
      .notNull()
      .default('TK_PendingPayment'),
    statusDate: timestamp('status_date', { withTimezone: true }).notNull().defaultNow(),
    priceCents: integer('price_cents').notNull().default(0),
    /**
     * What was bought, in the customer's language at booking time (docs/product-rules.md#request-confirmed item_name).
     */
    itemName: text('item_name').notNull().default(''),
    /** The embedded scheduler's event id (docs/product-rules.md#api calendar_event_id). */
    calendarEventId: text('calendar_event_id'),
    /** The customer's UTC offset in seconds when booking (docs/product-rules.md#api timezone_diff). */
    timezoneDiff: integer('timezone_diff').notNull().default(0),
    accessCodeId: integer('access_code_id').references(() => accessCodes.id, { onDelete: 'set null' }),
    /** 'builtin' | 'stripe' | 'free': who took the payment. */
    paymentProvider: text('payment_provider'),
    /** The provider's reference (a Stripe Checkout Session id). */
    providerReference: text('provider_reference'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /** When the 'request received' mails went out: they go once. */
    requestNotifiedAt: timestamp('request_notified_at', { withTimezone: true }),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    /** Who cancelled (TK_Canceled), when and why; null while not cancelled. */
    canceledAt: timestamp('canceled_at', { withTimezone: true }),
    canceledByUserId: integer('canceled_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    cancelReason: text('cancel_reason'),
    /** The refund of a cancelled, paid appointment: 'none' (nothing to give back), 'pending', 'refunded'. */
    refundStatus: text('refund_status', { enum: ['none', 'pending', 'refunded'] }),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    /**
     * The iCalendar SEQUENCE of the appointment's event (feed and mailed invitations share its UID): one
     * more at every change of status or time, so calendars take the newest version.
     */
    calendarSequence: integer('calendar_sequence').notNull().default(0),
    /** When the reminders went out (24 hours and 1 hour before the start); each goes once per start time. */
    reminded24hAt: timestamp('reminded_24h_at', { withTimezone: true }),
    reminded1hAt: timestamp('reminded_1h_at', { withTimezone: true }),
    /** When it became TK_Completed: its room closed, or the vet marked it done. */
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** HMAC-SHA-256 (server secret) of each PIN: found by PIN, not readable from the database. */
    customerPinHash: text('customer_pin_hash'),
    vetPinHash: text('vet_pin_hash'),
    /** The two PINs encrypted with the server secret (AES-256-GCM), to send them again. */
    pinCipher: text('pin_cipher'),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('appointments_hash_unique').on(table.hash),
    uniqueIndex('appointments_payment_hash_unique').on(table.paymentHash),
    uniqueIndex('appointments_provider_reference_unique').on(table.providerReference),
    // PINs are unique among live appointments (they open a video room).
    uniqueIndex('appointments_customer_pin_live_unique')
      .on(table.customerPinHash)
      .where(sql`status in ('TK_Requested', 'TK_Confirmed')`),
    uniqueIndex('appointments_vet_pin_live_unique')
      .on(table.vetPinHash)
      .where(sql`status in ('TK_Requested', 'TK_Confirmed')`),
    // Each per-party list (My appointments, the vet's list and record, the pet record) is a keyset page in
    // (schedule, id) order: with id in the index the cursor is an index bound and the rows come out sorted.
    index('appointments_customer_idx').on(table.customerUserId, table.schedule, table.id),
    index('appointments_vet_idx').on(table.vetUserId, table.schedule, table.id),
    index('appointments_pet_idx').on(table.petId, table.schedule, table.id),
    // "Has this vet ever seen this customer?" (pet and customer visibility, the vet's customers): one probe.
    index('appointments_vet_customer_idx').on(table.vetUserId, table.customerUserId),
    index('appointments_status_idx').on(table.status, table.schedule),
    // The managers' list and export (all vets, a date window) walk this in (schedule, id) order: keyset pages.
    index('appointments_schedule_idx').on(table.schedule, table.id),
    check('appointments_price_non_negative', sql`${table.priceCents} >= 0`),
  ],
);

/**
 * Files attached to an appointment (docs/product-rules.md#entities Appointment file). The bytes live in the file store
 * under `storage_key` (random); a row is written only after its bytes are safely stored, and the start-up
 * sweep removes stored bytes that no row names (see modules/appointment-files/file-store.ts).
 */
export const appointmentFiles = pgTable(
  'appointment_files',
  {
    id: serial('id').primaryKey(),
    appointmentId: integer('appointment_id')
      .notNull()
      .references(() => appointments.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    fileDescription: text('file_description').notNull().default(''),
    /** Content type sniffed from the bytes, not the client's claim. */
    fileType: text('file_type').notNull(),
    fileSize: integer('file_size').notNull(),
    storageKey: text('storage_key').notNull(),
    uploadedByUserId: integer('uploaded_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('appointment_files_storage_key_unique').on(table.storageKey),
    index('appointment_files_appointment_idx').on(table.appointmentId),
    check('appointment_files_size_non_negative', sql`${table.fileSize} >= 0`),
  ],
);

/** Payment provider webhook events already handled (Stripe retries and replays): processed once. */
export const paymentEvents = pgTable('payment_events', {
  id: text('id').primaryKey(),
  provider: text('provider').notNull(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Profile photos, re-encoded server-side (small WebP), kept in the database so every instance serves
 * them without shared file storage.
 */
export const userPhotos = pgTable('user_photos', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  content: bytea('content').notNull(),
  contentType: text('content_type').notNull(),
  etag: text('etag').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** What customers pay for (docs/product-rules.md#entities Product). Prices in integer cents, EUR. */
export const products = pgTable(
  'products',
  {
    id: serial('id').primaryKey(),
    /** The designation in each interface language: { en, pt, 'pt-BR' }. */
    designation: jsonb('designation').$type<Record<'en' | 'pt' | 'pt-BR', string>>().notNull(),
    priceCents: integer('price_cents').notNull(),
    createdAt: createdAt(),
  },
  (table) => [check('products_price_non_negative', sql`${table.priceCents} >= 0`)],
);

/**
 * Appointment access codes (docs/product-rules.md#entities): valid between two dates; "included" means the appointment
 * is free.
 */
export const accessCodes = pgTable(
  'access_codes',
  {
    id: serial('id').primaryKey(),
    /** Stored trimmed and upper-cased; compared the same way. */
    code: text('code').notNull(),
    validFrom: date('valid_from', { mode: 'string' }).notNull(),
    validTo: date('valid_to', { mode: 'string' }).notNull(),
    included: boolean('included').notNull().default(false),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('access_codes_code_unique').on(table.code),
    check('access_codes_dates_ordered', sql`${table.validFrom} <= ${table.validTo}`),
  ],
);

/** A weekly working pattern with date-specific exceptions (docs/product-rules.md#entities Availability profile). */
export interface StoredDaySchedule {
  dayOfWeek: number;
  workingIntervals: { start: string; end: string }[];
}
export interface StoredDateIntervals {
  dateStartInclusive: string;
  hours: { start: string; end: string }[];
}

/** A vet's availability profile (docs/product-rules.md#entities): what the slot engine turns into bookable slots. */
export const availabilityProfiles = pgTable(
  'availability_profiles',
  {
    id: serial('id').primaryKey(),
    vetId: integer('vet_id')
      .notNull()
      .references(() => vets.id, { onDelete: 'cascade' }),
    name: text('name').notNull().default('Video consultation'),
    durationMinutes: integer('duration_minutes').notNull().default(30),
    availabilityStep: integer('availability_step').notNull().default(30),
    timeAvailableFor: text('time_available_for').notNull().default('P10W'),
    subject: text('subject').notNull().default(''),
    description: text('description').notNull().default('Vet appointments'),
    location: text('location').notNull().default('Video call'),
    /** IANA zone of the weekly pattern and date intervals (wall-clock times). */
    timezone: text('timezone').notNull().default('Europe/Lisbon'),
    daySchedules: jsonb('day_schedules').$type<StoredDaySchedule[]>().notNull().default([]),
    availabilityIntervals: jsonb('availability_intervals').$type<StoredDateIntervals[]>().notNull().default([]),
    context: text('context').notNull().default(''),
    startConference: boolean('start_conference').notNull().default(true),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('availability_profiles_vet_idx').on(table.vetId),
    check('availability_profiles_duration', sql`${table.durationMinutes} between 5 and 480`),
    check('availability_profiles_step', sql`${table.availabilityStep} between 5 and 480`),
  ],
);

/**
 * Time taken in a vet's calendar: holds (a customer chose a slot and has 15 minutes to book it) and
 * bookings (an appointment owns the time). The exclusion constraint of migration 0004 makes two live
 * entries of one vet that overlap impossible, on PGlite and PostgreSQL alike.
 */
export const calendarEvents = pgTable(
  'calendar_events',
  {
    id: serial('id').primaryKey(),
    /** The unguessable event id the embedded scheduler posts back (docs/product-rules.md#api). */
    eventId: text('event_id').notNull(),
    vetUserId: integer('vet_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    customerUserId: integer('customer_user_id').references(() => users.id, { onDelete: 'restrict' }),
    profileId: integer('profile_id').references(() => availabilityProfiles.id, { onDelete: 'set null' }),
    kind: text('kind', { enum: ['hold', 'booking'] }).notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    /** Holds only: after this instant the hold no longer counts, even before a job releases it. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** Set when the time is given back (expired or abandoned hold, canceled booking). */
    releasedAt: timestamp('released_at', { withTimezone: true }),
    appointmentId: integer('appointment_id').references(() => appointments.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('calendar_events_event_id_unique').on(table.eventId),
    index('calendar_events_vet_time_idx').on(table.vetUserId, table.startsAt),
    check('calendar_events_ordered', sql`${table.startsAt} < ${table.endsAt}`),
    check('calendar_events_hold_expires', sql`${table.kind} <> 'hold' or ${table.expiresAt} is not null`),
  ],
);

/**
 * One-time grants of the built-in calendar (CALENDAR_PROVIDER=builtin): the authorisation page asks for
 * one, hands it to /auth/callback as the account token, and PUT /api/vets/token consumes it. Only a
 * SHA-256 of the token is stored; a grant is good for 10 minutes and once.
 */
export const calendarGrants = pgTable(
  'calendar_grants',
  {
    id: serial('id').primaryKey(),
    vetUserId: integer('vet_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('calendar_grants_token_hash_unique').on(table.tokenHash),
    index('calendar_grants_vet_idx').on(table.vetUserId),
  ],
);

/**
 * A vet's own calendar read and written by the server (ADR 019): CalDAV (url, username, app password sealed
 * with a key derived from APP_SECRET) or Aurinko (the account token of vets.account_token). Which calendars
 * count as busy and which one receives appointments; when busy times were last read, over which range, and
 * the last error (shown to the vet as a warning). Deleting the row (unlinking) stops every read and write.
 */
export const vetCalendarLinks = pgTable('vet_calendar_links', {
  vetUserId: integer('vet_user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  kind: text('kind', { enum: ['caldav', 'aurinko'] }).notNull(),
  url: text('url').notNull().default(''),
  username: text('username').notNull().default(''),
  /** secrets.seal('caldav-password', …); never answered. */
  passwordSealed: text('password_sealed').notNull().default(''),
  /** The calendars whose events are busy time (CalDAV collection URLs or Aurinko calendar ids). */
  busyCalendars: jsonb('busy_calendars').$type<string[]>().notNull().default([]),
  /** Where appointments are written; null: nowhere. */
  targetCalendar: text('target_calendar'),
  /** The calendars the server found at the last check, for the vet's pickers. */
  calendars: jsonb('calendars').$type<{ url: string; name: string }[]>().notNull().default([]),
  busyReadAt: timestamp('busy_read_at', { withTimezone: true }),
  busyReadFrom: timestamp('busy_read_from', { withTimezone: true }),
  busyReadTo: timestamp('busy_read_to', { withTimezone: true }),
  lastError: text('last_error'),
  lastErrorAt: timestamp('last_error_at', { withTimezone: true }),
  createdAt: createdAt(),
});

/** The busy times last read from a vet's own calendar (replaced whole at each read). */
export const calendarBusyRanges = pgTable(
  'calendar_busy_ranges',
  {
    id: serial('id').primaryKey(),
    vetUserId: integer('vet_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('calendar_busy_ranges_vet_time_idx').on(table.vetUserId, table.startsAt)],
);

/** The event an appointment has in its vet's own calendar: where it was written and its ETag. */
export const calendarRemoteEvents = pgTable('calendar_remote_events', {
  appointmentId: integer('appointment_id')
    .primaryKey()
    .references(() => appointments.id, { onDelete: 'cascade' }),
  vetUserId: integer('vet_user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  calendar: text('calendar').notNull(),
  /** The CalDAV object URL, or the Aurinko event id. */
  href: text('href').notNull(),
  etag: text('etag'),
  syncedAt: timestamp('synced_at', { withTimezone: true }).notNull(),
});

/**
 * The audit log (docs/audit-log.md, ADR 022): who did what, when and from where. Append-only from the
 * application: triggers refuse every UPDATE, DELETE and TRUNCATE (migration 0014). No foreign keys: an event
 * outlives what it names, and an actor may be nobody (a job) or an unknown email (a failed login).
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: serial('id').primaryKey(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    actorUserId: integer('actor_user_id'),
    actorRole: text('actor_role').$type<'customer' | 'vet' | 'manager'>(),
    /** The actor's email when it acted; for a failed login, the email typed. */
    actorEmail: text('actor_email'),
    action: text('action').notNull(),
    subjectType: text('subject_type'),
    subjectId: integer('subject_id'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
  },
  (table) => [
    index('audit_events_occurred_idx').on(table.occurredAt, table.id),
    index('audit_events_action_idx').on(table.action, table.occurredAt, table.id),
    index('audit_events_actor_idx').on(table.actorUserId, table.occurredAt, table.id),
  ],
);
