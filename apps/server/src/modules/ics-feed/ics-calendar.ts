/**
 * A small, pure iCalendar (RFC 5545) writer for published feeds and mailed invitations: one VCALENDAR of
 * VEVENTs in UTC. No time zones (every instant is written in UTC), no recurrence.
 */

export interface IcsEvent {
  /** Globally unique and stable across fetches: calendar clients match updates by it. */
  uid: string;
  dtstamp: Date;
  start: Date;
  end: Date;
  summary: string;
  description?: string;
  status: 'TENTATIVE' | 'CONFIRMED' | 'CANCELLED';
  /** Revision number; clients take a higher one as a newer version of the event. */
  sequence: number;
  created?: Date;
  lastModified?: Date;
  /** An absolute http(s) URL for the event (RFC 5545 §3.8.4.6): the join link of a mailed appointment. */
  url?: string;
  /** An invitation's sender (RFC 5546): the clinic's address; calendars show it as the organizer. */
  organizer?: IcsPerson;
  /** The invitation's recipient: calendars file a REQUEST or CANCEL under the attendee it names. */
  attendee?: IcsPerson;
}

export interface IcsPerson {
  name: string;
  email: string;
}

/**
 * The UID of an appointment's event, shared by the ICS feed and every mailed invitation (REQUEST, CANCEL):
 * calendars merge and cancel by it. The integer id, never the hash (the hash names the video room).
 */
export const appointmentEventUid = (appointmentId: number, publicUrl: string) =>
  `appointment-${appointmentId}@${new URL(publicUrl).hostname}`;

export interface IcsCalendar {
  prodId: string;
  /** The calendar's name, for a subscription feed; a mailed single event has none. */
  name?: string;
  /** ISO 8601 duration (PT15M): how often clients should fetch again (RFC 7986 and the Outlook hint); feeds only. */
  refreshInterval?: string;
  events: readonly IcsEvent[];
  /**
   * RFC 5546: PUBLISH for a feed (the default); REQUEST for a mailed invitation and its updates (same UID,
   * higher SEQUENCE); CANCEL when the appointment is cancelled. Google Calendar and Outlook treat REQUEST
   * and CANCEL as invitations only with ORGANIZER and ATTENDEE.
   */
  method?: 'PUBLISH' | 'REQUEST' | 'CANCEL';
}

const CRLF = '\r\n';
/** RFC 5545 §3.1: lines SHOULD NOT be longer than 75 octets, excluding the line break. */
const MAX_LINE_OCTETS = 75;
const DURATION_PATTERN = /^P(?:\d+W|(?:\d+D)?(?:T(?:\d+H)?(?:\d+M)?(?:\d+S)?)?)$/;

/** Characters TEXT must not carry (RFC 5545 §3.3.11: CONTROL except HTAB; line breaks are escaped). */
// eslint-disable-next-line no-control-regex
const FORBIDDEN_CONTROLS = /[\u0000-\u0008\u000B-\u001F\u007F]/g;
/** Unpaired UTF-16 surrogates have no UTF-8 form; they become U+FFFD rather than corrupt the stream. */
const LONE_SURROGATES = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A TEXT value (RFC 5545 §3.3.11): backslash, semicolon and comma escaped, any line break as `\n`. */
export function escapeText(value: string): string {
  return value
    .replace(LONE_SURROGATES, '\uFFFD')
    .replace(/\r\n?/g, '\n')
    .replace(FORBIDDEN_CONTROLS, '')
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\n/g, '\\n');
}

/** How many octets a code point takes in UTF-8. */
function utf8Length(codePoint: number): number {
  if (codePoint < 0x80) return 1;
  if (codePoint < 0x800) return 2;
  if (codePoint < 0x10000) return 3;
  return 4;
}

/**
 * Folds one content line (RFC 5545 §3.1): at most 75 octets per physical line, continuation lines
 * starting with one space. Breaks fall between code points, never inside a UTF-8 sequence.
 */
export function foldLine(line: string): string {
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  // The first line holds 75 octets; each continuation holds 74 after its leading space.
  let room = MAX_LINE_OCTETS;
  for (const character of line) {
    const size = utf8Length(character.codePointAt(0)!);
    if (octets + size > room) {
      parts.push(current);
      current = '';
      octets = 0;
      room = MAX_LINE_OCTETS - 1;
    }
    current += character;
    octets += size;
  }
  parts.push(current);
  return parts.join(`${CRLF} `);
}

/** A UTC DATE-TIME (RFC 5545 §3.3.5 form 2): 20261201T100000Z. */
export function formatUtcDateTime(instant: Date): string {
  if (Number.isNaN(instant.getTime())) throw new RangeError('invalid date');
  return instant
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
}

function property(name: string, value: string): string {
  return foldLine(`${name}:${value}`);
}

/** A URI value is written as is (no TEXT escaping), so it must be an absolute http(s) URL with no controls. */
function uriValue(value: string): string {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007F]/.test(value) || !/^https?:\/\/[^/]/i.test(value) || !URL.canParse(value)) {
    throw new RangeError(`not an absolute http(s) URL: ${JSON.stringify(value)}`);
  }
  return value;
}

/** `ORGANIZER;CN="Name":mailto:address` and the like, with the name's quotes and the address checked. */
function personLine(name: 'ORGANIZER' | 'ATTENDEE', person: IcsPerson, parameters = ''): string {
  if (!/^[^\s"<>:;,]+@[^\s"<>:;,]+$/.test(person.email)) throw new RangeError(`not an email address: ${person.email}`);
  // A quoted parameter value may hold neither DQUOTE nor controls (RFC 5545 §3.1).
  // eslint-disable-next-line no-control-regex
  const cn = person.name.replace(/["\u0000-\u001f\u007f]/g, '');
  return foldLine(`${name};CN="${cn}"${parameters}:mailto:${person.email}`);
}

function eventLines(event: IcsEvent): string[] {
  if (!Number.isSafeInteger(event.sequence) || event.sequence < 0 || event.sequence > 2_147_483_647) {
    throw new RangeError(`SEQUENCE must be a non-negative 32-bit integer, got ${event.sequence}`);
  }
  if (event.end.getTime() <= event.start.getTime()) throw new RangeError(`event ${event.uid} ends before it starts`);
  return [
    'BEGIN:VEVENT',
    property('UID', escapeText(event.uid)),
    property('DTSTAMP', formatUtcDateTime(event.dtstamp)),
    property('DTSTART', formatUtcDateTime(event.start)),
    property('DTEND', formatUtcDateTime(event.end)),
    property('SUMMARY', escapeText(event.summary)),
    ...(event.description ? [property('DESCRIPTION', escapeText(event.description))] : []),
    property('STATUS', event.status),
    property('SEQUENCE', String(event.sequence)),
    ...(event.created ? [property('CREATED', formatUtcDateTime(event.created))] : []),
    ...(event.lastModified ? [property('LAST-MODIFIED', formatUtcDateTime(event.lastModified))] : []),
    ...(event.url ? [property('URL', uriValue(event.url))] : []),
    ...(event.organizer ? [personLine('ORGANIZER', event.organizer)] : []),
    ...(event.attendee ? [personLine('ATTENDEE', event.attendee, ';ROLE=REQ-PARTICIPANT;RSVP=FALSE')] : []),
    'END:VEVENT',
  ];
}

/** The whole iCalendar object: CRLF line endings (the last line too), folded, escaped. */
export function writeCalendar(calendar: IcsCalendar): string {
  const { refreshInterval } = calendar;
  if (refreshInterval !== undefined && !DURATION_PATTERN.test(refreshInterval)) {
    throw new RangeError(`not an ISO 8601 duration: ${refreshInterval}`);
  }
  const name = calendar.name === undefined ? undefined : escapeText(calendar.name);
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    property('PRODID', escapeText(calendar.prodId)),
    'CALSCALE:GREGORIAN',
    `METHOD:${calendar.method ?? 'PUBLISH'}`,
    // NAME and REFRESH-INTERVAL are RFC 7986; the X-WR-/X-PUBLISHED- forms are what Google and Outlook read.
    ...(name === undefined ? [] : [property('NAME', name), property('X-WR-CALNAME', name)]),
    ...(refreshInterval === undefined
      ? []
      : [property('REFRESH-INTERVAL;VALUE=DURATION', refreshInterval), property('X-PUBLISHED-TTL', refreshInterval)]),
    ...calendar.events.flatMap(eventLines),
    'END:VCALENDAR',
  ];
  return lines.join(CRLF) + CRLF;
}
