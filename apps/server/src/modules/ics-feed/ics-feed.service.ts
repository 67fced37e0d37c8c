import { and, asc, eq, gte, inArray } from 'drizzle-orm';
import { ICS_FEED_TOKEN_PATTERN, type IcsFeedStatus, type IcsFeedUrl } from '@vetcall/shared/schemas/ics-feed';
import type { AppContext } from '../../context.ts';
import { translate } from '../../i18n.ts';
import { appointments, pets, users, vets } from '../../db/schema.ts';
import { forbidden, notFound } from '../../errors.ts';
import { assertAllowed, type RateRule } from '../../plugins/rate-limiter.ts';
import type { Actor } from '../auth/auth.service.ts';
import { generateToken, hashToken } from '../../lib/tokens.ts';
import { appointmentEventUid, type IcsEvent, writeCalendar } from './ics-calendar.ts';
import { canManageIcsFeed } from './ics-feed.policy.ts';

const MINUTE_MS = 60 * 1000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/**
 * The feed route takes its secret from the URL, without authentication, so failed lookups are counted
 * per IP. Calendar services poll from shared addresses, so only failures count, not fetches.
 */
export const ICS_FEED_LOOKUP_FAILURES_PER_IP: RateRule = { limit: 20, windowMs: 10 * MINUTE_MS };
/** Bookings that started longer ago than this drop out of the feed; every later one is in it. */
export const ICS_FEED_PAST_DAYS = 90;
/** Only booked time the vet must keep: not unpaid, failed, requested or canceled appointments. */
export const ICS_FEED_STATUSES = ['TK_Confirmed', 'TK_Completed'] as const;

type FeedDeps = Pick<AppContext, 'db' | 'clock' | 'config' | 'limiter'>;

/** The vet row behind a vet id (as in every /api/vets path), for that vet only (others 403, unknown or removed 404). */
async function ownFeedVet(deps: Pick<AppContext, 'db'>, actor: Actor, vetId: number) {
  // Refused before the lookup: customers and managers learn nothing about which ids are vets.
  if (actor.type !== 'vet') throw forbidden();
  const [row] = await deps.db
    .select({ vetId: vets.id, userId: vets.userId, icsTokenHash: vets.icsTokenHash })
    .from(vets)
    .innerJoin(users, eq(users.id, vets.userId))
    .where(and(eq(vets.id, vetId), eq(users.active, true)))
    .limit(1);
  if (!row) throw notFound();
  if (!canManageIcsFeed(actor, row.userId)) throw forbidden();
  return row;
}

/** GET /api/vets/icsfeed/{vet_id}: whether the vet has a feed URL (the URL itself cannot be shown again). */
export async function getIcsFeedStatus(deps: Pick<AppContext, 'db'>, actor: Actor, vetId: number) {
  const vet = await ownFeedVet(deps, actor, vetId);
  return { enabled: vet.icsTokenHash !== null } satisfies IcsFeedStatus;
}

/** POST: a new secret; the previous URL stops working in the same statement. */
export async function regenerateIcsFeed(
  deps: Pick<AppContext, 'db' | 'config'>,
  actor: Actor,
  vetId: number,
): Promise<IcsFeedUrl> {
  const vet = await ownFeedVet(deps, actor, vetId);
  const token = generateToken();
  await deps.db
    .update(vets)
    .set({ icsTokenHash: hashToken(token) })
    .where(eq(vets.id, vet.vetId));
  return { url: icsFeedUrl(deps.config.publicUrl, token) };
}

/** DELETE: no URL works any more until the vet makes a new one. */
export async function disableIcsFeed(
  deps: Pick<AppContext, 'db'>,
  actor: Actor,
  vetId: number,
): Promise<IcsFeedStatus> {
  const vet = await ownFeedVet(deps, actor, vetId);
  await deps.db.update(vets).set({ icsTokenHash: null }).where(eq(vets.id, vet.vetId));
  return { enabled: false };
}

export const icsFeedUrl = (publicUrl: string, token: string) => `${publicUrl}/api/calendar/feed/${token}.ics`;

/**
 * GET /api/calendar/feed/{token}.ics: the vet's confirmed and completed bookings from the last
 * ICS_FEED_PAST_DAYS days on, as an iCalendar document. 404 for any unknown or malformed token.
 */
export async function renderIcsFeed(deps: FeedDeps, token: string, ip: string): Promise<string> {
  const limiterKey = `ics-feed:ip:${ip}`;
  assertAllowed(await deps.limiter.check(limiterKey, ICS_FEED_LOOKUP_FAILURES_PER_IP));

  const vet = ICS_FEED_TOKEN_PATTERN.test(token) ? await findVetByFeedToken(deps, token) : undefined;
  if (!vet) {
    await deps.limiter.hit(limiterKey, ICS_FEED_LOOKUP_FAILURES_PER_IP);
    throw notFound();
  }

  const now = deps.clock.now();
  const rows = await deps.db
    .select({
      id: appointments.id,
      schedule: appointments.schedule,
      durationMinutes: appointments.durationMinutes,
      description: appointments.description,
      statusDate: appointments.statusDate,
      calendarSequence: appointments.calendarSequence,
      createdAt: appointments.createdAt,
      petName: pets.name,
      customerName: users.name,
    })
    .from(appointments)
    .innerJoin(pets, eq(pets.id, appointments.petId))
    .innerJoin(users, eq(users.id, appointments.customerUserId))
    .where(
      and(
        eq(appointments.vetUserId, vet.userId),
        inArray(appointments.status, [...ICS_FEED_STATUSES]),
        gte(appointments.schedule, new Date(now.getTime() - ICS_FEED_PAST_DAYS * DAY_MS)),
      ),
    )
    .orderBy(asc(appointments.schedule), asc(appointments.id));

  const events = rows.map((row): IcsEvent => ({
    uid: appointmentEventUid(row.id, deps.config.publicUrl),
    dtstamp: row.statusDate,
    start: row.schedule,
    end: new Date(row.schedule.getTime() + row.durationMinutes * MINUTE_MS),
    summary: translate(vet.locale, 'ics_feed.event_summary', { pet: row.petName, customer: row.customerName }),
    description: row.description,
    status: 'CONFIRMED',
    sequence: row.calendarSequence,
    created: row.createdAt,
    lastModified: row.statusDate,
  }));
  return writeCalendar({
    prodId: '-//VetCall//Appointments//EN',
    name: translate(vet.locale, 'ics_feed.calendar_name', { vet: vet.name }),
    refreshInterval: 'PT15M',
    events,
  });
}

async function findVetByFeedToken(deps: Pick<AppContext, 'db'>, token: string) {
  const [row] = await deps.db
    .select({ userId: users.id, name: users.name, locale: users.locale })
    .from(vets)
    .innerJoin(users, eq(users.id, vets.userId))
    .where(and(eq(vets.icsTokenHash, hashToken(token)), eq(users.active, true)))
    .limit(1);
  return row;
}
