import fc from 'fast-check';
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { escapeText, foldLine, formatUtcDateTime, type IcsEvent, writeCalendar } from './ics-calendar.ts';

const octets = (text: string) => Buffer.byteLength(text, 'utf8');
/** RFC 5545 §3.1 unfolding: a CRLF followed by one space or tab is removed. */
const unfold = (text: string) => text.replace(/\r\n[ \t]/g, '');

function event(overrides: Partial<IcsEvent> = {}): IcsEvent {
  return {
    uid: 'appointment-7@vetcall.test',
    dtstamp: new Date('2026-11-19T08:30:00Z'),
    start: new Date('2026-12-01T10:00:00Z'),
    end: new Date('2026-12-01T10:30:00Z'),
    summary: 'Video consultation: Bolinha (Ana)',
    description: 'Limping since yesterday.',
    status: 'CONFIRMED',
    sequence: 12,
    lastModified: new Date('2026-11-19T08:30:00Z'),
    ...overrides,
  };
}

const calendar = (events: IcsEvent[], name = 'VetCall – Rui') => ({
  prodId: '-//VetCall//Appointments//EN',
  name,
  refreshInterval: 'PT15M',
  events,
});

describe('escapeText (RFC 5545 §3.3.11)', () => {
  it.each([
    ['plain text: colons stay', 'plain text: colons stay'],
    ['a,b;c', 'a\\,b\\;c'],
    ['back\\slash', 'back\\\\slash'],
    ['line one\nline two', 'line one\\nline two'],
    ['windows\r\nbreak and old mac\rbreak', 'windows\\nbreak and old mac\\nbreak'],
    ['already escaped \\n stays literal', 'already escaped \\\\n stays literal'],
    ['tab\tkept, bell\u0007 and NUL\u0000 dropped, DEL\u007f too', 'tab\tkept\\, bell and NUL dropped\\, DEL too'],
    ['Ração, 🐶; “quotes”', 'Ração\\, 🐶\\; “quotes”'],
    ['lone \uD83D surrogate', 'lone \uFFFD surrogate'],
  ])('escapes %j', (input, expected) => {
    expect(escapeText(input)).toBe(expected);
  });
});

describe('foldLine (RFC 5545 §3.1)', () => {
  it('leaves a line of up to 75 octets alone', () => {
    const line = 'X'.repeat(75);
    expect(foldLine(line)).toBe(line);
    expect(foldLine('')).toBe('');
  });

  it('breaks a 76-octet line after 75 octets, the continuation starting with one space', () => {
    expect(foldLine('A'.repeat(76))).toBe(`${'A'.repeat(75)}\r\n A`);
  });

  it('puts 74 octets after the space of each continuation line', () => {
    const physical = foldLine('B'.repeat(75 + 74 + 10)).split('\r\n');
    expect(physical.map(octets)).toEqual([75, 75, 11]);
    expect(physical.slice(1).every((line) => line.startsWith(' '))).toBe(true);
  });

  it('never splits a multi-byte UTF-8 character: it moves whole to the next line', () => {
    // 74 ASCII octets, then 'é' (2 octets) would end at octet 76: it starts the next line instead.
    expect(foldLine(`${'a'.repeat(74)}é`)).toBe(`${'a'.repeat(74)}\r\n é`);
    // '€' is 3 octets: 73 + 3 > 75.
    expect(foldLine(`${'a'.repeat(73)}€b`)).toBe(`${'a'.repeat(73)}\r\n €b`);
    // '🐶' is 4 octets (a surrogate pair in UTF-16): kept whole.
    expect(foldLine(`${'a'.repeat(72)}🐶`)).toBe(`${'a'.repeat(72)}\r\n 🐶`);
    // Exactly 75 octets with a 4-octet character at the end: no fold.
    expect(foldLine(`${'a'.repeat(71)}🐶`)).toBe(`${'a'.repeat(71)}🐶`);
  });

  it('folds any text into ≤ 75-octet lines of valid UTF-8 that unfold to the original', () => {
    const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (text) => {
        const folded = foldLine(text);
        const physical = folded.split('\r\n');
        for (const [index, line] of physical.entries()) {
          expect(octets(line)).toBeLessThanOrEqual(75);
          if (index > 0) expect(line.startsWith(' ')).toBe(true);
          // A split surrogate pair would show as U+FFFD after the UTF-8 round trip.
          expect(strictUtf8.decode(Buffer.from(line, 'utf8'))).toBe(line);
          expect(line).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
        }
        expect(unfold(folded)).toBe(text);
      }),
    );
  });
});

describe('formatUtcDateTime', () => {
  it('writes the UTC form with a Z and no separators or milliseconds', () => {
    expect(formatUtcDateTime(new Date('2026-03-29T01:05:09.999Z'))).toBe('20260329T010509Z');
  });

  it('refuses an invalid date', () => {
    expect(() => formatUtcDateTime(new Date('nope'))).toThrow(RangeError);
  });
});

describe('writeCalendar', () => {
  it('writes the calendar properties and one VEVENT per event, CRLF everywhere', () => {
    const text = writeCalendar(calendar([event()]));
    expect(text).toBe(
      [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//VetCall//Appointments//EN',
        'CALSCALE:GREGORIAN',
        'METHOD:PUBLISH',
        'NAME:VetCall – Rui',
        'X-WR-CALNAME:VetCall – Rui',
        'REFRESH-INTERVAL;VALUE=DURATION:PT15M',
        'X-PUBLISHED-TTL:PT15M',
        'BEGIN:VEVENT',
        'UID:appointment-7@vetcall.test',
        'DTSTAMP:20261119T083000Z',
        'DTSTART:20261201T100000Z',
        'DTEND:20261201T103000Z',
        'SUMMARY:Video consultation: Bolinha (Ana)',
        'DESCRIPTION:Limping since yesterday.',
        'STATUS:CONFIRMED',
        'SEQUENCE:12',
        'LAST-MODIFIED:20261119T083000Z',
        'END:VEVENT',
        'END:VCALENDAR',
        '',
      ].join('\r\n'),
    );
  });

  it('has no bare LF or CR, even when texts carry line breaks', () => {
    const text = writeCalendar(calendar([event({ description: 'one\ntwo\r\nthree\rfour' })], 'Dr.\nEvil'));
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(text).toContain('DESCRIPTION:one\\ntwo\\nthree\\nfour\r\n');
    expect(text).toContain('X-WR-CALNAME:Dr.\\nEvil\r\n');
  });

  it('writes an empty calendar without events', () => {
    const text = writeCalendar(calendar([]));
    expect(text).not.toContain('BEGIN:VEVENT');
    expect(new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent')).toHaveLength(0);
  });

  it('leaves out DESCRIPTION when there is none and writes CREATED when given', () => {
    const text = writeCalendar(
      calendar([event({ description: '', created: new Date('2026-11-01T00:00:00Z'), lastModified: undefined })]),
    );
    expect(text).not.toContain('DESCRIPTION');
    expect(text).not.toContain('LAST-MODIFIED');
    expect(text).toContain('CREATED:20261101T000000Z\r\n');
  });

  it('round-trips tricky texts through an independent parser (ical.js)', () => {
    const summary = 'Video consultation: Rex, “o Bravo”; 🐶 (Silva\\Ana)';
    const description = `Coughs; sneezes, and\nvomits.\n${'Ração é cara. '.repeat(12)}🐈‍⬛ end`;
    const text = writeCalendar(calendar([event({ summary, description })], 'VetCall – João Gonçalves, DVM'));
    for (const line of text.split('\r\n')) expect(octets(line)).toBeLessThanOrEqual(75);

    const vcalendar = new ICAL.Component(ICAL.parse(text));
    // ical.js does not know X-WR-CALNAME's type and hands over the raw value: escaped TEXT, as written.
    expect(vcalendar.getFirstPropertyValue('x-wr-calname')).toBe('VetCall – João Gonçalves\\, DVM');
    expect(vcalendar.getFirstPropertyValue('method')).toBe('PUBLISH');
    const [vevent] = vcalendar.getAllSubcomponents('vevent');
    const parsed = new ICAL.Event(vevent);
    expect(parsed.uid).toBe('appointment-7@vetcall.test');
    expect(parsed.summary).toBe(summary);
    expect(parsed.description).toBe(description);
    expect(parsed.startDate.toJSDate().toISOString()).toBe('2026-12-01T10:00:00.000Z');
    expect(parsed.endDate.toJSDate().toISOString()).toBe('2026-12-01T10:30:00.000Z');
    expect(parsed.startDate.zone?.tzid).toBe('UTC');
    expect(vevent!.getFirstPropertyValue('sequence')).toBe(12);
    expect(vevent!.getFirstPropertyValue('status')).toBe('CONFIRMED');
  });

  it.each([
    ['a negative SEQUENCE', event({ sequence: -1 })],
    ['a fractional SEQUENCE', event({ sequence: 1.5 })],
    ['a SEQUENCE over 32 bits', event({ sequence: 2 ** 31 })],
    ['an end before the start', event({ end: new Date('2026-12-01T09:00:00Z') })],
  ])('refuses %s', (_, bad) => {
    expect(() => writeCalendar(calendar([bad]))).toThrow(RangeError);
  });

  it('refuses a refresh interval that is not an ISO 8601 duration (nothing can be injected there)', () => {
    expect(() => writeCalendar({ ...calendar([]), refreshInterval: 'PT15M\r\nX-EVIL:1' })).toThrow(RangeError);
  });
});

describe('writeCalendar for a mailed single event (no name, no refresh interval, a URL)', () => {
  const invitation = (url: string) => ({
    prodId: '-//VetCall//Appointment//EN',
    events: [event({ url })],
  });

  it('leaves out the feed properties and writes the URL as is, last in the event', () => {
    const url = 'http://vetcall.test/appointment/123456?lang=pt-BR';
    const text = writeCalendar(invitation(url));
    expect(text).not.toMatch(/NAME|REFRESH-INTERVAL|X-PUBLISHED-TTL/);
    expect(text).toContain(`URL:${url}\r\nEND:VEVENT\r\n`);
    const [vevent] = new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent');
    expect(vevent!.getFirstPropertyValue('url')).toBe(url);
  });

  it.each([
    ['a relative URL', '/appointment/123456'],
    ['another scheme', 'javascript:alert(1)'],
    ['a line break', 'http://vetcall.test/a\r\nX-EVIL:1'],
    ['a space', 'http://vetcall.test/a b'],
  ])('refuses %s', (_, url) => {
    expect(() => writeCalendar(invitation(url))).toThrow(RangeError);
  });
});
