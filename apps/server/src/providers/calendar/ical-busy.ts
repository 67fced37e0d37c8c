import ICAL from 'ical.js';
import { isValidTimeZone, zonedWallTimeToInstant } from '@vetcall/shared/scheduling/zoned-time';
import type { AppointmentCalendarEvent, RemoteBusyRange } from './calendar-sync-provider.ts';

/** A runaway rule (FREQ=SECONDLY, no end) stops here for one event. */
const MAX_OCCURRENCES_PER_EVENT = 5000;

type IcalTime = InstanceType<typeof ICAL.Time>;
type IcalComponent = InstanceType<typeof ICAL.Component>;

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/**
 * The instant of an iCalendar time: UTC as is; a TZID or floating time (and an all-day date, at midnight)
 * as the wall time of that zone, or of `fallbackZone` (the vet's) when it has none or an unknown one.
 */
function toInstant(time: IcalTime, tzid: string | null, fallbackZone: string): Date {
  if (!time.isDate && time.zone?.tzid === 'UTC') return time.toJSDate();
  const zone = tzid && isValidTimeZone(tzid) ? tzid : fallbackZone;
  const dateKey = `${pad(time.year, 4)}-${pad(time.month)}-${pad(time.day)}`;
  const wall = zonedWallTimeToInstant(dateKey, time.isDate ? '00:00' : `${pad(time.hour)}:${pad(time.minute)}`, zone);
  return new Date(wall.getTime() + (time.isDate ? 0 : time.second * 1000));
}

const tzidOf = (component: IcalComponent, name: 'dtstart' | 'dtend') => {
  const value = component.getFirstProperty(name)?.getParameter('tzid');
  return typeof value === 'string' ? value : null;
};

/** Whether an event takes the vet's time: not marked free (TRANSP:TRANSPARENT), not cancelled. */
function occupies(component: IcalComponent): boolean {
  const transparency = String(component.getFirstPropertyValue('transp') ?? '').toUpperCase();
  const status = String(component.getFirstPropertyValue('status') ?? '').toUpperCase();
  return transparency !== 'TRANSPARENT' && status !== 'CANCELLED';
}

/**
 * The busy ranges of iCalendar objects (as CalDAV serves them) overlapping [from, to): recurring events
 * expanded with their exceptions, all-day events as whole days of `fallbackZone`, times in any zone.
 * Events whose UID `skipUid` accepts (the appointments VetCall itself wrote) are left out.
 */
export function busyRangesOfICalendar(
  texts: readonly string[],
  window: { from: Date; to: Date },
  fallbackZone: string,
  skipUid: (uid: string) => boolean = () => false,
): RemoteBusyRange[] {
  const ranges: RemoteBusyRange[] = [];
  const keep = (start: Date, end: Date) => {
    if (start < window.to && end > window.from && start < end) ranges.push({ start, end });
  };
  for (const text of texts) {
    const calendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
    const byUid = new Map<string, IcalComponent[]>();
    for (const vevent of calendar.getAllSubcomponents('vevent')) {
      const uid = String(vevent.getFirstPropertyValue('uid') ?? '');
      if (skipUid(uid)) continue;
      byUid.set(uid, [...(byUid.get(uid) ?? []), vevent]);
    }
    for (const components of byUid.values()) {
      const master = components.find((component) => !component.hasProperty('recurrence-id')) ?? components[0]!;
      const event = new ICAL.Event(master);
      for (const exception of components) if (exception !== master) event.relateException(exception);
      if (!event.isRecurring()) {
        if (!occupies(master)) continue;
        keep(
          toInstant(event.startDate, tzidOf(master, 'dtstart'), fallbackZone),
          toInstant(event.endDate, tzidOf(master, 'dtend') ?? tzidOf(master, 'dtstart'), fallbackZone),
        );
        continue;
      }
      const iterator = event.iterator();
      for (let count = 0; count < MAX_OCCURRENCES_PER_EVENT; count += 1) {
        const next = iterator.next();
        if (!next) break;
        const details = event.getOccurrenceDetails(next);
        const item = details.item.component;
        const start = toInstant(details.startDate, tzidOf(item, 'dtstart'), fallbackZone);
        if (start >= window.to) break;
        if (!occupies(item)) continue;
        keep(start, toInstant(details.endDate, tzidOf(item, 'dtend') ?? tzidOf(item, 'dtstart'), fallbackZone));
      }
    }
  }
  return ranges;
}

/** An appointment as one VEVENT of a VCALENDAR object, written by ical.js (never by string building). */
export function appointmentICalendar(event: AppointmentCalendarEvent): string {
  const calendar = new ICAL.Component(['vcalendar', [], []]);
  calendar.updatePropertyWithValue('prodid', '-//VetCall//Appointments//EN');
  calendar.updatePropertyWithValue('version', '2.0');
  const vevent = new ICAL.Component('vevent');
  vevent.addPropertyWithValue('uid', event.uid);
  vevent.addPropertyWithValue('dtstamp', ICAL.Time.fromJSDate(event.stamp, true));
  vevent.addPropertyWithValue('dtstart', ICAL.Time.fromJSDate(event.start, true));
  vevent.addPropertyWithValue('dtend', ICAL.Time.fromJSDate(event.end, true));
  vevent.addPropertyWithValue('summary', event.summary);
  vevent.addPropertyWithValue('description', event.description);
  vevent.addPropertyWithValue('url', event.url);
  vevent.addPropertyWithValue('sequence', event.sequence);
  calendar.addSubcomponent(vevent);
  return calendar.toString();
}
