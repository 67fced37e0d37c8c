import {
  type AccountTokenVerdict,
  authorizeQuery,
  type CalendarLinkProvider,
  CalendarProviderUnavailable,
} from './calendar-link-provider.ts';
import { isValidTimeZone, zonedWallTimeToInstant } from '@vetcall/shared/scheduling/zoned-time';
import {
  type AppointmentCalendarEvent,
  CalendarAuthFailed,
  type CalendarSyncProvider,
  type RemoteBusyRange,
} from './calendar-sync-provider.ts';

/** The limit on one call to Aurinko, body included. */
export const AURINKO_TIMEOUT_MS = 5000;

export interface AurinkoSettings {
  /** Aurinko's API origin without a trailing slash (AURINKO_URL). */
  baseUrl: string;
  clientId: string;
  serviceType: string;
  /** The product's own address: the browser comes back to its /auth/callback. */
  publicUrl: string;
  /** Defaults to AURINKO_TIMEOUT_MS; tests pass a short one. */
  timeoutMs?: number;
}

/**
 * Aurinko (https://docs.aurinko.io): its Account OAuth flow with responseType=token hands the account
 * token to /auth/callback; GET /v1/account with that token as a bearer tells whether it is good.
 */
export function createAurinkoCalendarProvider(settings: AurinkoSettings): CalendarLinkProvider {
  return {
    kind: 'aurinko',
    authorizeUrl(request) {
      const query = authorizeQuery({ ...settings, request });
      return `${settings.baseUrl}/v1/auth/authorize?${query.toString()}`;
    },
    verifyAccountToken: (token) => verifyAurinkoAccountToken(settings, token),
  };
}

/**
 * 200 means Aurinko knows the account; 401 and 403 mean it refuses the token. Anything else (network
 * error, timeout, 5xx, another status) says nothing about the token: CalendarProviderUnavailable.
 * Messages never carry the token.
 */
export async function verifyAurinkoAccountToken(
  settings: Pick<AurinkoSettings, 'baseUrl' | 'timeoutMs'>,
  token: string,
): Promise<AccountTokenVerdict> {
  const timeoutMs = settings.timeoutMs ?? AURINKO_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  let status: number;
  try {
    const response = await fetch(`${settings.baseUrl}/v1/account`, {
      signal,
      redirect: 'error',
      headers: { accept: 'application/json', authorization: `Bearer ${token}` },
    });
    status = response.status;
    // The body is read (within the timeout) so the connection is freed; only the status matters.
    await response.arrayBuffer();
  } catch (error) {
    const reason = signal.aborted ? `no answer within ${timeoutMs} ms` : 'unreachable';
    throw new CalendarProviderUnavailable(`Aurinko: ${reason}`, { cause: error });
  }
  if (status === 200) return 'valid';
  if (status === 401 || status === 403) return 'invalid';
  throw new CalendarProviderUnavailable(`Aurinko: GET /v1/account answered HTTP ${status}`);
}

/** One end of an Aurinko event: a dateTime (with its zone) or, all day, a date. */
interface AurinkoTime {
  dateTime?: string;
  date?: string;
  timezone?: string;
}

interface AurinkoEvent {
  id: string;
  start?: AurinkoTime;
  end?: AurinkoTime;
  showAs?: string;
  status?: string;
  iCalUid?: string;
}

/**
 * A vet's calendars through Aurinko's unified calendar API (https://docs.aurinko.io/unified-apis/calendar-api):
 * GET /v1/calendars, GET /v1/calendars/{id}/events/range (occurrences of recurring events already expanded),
 * POST / PATCH / DELETE /v1/calendars/{id}/events[/{eventId}], with the account token as a bearer.
 */
export function createAurinkoCalendarSync(
  settings: Pick<AurinkoSettings, 'baseUrl' | 'timeoutMs'> & {
    token: string;
    timeZone: string;
    skipUid?: (uid: string) => boolean;
  },
): CalendarSyncProvider {
  const timeoutMs = settings.timeoutMs ?? AURINKO_TIMEOUT_MS;

  async function call<T>(method: string, path: string, body?: unknown, allowed: number[] = []): Promise<T | null> {
    const signal = AbortSignal.timeout(timeoutMs);
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${settings.baseUrl}${path}`, {
        method,
        signal,
        redirect: 'error',
        headers: {
          accept: 'application/json',
          authorization: `Bearer ${settings.token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      text = await response.text();
    } catch (error) {
      const reason = signal.aborted ? `no answer within ${timeoutMs} ms` : 'unreachable';
      throw new CalendarProviderUnavailable(`Aurinko: ${reason}`, { cause: error });
    }
    if (response.status === 401 || response.status === 403) {
      throw new CalendarAuthFailed(`Aurinko: ${method} ${path.split('?')[0]} answered HTTP ${response.status}`);
    }
    if (allowed.includes(response.status)) return null;
    if (!response.ok) {
      throw new CalendarProviderUnavailable(
        `Aurinko: ${method} ${path.split('?')[0]} answered HTTP ${response.status}`,
      );
    }
    try {
      return (text ? JSON.parse(text) : {}) as T;
    } catch (error) {
      throw new CalendarProviderUnavailable('Aurinko: an answer that is not JSON', { cause: error });
    }
  }

  const toInstant = (time: AurinkoTime | undefined): Date | null => {
    if (time?.dateTime) {
      // With an offset or Z it is an instant; without one it is the wall time of its zone.
      if (/(?:Z|[+-]\d\d:?\d\d)$/.test(time.dateTime)) return new Date(time.dateTime);
      const [date, clock = '00:00'] = time.dateTime.split('T');
      const zone = time.timezone && isValidTimeZone(time.timezone) ? time.timezone : settings.timeZone;
      return zonedWallTimeToInstant(date!, clock.slice(0, 5), zone);
    }
    if (time?.date) return zonedWallTimeToInstant(time.date, '00:00', settings.timeZone);
    return null;
  };

  const eventBody = (event: AppointmentCalendarEvent) => ({
    subject: event.summary,
    description: `${event.description}\n${event.url}`,
    location: event.url,
    start: { dateTime: event.start.toISOString(), timezone: 'UTC' },
    end: { dateTime: event.end.toISOString(), timezone: 'UTC' },
    showAs: 'busy',
  });

  const calendarPath = (calendar: string) => `/v1/calendars/${encodeURIComponent(calendar)}`;

  return {
    kind: 'aurinko',
    async listCalendars() {
      const page = await call<{ records?: { id: string; name?: string }[] }>('GET', '/v1/calendars');
      return (page?.records ?? []).map((record) => ({ url: record.id, name: record.name || record.id }));
    },
    async busyRanges(calendars, window) {
      const ranges: RemoteBusyRange[] = [];
      for (const calendar of calendars) {
        let pageToken: string | undefined;
        do {
          const query = new URLSearchParams({ timeMin: window.from.toISOString(), timeMax: window.to.toISOString() });
          if (pageToken) query.set('pageToken', pageToken);
          const page = await call<{ records?: AurinkoEvent[]; nextPageToken?: string }>(
            'GET',
            `${calendarPath(calendar)}/events/range?${query.toString()}`,
          );
          for (const event of page?.records ?? []) {
            if (event.showAs === 'free' || event.status === 'cancelled') continue;
            if (event.iCalUid && settings.skipUid?.(event.iCalUid)) continue;
            const start = toInstant(event.start);
            const end = toInstant(event.end);
            if (start && end && start < window.to && end > window.from && start < end) ranges.push({ start, end });
          }
          pageToken = page?.nextPageToken || undefined;
        } while (pageToken);
      }
      return ranges;
    },
    async putEvent(calendar, event, existing) {
      if (existing) {
        const updated = await call<AurinkoEvent>(
          'PATCH',
          `${calendarPath(calendar)}/events/${encodeURIComponent(existing.href)}`,
          eventBody(event),
          [404],
        );
        if (updated !== null) return { href: existing.href, etag: null };
      }
      // New, or the vet deleted it from their calendar: written again.
      const created = await call<AurinkoEvent>('POST', `${calendarPath(calendar)}/events`, eventBody(event));
      if (!created?.id) throw new CalendarProviderUnavailable('Aurinko: the created event has no id');
      return { href: created.id, etag: null };
    },
    async deleteEvent(calendar, ref) {
      await call('DELETE', `${calendarPath(calendar)}/events/${encodeURIComponent(ref.href)}`, undefined, [404, 410]);
    },
  };
}
