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
    /** External calendar token (SPEC §3); empty means no calendar is linked. */
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

/** A customer's animal (SPEC §3 Pet). Pets with appointment history are archived, never deleted. */
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
 * Appointments (SPEC §3). The booking issue adds payment, PINs and the calendar event; this core is
 * what customer, pet and vet records need.
 */
export const appointments = pgTable(
  'appointments',
  {
    id: serial('id').primaryKey(),
    /** Unguessable identifier used in URLs and as the video room name. */
    hash: text('hash').notNull(),
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
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('appointments_hash_unique').on(table.hash),
    index('appointments_customer_idx').on(table.customerUserId, table.schedule),
    index('appointments_vet_idx').on(table.vetUserId, table.schedule),
    index('appointments_pet_idx').on(table.petId, table.schedule),
    check('appointments_price_non_negative', sql`${table.priceCents} >= 0`),
  ],
);

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

/** What customers pay for (SPEC §3 Product). Prices in integer cents, EUR. */
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

/** Appointment access codes (SPEC §3): valid between two dates; "included" means the appointment is free. */
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

/** A weekly working pattern with date-specific exceptions (SPEC §3 Availability profile). */
export interface StoredDaySchedule {
  dayOfWeek: number;
  workingIntervals: { start: string; end: string }[];
}
export interface StoredDateIntervals {
  dateStartInclusive: string;
  hours: { start: string; end: string }[];
}

/** A vet's availability profile (SPEC §3): what the slot engine turns into bookable slots. */
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
    /** The unguessable event id the embedded scheduler posts back (SPEC §7). */
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
