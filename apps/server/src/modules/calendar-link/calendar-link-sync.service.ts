import { and, eq } from 'drizzle-orm';
import type {
  CalDavChoicesBody,
  CalDavLinkBody,
  CalDavLinkResponse,
  CalendarSyncStatus,
} from '@vetcall/shared/schemas/calendar-link';
import type { AppContext } from '../../context.ts';
import { calendarBusyRanges, calendarRemoteEvents, vetCalendarLinks, vets } from '../../db/schema.ts';
import { enqueueJobs } from '../../jobs/job-queue.ts';
import { CALENDAR_EVENT_JOB } from '../appointments/calendar-event-job.ts';
import { AppError } from '../../errors.ts';
import { assertAllowed } from '../../plugins/rate-limiter.ts';
import { CalendarProviderUnavailable } from '../../providers/calendar/calendar-link-provider.ts';
import { createCalDavCalendarSync } from '../../providers/calendar/caldav.ts';
import {
  CalendarAuthFailed,
  type CalendarSyncProvider,
  type RemoteCalendar,
} from '../../providers/calendar/calendar-sync-provider.ts';
import type { Actor } from '../auth/auth.service.ts';
import { ACCOUNT_TOKEN_RATE_LIMIT, ownVet } from './calendar-link.service.ts';
import {
  CALDAV_PASSWORD_PURPOSE,
  findCalendarLink,
  isOwnAppointmentUid,
  readBusyTimes,
  sameCalendar,
  syncProviderFor,
  vetZone,
} from '../calendar-sync/calendar-sync.service.ts';

type Deps = Pick<AppContext, 'db' | 'clock' | 'config' | 'secrets' | 'limiter'>;
type ChoiceDeps = Deps & Pick<AppContext, 'jobs'>;

/** vets.account_token of a vet linked over CalDAV: marks the calendar linked (the credentials are in vet_calendar_links). */
export const CALDAV_ACCOUNT_MARKER = 'caldav:';

const calendarUnreachable = (cause: unknown) =>
  new AppError('calendar_unreachable', 400, {
    message: 'The calendar server could not be reached at this address; check the URL.',
    cause,
  });
const calendarAuthFailed = () =>
  new AppError('calendar_auth_failed', 400, {
    message: 'The calendar server refused this username and password; use an app password.',
  });
const notLinked = () => new AppError('not_found', 404, { message: 'No CalDAV calendar is linked.' });
const unknownCalendar = (field: 'busy_calendars' | 'target_calendar') =>
  new AppError('validation_failed', 400, {
    message: 'This calendar is not one of the account’s calendars.',
    fields: { [field]: 'invalid_value' },
  });

/** The account's calendars, or why they could not be listed (the server refused the credentials, or is not there). */
async function listedCalendars(provider: CalendarSyncProvider): Promise<RemoteCalendar[]> {
  try {
    return await provider.listCalendars();
  } catch (error) {
    if (error instanceof CalendarAuthFailed) throw calendarAuthFailed();
    if (error instanceof CalendarProviderUnavailable) throw calendarUnreachable(error);
    throw error;
  }
}

/** The busy calendars (default: all) and the target (default: the first), each one of the account's calendars. */
function choicesAmong(calendars: RemoteCalendar[], body: { busy_calendars?: string[]; target_calendar?: string }) {
  const pick = (url: string, field: 'busy_calendars' | 'target_calendar') => {
    const found = calendars.find((calendar) => sameCalendar(calendar.url, url));
    if (!found) throw unknownCalendar(field);
    return found.url;
  };
  return {
    busyCalendars: body.busy_calendars
      ? body.busy_calendars.map((url) => pick(url, 'busy_calendars'))
      : calendars.map((calendar) => calendar.url),
    targetCalendar: body.target_calendar ? pick(body.target_calendar, 'target_calendar') : (calendars[0]?.url ?? null),
  };
}

/**
 * PUT /api/vets/{vet_id}/calendar/caldav: checks the URL, username and app password by listing the
 * account's calendars, then stores them (the password sealed with a key derived from APP_SECRET) with the
 * calendars that count as busy (default: all) and the one appointments go to (default: the first), and
 * reads the busy times once. Rate limited with the account token (same key).
 */
export async function linkCalDav(
  deps: Deps,
  actor: Actor,
  vetId: number,
  body: CalDavLinkBody,
): Promise<CalDavLinkResponse> {
  const vet = await ownVet(deps, actor, vetId);
  assertAllowed(await deps.limiter.hit(`calendar-token:vet:${vet.vetId}`, ACCOUNT_TOKEN_RATE_LIMIT));
  const provider = createCalDavCalendarSync({
    url: body.url,
    username: body.username,
    password: body.password,
    timeZone: await vetZone(deps.db, vet.userId),
    skipUid: isOwnAppointmentUid(deps.config.publicUrl),
  });
  const calendars = await listedCalendars(provider);
  const { busyCalendars, targetCalendar } = choicesAmong(calendars, body);

  const values = {
    kind: 'caldav' as const,
    url: body.url,
    username: body.username,
    passwordSealed: deps.secrets.seal(CALDAV_PASSWORD_PURPOSE, body.password),
    busyCalendars,
    targetCalendar,
    calendars,
    busyReadAt: null,
    busyReadFrom: null,
    busyReadTo: null,
    lastError: null,
    lastErrorAt: null,
  };
  await deps.db.transaction(async (tx) => {
    await tx
      .insert(vetCalendarLinks)
      .values({ vetUserId: vet.userId, ...values })
      .onConflictDoUpdate({ target: vetCalendarLinks.vetUserId, set: values });
    // The busy times of another account are not this one's.
    await tx.delete(calendarBusyRanges).where(eq(calendarBusyRanges.vetUserId, vet.userId));
    await tx.update(vets).set({ accountToken: CALDAV_ACCOUNT_MARKER }).where(eq(vets.id, vet.vetId));
  });
  // Read now, so the vet's next look at their slots is right; a failure shows on the calendar screen.
  await readBusyTimes(deps, vet.userId).catch(() => undefined);
  return { linked: true, calendars };
}

/**
 * PUT /api/vets/{vet_id}/calendar/caldav/choices: new busy and target calendars for the linked account, checked
 * against its calendars as listed now with the kept credentials (a calendar made since the link can be chosen).
 * The busy times are read again at once; if that read fails, the ones read last stay until the next. A new
 * target calendar takes the appointments already written, moved by the job worker.
 * Rate limited with linking (same key): each call asks the calendar server.
 */
export async function chooseCalDavCalendars(
  deps: ChoiceDeps,
  actor: Actor,
  vetId: number,
  body: CalDavChoicesBody,
): Promise<CalendarSyncStatus> {
  const vet = await ownVet(deps, actor, vetId);
  const link = await findCalendarLink(deps.db, vet.userId);
  if (link?.kind !== 'caldav') throw notLinked();
  assertAllowed(await deps.limiter.hit(`calendar-token:vet:${vet.vetId}`, ACCOUNT_TOKEN_RATE_LIMIT));
  const calendars = await listedCalendars(await syncProviderFor(deps, link));
  const choices = choicesAmong(calendars, body);
  await deps.db.transaction(async (tx) => {
    // The listing took a while: the link is read again, locked, and must still be this account's.
    const [current] = await tx
      .select({
        url: vetCalendarLinks.url,
        username: vetCalendarLinks.username,
        target: vetCalendarLinks.targetCalendar,
      })
      .from(vetCalendarLinks)
      .where(and(eq(vetCalendarLinks.vetUserId, vet.userId), eq(vetCalendarLinks.kind, 'caldav')))
      .for('update');
    if (!current || current.url !== link.url || current.username !== link.username) throw notLinked();
    await tx
      .update(vetCalendarLinks)
      .set({ calendars, ...choices, busyReadAt: null, busyReadFrom: null, busyReadTo: null })
      .where(eq(vetCalendarLinks.vetUserId, vet.userId));
    if (choices.targetCalendar === current.target) return;
    // The appointments already written move to the new target calendar (calendar-event-job.ts).
    const written = await tx
      .select({ appointmentId: calendarRemoteEvents.appointmentId })
      .from(calendarRemoteEvents)
      .where(eq(calendarRemoteEvents.vetUserId, vet.userId));
    await enqueueJobs(
      tx,
      deps.clock.now(),
      written.map(({ appointmentId }) => ({ kind: CALENDAR_EVENT_JOB, payload: { appointmentId } })),
    );
  });
  deps.jobs.kick();
  await readBusyTimes(deps, vet.userId).catch(() => undefined);
  return statusOf(await findCalendarLink(deps.db, vet.userId));
}

/** GET /api/vets/{vet_id}/calendar: the vet's calendar screen. */
export async function getCalendarSyncStatus(deps: Deps, actor: Actor, vetId: number): Promise<CalendarSyncStatus> {
  const vet = await ownVet(deps, actor, vetId);
  return statusOf(await findCalendarLink(deps.db, vet.userId));
}

/** POST /api/vets/{vet_id}/calendar/refresh: reads the busy times now (the refresh button). */
export async function refreshCalendar(deps: Deps, actor: Actor, vetId: number): Promise<CalendarSyncStatus> {
  const vet = await ownVet(deps, actor, vetId);
  assertAllowed(await deps.limiter.hit(`calendar-refresh:vet:${vet.vetId}`, ACCOUNT_TOKEN_RATE_LIMIT));
  await readBusyTimes(deps, vet.userId).catch(() => undefined);
  return statusOf(await findCalendarLink(deps.db, vet.userId));
}

function statusOf(link: Awaited<ReturnType<typeof findCalendarLink>>): CalendarSyncStatus {
  if (!link) {
    return {
      kind: null,
      url: null,
      username: null,
      calendars: [],
      busy_calendars: [],
      target_calendar: null,
      busy_read_at: null,
      last_error: null,
      last_error_at: null,
      stale: false,
    };
  }
  return {
    kind: link.kind,
    url: link.kind === 'caldav' ? link.url : null,
    username: link.kind === 'caldav' ? link.username : null,
    calendars: link.calendars,
    busy_calendars: link.busyCalendars,
    target_calendar: link.targetCalendar,
    busy_read_at: link.busyReadAt?.toISOString() ?? null,
    last_error: link.lastError,
    last_error_at: link.lastErrorAt?.toISOString() ?? null,
    stale: link.lastErrorAt !== null,
  };
}
