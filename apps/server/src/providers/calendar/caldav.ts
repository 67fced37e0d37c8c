import type { createDAVClient, DAVCalendar } from 'tsdav';
import { CalendarProviderUnavailable } from './calendar-link-provider.ts';
import {
  type AppointmentCalendarEvent,
  CalendarAuthFailed,
  type CalendarSyncProvider,
  type RemoteEventRef,
} from './calendar-sync-provider.ts';
import { appointmentICalendar, busyRangesOfICalendar } from './ical-busy.ts';

type DavClient = Awaited<ReturnType<typeof createDAVClient>>;

/** The limit on one request to a CalDAV server, body included. */
export const CALDAV_TIMEOUT_MS = 8000;

export interface CalDavSettings {
  /** The server or principal URL the vet entered (Nextcloud's remote.php/dav, Fastmail's, iCloud's, …). */
  url: string;
  username: string;
  password: string;
  /** The vet's zone: all-day and floating events are read in it. */
  timeZone: string;
  /** Events with these UIDs are VetCall's own appointments, already busy here: not read back. */
  skipUid?: (uid: string) => boolean;
  timeoutMs?: number;
}

/**
 * A CalDAV account through tsdav (loaded on first use: most servers never link one). Every request has a
 * deadline; a 401 or 403 seen on any of them makes the call a CalendarAuthFailed, any other failure a
 * CalendarProviderUnavailable. Messages carry statuses, never the credentials.
 */
export function createCalDavCalendarSync(settings: CalDavSettings): CalendarSyncProvider {
  const timeoutMs = settings.timeoutMs ?? CALDAV_TIMEOUT_MS;

  async function withClient<T>(action: (client: DavClient) => Promise<T>): Promise<T> {
    let refused: number | null = null;
    const timedFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) });
      if (response.status === 401 || response.status === 403) refused = response.status;
      return response;
    };
    try {
      const { createDAVClient } = await import('tsdav');
      const client = await createDAVClient({
        serverUrl: settings.url,
        credentials: { username: settings.username, password: settings.password },
        authMethod: 'Basic',
        defaultAccountType: 'caldav',
        fetch: timedFetch,
      });
      const result = await action(client);
      if (refused !== null) throw new CalendarAuthFailed(`CalDAV: the server answered HTTP ${refused}`);
      return result;
    } catch (error) {
      if (error instanceof CalendarAuthFailed || error instanceof CalendarProviderUnavailable) throw error;
      if (refused !== null) throw new CalendarAuthFailed(`CalDAV: the server answered HTTP ${refused}`);
      const reason =
        error instanceof Error && error.name === 'TimeoutError'
          ? `no answer within ${timeoutMs} ms`
          : 'unreachable or not a CalDAV server';
      throw new CalendarProviderUnavailable(`CalDAV: ${reason}`, { cause: error });
    }
  }

  const checked = async (response: Response, what: string, allowed: number[] = []) => {
    // The body is read so the connection is freed.
    await response.arrayBuffer().catch(() => undefined);
    if (response.ok || allowed.includes(response.status)) return response;
    if (response.status === 401 || response.status === 403)
      throw new CalendarAuthFailed(`CalDAV: ${what} answered HTTP ${response.status}`);
    throw new CalendarProviderUnavailable(`CalDAV: ${what} answered HTTP ${response.status}`);
  };

  /** A collection URL with its trailing slash: object URLs are resolved against it. */
  const calendarAt = (url: string): DAVCalendar => ({ url: url.endsWith('/') ? url : `${url}/` });

  return {
    kind: 'caldav',
    listCalendars: () =>
      withClient(async (client) => {
        const calendars = await client.fetchCalendars();
        return calendars
          .filter((calendar) => !calendar.components || calendar.components.includes('VEVENT'))
          .map((calendar) => ({
            url: calendar.url,
            name:
              typeof calendar.displayName === 'string' && calendar.displayName ? calendar.displayName : calendar.url,
          }));
      }),

    busyRanges: (calendars, window) =>
      withClient(async (client) => {
        const texts: string[] = [];
        for (const url of calendars) {
          const objects = await client.fetchCalendarObjects({
            calendar: calendarAt(url),
            timeRange: { start: window.from.toISOString(), end: window.to.toISOString() },
          });
          for (const object of objects) if (typeof object.data === 'string' && object.data) texts.push(object.data);
        }
        return busyRangesOfICalendar(texts, window, settings.timeZone, settings.skipUid);
      }),

    putEvent: (calendar, event: AppointmentCalendarEvent, existing: RemoteEventRef | null) =>
      withClient(async (client) => {
        const data = appointmentICalendar(event);
        if (existing) {
          // Our own event: the newest appointment wins over an edit in the calendar (no If-Match).
          const response = await checked(
            await client.updateCalendarObject({ calendarObject: { url: existing.href, data } }),
            'PUT',
          );
          return { href: existing.href, etag: response.headers.get('etag') };
        }
        const filename = `${encodeURIComponent(event.uid)}.ics`;
        const href = new URL(filename, calendarAt(calendar).url).href;
        // If-None-Match: * (tsdav); 412 means an earlier attempt wrote it before its answer was lost: overwrite.
        const created = await checked(
          await client.createCalendarObject({ calendar: calendarAt(calendar), filename, iCalString: data }),
          'PUT',
          [412],
        );
        const response =
          created.status === 412
            ? await checked(await client.updateCalendarObject({ calendarObject: { url: href, data } }), 'PUT')
            : created;
        return { href, etag: response.headers.get('etag') };
      }),

    deleteEvent: (_calendar, ref) =>
      withClient(async (client) => {
        // Already gone (the vet deleted it) is what was asked.
        await checked(await client.deleteCalendarObject({ calendarObject: { url: ref.href } }), 'DELETE', [404, 410]);
      }),
  };
}
