import { eq, inArray } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { calendarBusyRanges, vetCalendarLinks, vets } from '../../db/schema.ts';
import { createAurinkoCalendarSync } from '../../providers/calendar/aurinko.ts';
import { vetTimeZone } from '../availability/availability-profiles.ts';
import { createCalDavCalendarSync } from '../../providers/calendar/caldav.ts';
import type { CalendarSyncProvider } from '../../providers/calendar/calendar-sync-provider.ts';

export type SyncDeps = Pick<AppContext, 'db' | 'clock' | 'config' | 'secrets'>;
export type CalendarLinkRow = typeof vetCalendarLinks.$inferSelect;

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** Busy times read longer ago than this are read again before they are used (the issue: at most 2 minutes). */
export const BUSY_FRESH_MS = 2 * MINUTE_MS;
/** How long a slots request waits for a new read; past it, the last known busy times answer. */
export const BUSY_WAIT_MS = 1500;
/** After a failed read, requests use the last known times this long before one tries again. */
export const BUSY_RETRY_AFTER_ERROR_MS = 30_000;
/** One read covers at least yesterday to this far ahead: the weeks customers look at, in one request. */
const READ_AHEAD_MS = 62 * DAY_MS;
/** A read never spans more than this (a far date is read on its own). */
const MAX_READ_SPAN_MS = 400 * DAY_MS;
/** secrets.seal purpose of CalDAV passwords. */
export const CALDAV_PASSWORD_PURPOSE = 'caldav-password';

/** A collection URL compared without its trailing slash (servers and people write it both ways). */
export const sameCalendar = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

/** The UIDs VetCall gives appointment events (ics-calendar.ts appointmentEventUid): not read back as busy. */
export const isOwnAppointmentUid = (publicUrl: string) => {
  const suffix = `@${new URL(publicUrl).hostname}`;
  return (uid: string) => /^appointment-\d+@/.test(uid) && uid.endsWith(suffix);
};

/** The zone the vet works in (their first profile's): all-day and floating events are read in it. */
export async function vetZone(db: Pick<Database, 'select'>, vetUserId: number): Promise<string> {
  return (await vetTimeZone(db, vetUserId)) ?? 'UTC';
}

/** The provider that reads and writes this vet's calendar. */
export async function syncProviderFor(deps: SyncDeps, link: CalendarLinkRow): Promise<CalendarSyncProvider> {
  const timeZone = await vetZone(deps.db, link.vetUserId);
  const skipUid = isOwnAppointmentUid(deps.config.publicUrl);
  if (link.kind === 'caldav') {
    return createCalDavCalendarSync({
      url: link.url,
      username: link.username,
      password: deps.secrets.open(CALDAV_PASSWORD_PURPOSE, link.passwordSealed),
      timeZone,
      skipUid,
    });
  }
  const [vet] = await deps.db
    .select({ token: vets.accountToken })
    .from(vets)
    .where(eq(vets.userId, link.vetUserId))
    .limit(1);
  return createAurinkoCalendarSync({
    baseUrl: deps.config.calendar.aurinkoUrl,
    token: vet?.token ?? '',
    timeZone,
    skipUid,
  });
}

export async function findCalendarLink(db: Pick<Database, 'select'>, vetUserId: number) {
  const [link] = await db.select().from(vetCalendarLinks).where(eq(vetCalendarLinks.vetUserId, vetUserId)).limit(1);
  return link ?? null;
}

/** What one read covers: the asked window, widened to yesterday .. READ_AHEAD_MS when that stays small. */
function readWindow(now: Date, window: { from: Date; to: Date }) {
  const from = Math.min(window.from.getTime(), now.getTime() - DAY_MS);
  const to = Math.max(window.to.getTime(), now.getTime() + READ_AHEAD_MS);
  return to - from <= MAX_READ_SPAN_MS ? { from: new Date(from), to: new Date(to) } : window;
}

/** What a read of a link reads: its account and busy calendars. A read of an older state is not this one's. */
const readSource = (link: CalendarLinkRow) =>
  JSON.stringify([link.kind, link.url, link.username, link.passwordSealed, link.busyCalendars]);

/** Reads of one vet in progress in this process: parallel requests for the same link share one. */
const readsInFlight = new Map<number, { source: string; read: Promise<void> }>();

/**
 * Reads the vet's busy times anew and replaces the stored ones (one transaction: slots never see half a
 * read); a failure is recorded as the link's last error and the stored times stay. Writing the rows moves
 * the data version, so cached slot answers built from the old times are dropped. A read started before the
 * link changed (another account, other busy calendars) is neither shared with later callers nor written.
 */
export async function readBusyTimes(
  deps: SyncDeps,
  vetUserId: number,
  window?: { from: Date; to: Date },
  loaded?: CalendarLinkRow,
): Promise<void> {
  const link = loaded ?? (await findCalendarLink(deps.db, vetUserId));
  if (!link) return;
  const source = readSource(link);
  const running = readsInFlight.get(vetUserId);
  if (running?.source === source) return running.read;
  const read = readLink(deps, link, source, window).finally(() => {
    if (readsInFlight.get(vetUserId)?.read === read) readsInFlight.delete(vetUserId);
  });
  readsInFlight.set(vetUserId, { source, read });
  return read;
}

async function readLink(deps: SyncDeps, link: CalendarLinkRow, source: string, window?: { from: Date; to: Date }) {
  const { vetUserId } = link;
  const now = deps.clock.now();
  const range = readWindow(now, window ?? { from: now, to: now });
  /** Runs `write` with the link locked, if it is still the one read. */
  const whileUnchanged = (write: (tx: Pick<Database, 'delete' | 'insert' | 'update'>) => Promise<void>) =>
    deps.db.transaction(async (tx) => {
      const [current] = await tx
        .select()
        .from(vetCalendarLinks)
        .where(eq(vetCalendarLinks.vetUserId, vetUserId))
        .for('update');
      if (current && readSource(current) === source) await write(tx);
    });
  try {
    const provider = await syncProviderFor(deps, link);
    const ranges = await provider.busyRanges(link.busyCalendars, range);
    await whileUnchanged(async (tx) => {
      await tx.delete(calendarBusyRanges).where(eq(calendarBusyRanges.vetUserId, vetUserId));
      if (ranges.length > 0) {
        await tx
          .insert(calendarBusyRanges)
          .values(ranges.map((busy) => ({ vetUserId, startsAt: busy.start, endsAt: busy.end })));
      }
      await tx
        .update(vetCalendarLinks)
        .set({ busyReadAt: now, busyReadFrom: range.from, busyReadTo: range.to, lastError: null, lastErrorAt: null })
        .where(eq(vetCalendarLinks.vetUserId, vetUserId));
    });
  } catch (error) {
    await whileUnchanged(async (tx) => {
      await tx
        .update(vetCalendarLinks)
        .set({ lastError: (error instanceof Error ? error.message : String(error)).slice(0, 500), lastErrorAt: now })
        .where(eq(vetCalendarLinks.vetUserId, vetUserId));
    });
    throw error;
  }
}

/** Whether the stored busy times of a link answer for `window` at `now` without a new read. */
function needsRead(link: CalendarLinkRow, now: Date, window: { from: Date; to: Date }): boolean {
  if (link.lastErrorAt && now.getTime() - link.lastErrorAt.getTime() < BUSY_RETRY_AFTER_ERROR_MS) return false;
  return (
    !link.busyReadAt ||
    now.getTime() - link.busyReadAt.getTime() >= BUSY_FRESH_MS ||
    !link.busyReadFrom ||
    !link.busyReadTo ||
    link.busyReadFrom > window.from ||
    link.busyReadTo < window.to
  );
}

/**
 * Before slots are computed: the linked vets whose busy times are older than BUSY_FRESH_MS (or do not cover
 * the window) are read again, waited for at most `waitMs`; a read that takes longer finishes in the
 * background and its rows reach the next request (the data version moves). Answers until when an answer
 * built now may be kept (epoch ms; Infinity when no vet has a linked calendar).
 */
export async function freshenBusyTimes(
  deps: SyncDeps,
  vetUserIds: readonly number[],
  window: { from: Date; to: Date },
  waitMs = BUSY_WAIT_MS,
): Promise<number> {
  if (vetUserIds.length === 0) return Infinity;
  const links = await deps.db
    .select()
    .from(vetCalendarLinks)
    .where(inArray(vetCalendarLinks.vetUserId, [...vetUserIds]));
  if (links.length === 0) return Infinity;
  const now = deps.clock.now();
  const stale = links.filter((link) => needsRead(link, now, window));
  if (stale.length > 0) {
    const reads = Promise.allSettled(stale.map((link) => readBusyTimes(deps, link.vetUserId, window, link)));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([reads, new Promise((resolve) => (timer = setTimeout(resolve, waitMs)))]);
    clearTimeout(timer);
    // Whatever was read, the next look is soon: a slow or failed calendar is tried again.
    return now.getTime() + BUSY_RETRY_AFTER_ERROR_MS;
  }
  return Math.min(...links.map((link) => (link.busyReadAt?.getTime() ?? now.getTime()) + BUSY_FRESH_MS));
}

/**
 * Aurinko (PUT /api/vets/token with CALENDAR_PROVIDER=aurinko): the account token it vouched for is kept in
 * vets.account_token and used; the primary calendar counts as busy and receives appointments.
 */
export async function linkAurinkoAccount(deps: Pick<AppContext, 'db'>, vetUserId: number): Promise<void> {
  const values = {
    kind: 'aurinko' as const,
    url: '',
    username: '',
    passwordSealed: '',
    busyCalendars: ['primary'],
    targetCalendar: 'primary',
    calendars: [{ url: 'primary', name: 'primary' }],
    busyReadAt: null,
    busyReadFrom: null,
    busyReadTo: null,
    lastError: null,
    lastErrorAt: null,
  };
  await deps.db
    .insert(vetCalendarLinks)
    .values({ vetUserId, ...values })
    .onConflictDoUpdate({ target: vetCalendarLinks.vetUserId, set: values });
}

/**
 * Unlinking: the credentials and the busy times read are forgotten, so nothing is read or written any more.
 * Events already written stay in the vet's calendar (nothing the vet has is deleted).
 */
export async function forgetCalendarLink(db: AppContext['db'], vetUserId: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(vetCalendarLinks).where(eq(vetCalendarLinks.vetUserId, vetUserId));
    await tx.delete(calendarBusyRanges).where(eq(calendarBusyRanges.vetUserId, vetUserId));
  });
}
