import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { appointmentICalendar, busyRangesOfICalendar } from './ical-busy.ts';

const ics = (...lines: string[]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//EN', ...lines, 'END:VCALENDAR', ''].join('\r\n');
const event = (uid: string, ...lines: string[]) => [
  'BEGIN:VEVENT',
  `UID:${uid}`,
  'DTSTAMP:20261101T000000Z',
  ...lines,
  'END:VEVENT',
];
const WEEK = { from: new Date('2026-11-23T00:00:00Z'), to: new Date('2026-11-30T00:00:00Z') };
const iso = (ranges: { start: Date; end: Date }[]) =>
  ranges.map((range) => [range.start.toISOString(), range.end.toISOString()]).sort();

describe('busyRangesOfICalendar', () => {
  it('expands a weekly rule in its zone across a DST change, with a moved and a cancelled occurrence', () => {
    const text = ics(
      ...event(
        'weekly',
        'DTSTART;TZID=Europe/Lisbon:20261020T090000',
        'DTEND;TZID=Europe/Lisbon:20261020T100000',
        'RRULE:FREQ=WEEKLY;BYDAY=TU,TH',
        'EXDATE;TZID=Europe/Lisbon:20261126T090000',
      ),
      ...event(
        'weekly',
        'RECURRENCE-ID;TZID=Europe/Lisbon:20261124T090000',
        'DTSTART;TZID=Europe/Lisbon:20261124T150000',
        'DTEND;TZID=Europe/Lisbon:20261124T153000',
      ),
    );
    expect(iso(busyRangesOfICalendar([text], WEEK, 'UTC'))).toEqual([
      ['2026-11-24T15:00:00.000Z', '2026-11-24T15:30:00.000Z'],
    ]);
    // October, before the change back from summer time: 09:00 Lisbon is 08:00 UTC.
    const october = { from: new Date('2026-10-20T00:00:00Z'), to: new Date('2026-10-21T00:00:00Z') };
    expect(iso(busyRangesOfICalendar([text], october, 'UTC'))).toEqual([
      ['2026-10-20T08:00:00.000Z', '2026-10-20T09:00:00.000Z'],
    ]);
  });

  it('reads all-day events as whole days of the vet’s zone, and floating times in it too', () => {
    const text = ics(
      ...event('off', 'DTSTART;VALUE=DATE:20261125', 'DTEND;VALUE=DATE:20261126'),
      ...event('floating', 'DTSTART:20261127T100000', 'DURATION:PT45M'),
    );
    expect(iso(busyRangesOfICalendar([text], WEEK, 'America/Sao_Paulo'))).toEqual([
      ['2026-11-25T03:00:00.000Z', '2026-11-26T03:00:00.000Z'],
      ['2026-11-27T13:00:00.000Z', '2026-11-27T13:45:00.000Z'],
    ]);
  });

  it('leaves out free and cancelled events, events outside the window and VetCall’s own appointments', () => {
    const text = ics(
      ...event('free', 'DTSTART:20261124T100000Z', 'DTEND:20261124T110000Z', 'TRANSP:TRANSPARENT'),
      ...event('gone', 'DTSTART:20261124T120000Z', 'DTEND:20261124T130000Z', 'STATUS:CANCELLED'),
      ...event('later', 'DTSTART:20261201T100000Z', 'DTEND:20261201T110000Z'),
      ...event('appointment-7@vetcall.test', 'DTSTART:20261124T140000Z', 'DTEND:20261124T143000Z'),
      ...event('busy', 'DTSTART:20261124T160000Z', 'DTEND:20261124T170000Z'),
    );
    const ranges = busyRangesOfICalendar([text], WEEK, 'UTC', (uid) => uid.startsWith('appointment-'));
    expect(iso(ranges)).toEqual([['2026-11-24T16:00:00.000Z', '2026-11-24T17:00:00.000Z']]);
  });

  it('stops an endless rule at the window', () => {
    const text = ics(...event('every-hour', 'DTSTART:20200101T000000Z', 'DURATION:PT30M', 'RRULE:FREQ=HOURLY'));
    const day = { from: new Date('2020-01-01T00:00:00Z'), to: new Date('2020-01-02T00:00:00Z') };
    expect(busyRangesOfICalendar([text], day, 'UTC')).toHaveLength(24);
  });
});

describe('appointmentICalendar', () => {
  it('writes one VEVENT in UTC that an independent parse reads back', () => {
    const text = appointmentICalendar({
      uid: 'appointment-3@vetcall.test',
      start: new Date('2026-11-25T13:00:00Z'),
      end: new Date('2026-11-25T13:30:00Z'),
      summary: 'VetCall: Tareco (Bruno; Reis, \\ "x")',
      description: 'Line one\nJoin: https://vetcall.test/appointment/654321?lang=pt',
      url: 'https://vetcall.test/appointment/654321?lang=pt',
      sequence: 2,
      stamp: new Date('2026-11-18T12:00:00Z'),
    });
    const parsed = new ICAL.Event(new ICAL.Component(ICAL.parse(text) as unknown[]).getFirstSubcomponent('vevent')!);
    expect(parsed.uid).toBe('appointment-3@vetcall.test');
    expect(parsed.summary).toBe('VetCall: Tareco (Bruno; Reis, \\ "x")');
    expect(parsed.description).toContain('\nJoin: https://vetcall.test/appointment/654321?lang=pt');
    expect(parsed.startDate.toJSDate().toISOString()).toBe('2026-11-25T13:00:00.000Z');
    expect(parsed.endDate.toJSDate().toISOString()).toBe('2026-11-25T13:30:00.000Z');
    expect(parsed.sequence).toBe(2);
  });
});
