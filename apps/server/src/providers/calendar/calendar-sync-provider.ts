/** A calendar of the vet's account, as the pickers show it: a CalDAV collection URL or an Aurinko calendar id. */
export interface RemoteCalendar {
  url: string;
  name: string;
}

/** A time the vet's own calendar shows as taken, [start, end). */
export interface RemoteBusyRange {
  start: Date;
  end: Date;
}

/** An appointment as written into the vet's calendar: no observations, no customer contact details. */
export interface AppointmentCalendarEvent {
  uid: string;
  start: Date;
  end: Date;
  /** Pet and customer. */
  summary: string;
  description: string;
  /** The vet's join link. */
  url: string;
  sequence: number;
  stamp: Date;
}

/** Where a written event lives: the CalDAV object URL (and its ETag), or the Aurinko event id. */
export interface RemoteEventRef {
  href: string;
  etag: string | null;
}

/**
 * Reads and writes a vet's own calendar (ADR 019). Every call throws CalendarAuthFailed when the server
 * refuses the credentials and CalendarProviderUnavailable when it cannot be asked (network, timeout, 5xx).
 */
export interface CalendarSyncProvider {
  readonly kind: 'builtin' | 'caldav' | 'aurinko';
  /** Checks the credentials and lists the calendars that hold events. */
  listCalendars(): Promise<RemoteCalendar[]>;
  /** Busy ranges of these calendars overlapping [from, to): recurrences expanded, free and cancelled left out. */
  busyRanges(calendars: readonly string[], window: { from: Date; to: Date }): Promise<RemoteBusyRange[]>;
  /** Writes the event: a new one, or over `existing`. */
  putEvent(calendar: string, event: AppointmentCalendarEvent, existing: RemoteEventRef | null): Promise<RemoteEventRef>;
  /** Removes a written event; one already gone is fine. */
  deleteEvent(calendar: string, ref: RemoteEventRef): Promise<void>;
}

/** The calendar server refused the credentials (401/403). */
export class CalendarAuthFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CalendarAuthFailed';
  }
}

/** VetCall's own calendar has nothing outside to read or write. */
export const builtinCalendarSync: CalendarSyncProvider = {
  kind: 'builtin',
  listCalendars: () => Promise.resolve([]),
  busyRanges: () => Promise.resolve([]),
  putEvent: (_calendar, event) => Promise.resolve({ href: event.uid, etag: null }),
  deleteEvent: () => Promise.resolve(),
};
