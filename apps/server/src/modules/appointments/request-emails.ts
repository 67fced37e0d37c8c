import { and, eq, inArray, isNull } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Locale } from '@vetcall/shared/locales';
import { PET_SPECIES } from '@vetcall/shared/pet-species';
import type { AppContext } from '../../context.ts';
import { appointments, availabilityProfiles, calendarEvents, customers, pets, users } from '../../db/schema.ts';
import { translate } from '../../i18n.ts';
import { type RenderedEmail, renderEmail } from '../../providers/mail/templates.ts';
import { customerDisplayZone, type DisplayZone, formatAppointmentTime } from '../../lib/appointment-time.ts';
import { PAID_STATUSES } from './appointment.policy.ts';
import { queueMail } from '../../providers/mail/mail-outbox.ts';
import { vetTimeZone } from '../availability/availability-profiles.ts';

/** The zone of a vet with no availability profile (and so the first guess for their customers). */
export const FALLBACK_TIMEZONE = 'Europe/Lisbon';

export type Logger = {
  error(object: object, message: string): void;
  warn(object: object, message: string): void;
  info(object: object, message: string): void;
};

export type NotifyDeps = Pick<AppContext, 'db' | 'clock' | 'config' | 'secrets' | 'jobs'> & { log: Logger };

/** Intl's names for our locales: 'pt' is Portugal's Portuguese (Intl's bare 'pt' is Brazil's). */
const INTL_LOCALES: Record<Locale, string> = { en: 'en-GB', pt: 'pt-PT', 'pt-BR': 'pt-BR' };

/** '€25.00', '25,00 €', 'R$'-free '€ 25,00': euros in the reader's language. */
export function formatPrice(locale: Locale, cents: number): string {
  return new Intl.NumberFormat(INTL_LOCALES[locale], { style: 'currency', currency: 'EUR' }).format(cents / 100);
}

function speciesName(locale: Locale, species: string): string {
  return (PET_SPECIES as readonly string[]).includes(species) ? translate(locale, `pets.species_${species}`) : species;
}

export interface RequestDetails {
  hash: string;
  schedule: Date;
  description: string;
  priceCents: number;
  itemName: string;
  /** The customer's zone: the one matching their browser's offset when booking, else that offset. */
  customerZone: DisplayZone;
  customer: { name: string; email: string; locale: Locale };
  vet: { name: string; email: string; locale: Locale; timezone: string };
  pet: { name: string; species: string };
}

/** Where a customer follows and changes their appointments: My appointments (/customer?mode=appointments). */
export const myAppointmentsUrl = (publicUrl: string, locale: Locale) =>
  `${publicUrl}/customer?mode=appointments&lang=${encodeURIComponent(locale)}`;

/** 'Request received' for the customer: in their language, the time at their offset, what they paid. */
export function renderCustomerRequestEmail(details: RequestDetails, publicUrl: string): RenderedEmail {
  const locale = details.customer.locale;
  const link = myAppointmentsUrl(publicUrl, locale);
  const t = (key: string, values: Record<string, string> = {}) => translate(locale, `mail_payment.${key}`, values);
  const time = formatAppointmentTime(details.schedule, locale, details.customerZone);
  return renderEmail(locale, {
    subject: t('customer_subject'),
    name: details.customer.name,
    paragraphs: [
      t('customer_body', { vet_name: details.vet.name, pet_name: details.pet.name }),
      t('customer_time', { time }),
      details.priceCents === 0
        ? t('customer_price_free')
        : t('customer_price', { price: formatPrice(locale, details.priceCents), item_name: details.itemName }),
      t('customer_next'),
    ],
    action: { label: t('customer_action'), url: link },
  });
}

/** The request for the vet: in the vet's language and profile zone, with the complaint and the confirmation link. */
export function renderVetRequestEmail(details: RequestDetails, publicUrl: string): RenderedEmail {
  const locale = details.vet.locale;
  const t = (key: string, values: Record<string, string> = {}) => translate(locale, `mail_payment.${key}`, values);
  const time = formatAppointmentTime(details.schedule, locale, { timeZone: details.vet.timezone });
  const link = `${publicUrl}/confirmappointment/${encodeURIComponent(details.hash)}?lang=${encodeURIComponent(locale)}`;
  return renderEmail(locale, {
    subject: t('vet_subject', { pet_name: details.pet.name, time }),
    name: details.vet.name,
    paragraphs: [
      t('vet_body', {
        customer_name: details.customer.name,
        pet_name: details.pet.name,
        species: speciesName(locale, details.pet.species),
      }),
      t('vet_time', { time }),
      t('vet_complaint', { description: details.description }),
    ],
    action: { label: t('vet_action'), url: link },
    footer: t('vet_footer'),
  });
}

const customerUsers = alias(users, 'customer_users');
const vetUsers = alias(users, 'vet_users');

/** An appointment's people, pet and zones for its mails (here and for the 'file added' mail). */
export async function loadRequestDetails(
  db: Pick<NotifyDeps['db'], 'select'>,
  appointmentId: number,
): Promise<RequestDetails | null> {
  const [row] = await db
    .select({
      appointment: appointments,
      customer: { name: customerUsers.name, email: customerUsers.email, locale: customerUsers.locale },
      country: customers.country,
      vet: { name: vetUsers.name, email: vetUsers.email, locale: vetUsers.locale },
      pet: { name: pets.name, species: pets.species },
    })
    .from(appointments)
    .innerJoin(customerUsers, eq(customerUsers.id, appointments.customerUserId))
    .leftJoin(customers, eq(customers.userId, appointments.customerUserId))
    .innerJoin(vetUsers, eq(vetUsers.id, appointments.vetUserId))
    .innerJoin(pets, eq(pets.id, appointments.petId))
    .where(eq(appointments.id, appointmentId))
    .limit(1);
  if (!row) return null;
  // The zone of the profile the slot was taken from, else the vet's first profile.
  const [booked] = await db
    .select({ timezone: availabilityProfiles.timezone })
    .from(calendarEvents)
    .innerJoin(availabilityProfiles, eq(availabilityProfiles.id, calendarEvents.profileId))
    .where(eq(calendarEvents.appointmentId, appointmentId))
    .limit(1);
  const vetZone = booked?.timezone ?? (await vetTimeZone(db, row.appointment.vetUserId)) ?? FALLBACK_TIMEZONE;
  const { appointment } = row;
  return {
    hash: appointment.hash,
    schedule: appointment.schedule,
    description: appointment.description,
    priceCents: appointment.priceCents,
    itemName: appointment.itemName,
    customerZone: customerDisplayZone({
      timezoneDiffSeconds: appointment.timezoneDiff,
      bookedAt: appointment.createdAt,
      vetTimeZone: vetZone,
      country: row.country ?? '',
    }),
    customer: row.customer,
    vet: { ...row.vet, timezone: vetZone },
    pet: row.pet,
  };
}

/**
 * Queues the two 'request received' emails (customer and vet) once per appointment, after it is paid, in
 * the caller's transaction: the claim (requested_notified_at) and the queued mail commit with the change
 * they report (the payment), or not at all. Of several callers one queues and the rest find it claimed; the
 * job worker delivers them, retrying while the mail server is away. Answers whether this call queued (the
 * caller kicks the worker after its commit).
 */
export async function queueRequestReceived(
  tx: Pick<NotifyDeps['db'], 'select' | 'update' | 'insert'>,
  deps: Pick<NotifyDeps, 'config' | 'secrets'>,
  appointmentId: number,
  now: Date,
): Promise<boolean> {
  const [claimed] = await tx
    .update(appointments)
    .set({ requestNotifiedAt: now })
    .where(
      and(
        eq(appointments.id, appointmentId),
        isNull(appointments.requestNotifiedAt),
        inArray(appointments.status, PAID_STATUSES),
      ),
    )
    .returning({ id: appointments.id });
  if (!claimed) return false;
  const details = await loadRequestDetails(tx, appointmentId);
  if (!details) return false;
  await queueMail(tx, { secrets: deps.secrets, now }, [
    { to: details.customer.email, ...renderCustomerRequestEmail(details, deps.config.publicUrl) },
    { to: details.vet.email, ...renderVetRequestEmail(details, deps.config.publicUrl) },
  ]);
  return true;
}

/**
 * queueRequestReceived in a transaction of its own, for a caller that finds a paid appointment whose request
 * mails never went (one paid before they were queued with the payment).
 */
export async function notifyRequestReceived(deps: NotifyDeps, appointmentId: number): Promise<boolean> {
  const queued = await deps.db.transaction((tx) => queueRequestReceived(tx, deps, appointmentId, deps.clock.now()));
  if (queued) deps.jobs.kick();
  return queued;
}
