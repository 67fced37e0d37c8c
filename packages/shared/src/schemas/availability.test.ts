import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { DEFAULT_AVAILABILITY_HORIZON, DEFAULT_VET_DESCRIPTION } from '../constants.ts';
import {
  availabilityProfileSchema,
  availabilityProfileUpdateSchema,
  isoWeekdayOf,
  timeOfDaySchema,
  WEEKDAYS,
  workingIntervalSchema,
} from './availability.ts';
import { fieldErrorsFromIssues } from './fields.ts';

/** The per-field codes the server would answer for an input (what the editor shows too). */
function fieldsOf(schema: z.ZodType, input: unknown) {
  const result = schema.safeParse(input);
  if (result.success) return {};
  return fieldErrorsFromIssues(result.error.issues);
}

type Interval = { start: string; end: string };

/** A complete, valid profile body (PATCH shape, without id). */
function profileBody(
  overrides: {
    days?: { dayOfWeek: string; workingIntervals: Interval[] }[];
    dates?: { dateStartInclusive: string; hours: Interval[] }[];
    timezone?: string;
    [key: string]: unknown;
  } = {},
) {
  const { days, dates, timezone, ...rest } = overrides;
  return {
    name: 'Video consultation',
    durationMinutes: 30,
    availabilityStep: 30,
    timeAvailableFor: 'P10W',
    subject: 'Consultation',
    description: 'Vet appointments',
    location: 'Video call',
    workHours: {
      timezone: timezone ?? 'Europe/Lisbon',
      daySchedules: days ?? [
        {
          dayOfWeek: 'monday',
          workingIntervals: [
            { start: '09:00', end: '13:00' },
            { start: '14:00', end: '18:00' },
          ],
        },
        { dayOfWeek: 'wednesday', workingIntervals: [{ start: '10:00', end: '12:00' }] },
      ],
    },
    availabilityIntervals: {
      intervals: dates ?? [{ dateStartInclusive: '2026-03-02', hours: [{ start: '15:00', end: '17:30' }] }],
    },
    context: '',
    startConference: true,
    ...rest,
  };
}

const monday = (...workingIntervals: Interval[]) => [{ dayOfWeek: 'monday', workingIntervals }];

describe('WEEKDAYS and isoWeekdayOf', () => {
  it('names the weekdays in lowercase English, Monday first', () => {
    expect(WEEKDAYS).toEqual(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']);
  });

  it.each([
    ['monday', 1],
    ['tuesday', 2],
    ['wednesday', 3],
    ['thursday', 4],
    ['friday', 5],
    ['saturday', 6],
    ['sunday', 7],
  ] as const)('%s is ISO weekday %i', (day, iso) => {
    expect(isoWeekdayOf(day)).toBe(iso);
    expect(WEEKDAYS[iso - 1]).toBe(day);
  });
});

describe('timeOfDaySchema (HH:MM, 00:00 to 24:00)', () => {
  it.each(['00:00', '09:05', '12:30', '23:59', '24:00'])('accepts %s', (time) => {
    expect(timeOfDaySchema.parse(time)).toBe(time);
  });

  it.each(['24:01', '24:30', '25:00', '9:00', '09:0', '0900', '09:60', '-1:00', '09:00:00', ' 09:00', ''])(
    'refuses %j as invalid_format',
    (time) => {
      expect(fieldsOf(timeOfDaySchema, time)).toEqual({ _: 'invalid_format' });
    },
  );
});

describe('workingIntervalSchema (docs/product-rules.md#validation: end later than start)', () => {
  it('accepts an interval whose end is later than its start, 24:00 included', () => {
    expect(workingIntervalSchema.parse({ start: '09:00', end: '17:00' })).toEqual({ start: '09:00', end: '17:00' });
    expect(workingIntervalSchema.parse({ start: '23:30', end: '24:00' })).toEqual({ start: '23:30', end: '24:00' });
  });

  it.each([
    ['an end before the start', { start: '13:00', end: '09:00' }],
    ['an empty interval', { start: '09:00', end: '09:00' }],
    ['a start at 24:00', { start: '24:00', end: '24:00' }],
  ])('refuses %s with end_before_start on end', (_label, interval) => {
    expect(fieldsOf(workingIntervalSchema, interval)).toEqual({ end: 'end_before_start' });
  });

  it('refuses a malformed time on its own field', () => {
    expect(fieldsOf(workingIntervalSchema, { start: '25:00', end: '26:00' })).toEqual({
      start: 'invalid_format',
      end: 'invalid_format',
    });
    expect(fieldsOf(workingIntervalSchema, { start: '09:00', end: '25:00' })).toEqual({ end: 'invalid_format' });
    expect(fieldsOf(workingIntervalSchema, {})).toEqual({ start: 'required', end: 'required' });
  });

  it('does not also call a well-formed end early when the start is malformed (no text comparison)', () => {
    // As text, '12:00' sorts before '9:00'.
    expect(fieldsOf(workingIntervalSchema, { start: '9:00', end: '12:00' })).toEqual({ start: 'invalid_format' });
  });
});

describe('availabilityProfileUpdateSchema (docs/product-rules.md#entities Availability profile, #validation Working intervals)', () => {
  it('accepts a complete profile unchanged', () => {
    expect(availabilityProfileUpdateSchema.parse(profileBody())).toEqual(profileBody());
  });

  it('fills the defaults: horizon P10W, description Vet appointments, startConference true', () => {
    const { timeAvailableFor, description, startConference, subject, context, ...minimal } = profileBody();
    void [timeAvailableFor, description, startConference, subject, context];
    expect(DEFAULT_AVAILABILITY_HORIZON).toBe('P10W');
    expect(DEFAULT_VET_DESCRIPTION).toBe('Vet appointments');
    expect(availabilityProfileUpdateSchema.parse(minimal)).toEqual({
      ...minimal,
      timeAvailableFor: 'P10W',
      description: 'Vet appointments',
      subject: '',
      context: '',
      startConference: true,
    });
  });

  it('drops an id sent in the body (the path names the profile)', () => {
    expect(availabilityProfileUpdateSchema.parse({ ...profileBody(), id: 99 })).not.toHaveProperty('id');
  });

  it('accepts no hours at all (a new vet’s profile)', () => {
    const body = profileBody({ days: [], dates: [] });
    expect(availabilityProfileUpdateSchema.parse(body)).toEqual(body);
  });

  it('accepts touching intervals (09:00–12:00 and 12:00–13:00) and an end at 24:00', () => {
    const days = monday(
      { start: '09:00', end: '12:00' },
      { start: '12:00', end: '13:00' },
      { start: '22:00', end: '24:00' },
    );
    expect(fieldsOf(availabilityProfileUpdateSchema, profileBody({ days }))).toEqual({});
    const dates = [{ dateStartInclusive: '2026-03-02', hours: [{ start: '00:00', end: '24:00' }] }];
    expect(fieldsOf(availabilityProfileUpdateSchema, profileBody({ dates }))).toEqual({});
  });

  it('accepts intervals in any order, as long as none overlap', () => {
    const days = monday({ start: '14:00', end: '18:00' }, { start: '09:00', end: '13:00' });
    expect(fieldsOf(availabilityProfileUpdateSchema, profileBody({ days }))).toEqual({});
  });

  it('accepts all seven weekdays once each', () => {
    const days = WEEKDAYS.map((dayOfWeek) => ({ dayOfWeek, workingIntervals: [{ start: '09:00', end: '17:00' }] }));
    expect(fieldsOf(availabilityProfileUpdateSchema, profileBody({ days }))).toEqual({});
  });

  it('refuses an end before its start at …workingIntervals.N.end', () => {
    const days = monday({ start: '09:00', end: '12:00' }, { start: '15:00', end: '14:00' });
    expect(fieldsOf(availabilityProfileUpdateSchema, profileBody({ days }))).toEqual({
      'workHours.daySchedules.0.workingIntervals.1.end': 'end_before_start',
    });
    const dates = [{ dateStartInclusive: '2026-03-02', hours: [{ start: '10:00', end: '10:00' }] }];
    expect(fieldsOf(availabilityProfileUpdateSchema, profileBody({ dates }))).toEqual({
      'availabilityIntervals.intervals.0.hours.0.end': 'end_before_start',
    });
  });

  it.each([
    ['partly overlapping', { start: '09:00', end: '12:00' }, { start: '11:00', end: '13:00' }],
    ['nested', { start: '09:00', end: '17:00' }, { start: '10:00', end: '11:00' }],
    ['identical', { start: '09:00', end: '10:00' }, { start: '09:00', end: '10:00' }],
    ['same start', { start: '09:00', end: '10:00' }, { start: '09:00', end: '12:00' }],
    ['overlapping, listed out of order', { start: '11:00', end: '13:00' }, { start: '09:00', end: '12:00' }],
  ])('refuses %s intervals of one day with overlap', (_label, first, second) => {
    expect(fieldsOf(availabilityProfileUpdateSchema, profileBody({ days: monday(first, second) }))).toEqual({
      'workHours.daySchedules.0.workingIntervals': 'overlap',
    });
    const dates = [{ dateStartInclusive: '2026-03-02', hours: [first, second] }];
    expect(fieldsOf(availabilityProfileUpdateSchema, profileBody({ dates }))).toEqual({
      'availabilityIntervals.intervals.0.hours': 'overlap',
    });
  });

  it('finds an overlap that is not between the first two intervals', () => {
    const days = monday(
      { start: '07:00', end: '08:00' },
      { start: '16:00', end: '18:00' },
      { start: '09:00', end: '17:00' },
    );
    expect(fieldsOf(availabilityProfileUpdateSchema, profileBody({ days }))).toEqual({
      'workHours.daySchedules.0.workingIntervals': 'overlap',
    });
  });

  it('reports a malformed time alone, without a spurious overlap', () => {
    const days = monday({ start: '9:00', end: '10:00' }, { start: '09:30', end: '11:00' });
    expect(fieldsOf(availabilityProfileUpdateSchema, profileBody({ days }))).toEqual({
      'workHours.daySchedules.0.workingIntervals.0.start': 'invalid_format',
    });
  });

  it('does not compare intervals of different days', () => {
    const days = [
      { dayOfWeek: 'monday', workingIntervals: [{ start: '09:00', end: '17:00' }] },
      { dayOfWeek: 'tuesday', workingIntervals: [{ start: '09:00', end: '17:00' }] },
    ];
    expect(fieldsOf(availabilityProfileUpdateSchema, profileBody({ days }))).toEqual({});
  });

  it("refuses '25:00' as invalid_format at its path", () => {
    const days = monday({ start: '09:00', end: '25:00' });
    expect(fieldsOf(availabilityProfileUpdateSchema, profileBody({ days }))).toEqual({
      'workHours.daySchedules.0.workingIntervals.0.end': 'invalid_format',
    });
  });

  it.each(['Monday', 'MONDAY', 'mon', 'funday', '1', ''])('refuses dayOfWeek %j as invalid_value', (dayOfWeek) => {
    const days = [{ dayOfWeek, workingIntervals: [] }];
    expect(fieldsOf(availabilityProfileUpdateSchema, profileBody({ days }))).toEqual({
      'workHours.daySchedules.0.dayOfWeek': 'invalid_value',
    });
  });

  it('refuses the same weekday twice as invalid_value on daySchedules', () => {
    const days = [
      { dayOfWeek: 'monday', workingIntervals: [{ start: '09:00', end: '12:00' }] },
      { dayOfWeek: 'tuesday', workingIntervals: [] },
      { dayOfWeek: 'monday', workingIntervals: [{ start: '14:00', end: '18:00' }] },
    ];
    expect(fieldsOf(availabilityProfileUpdateSchema, profileBody({ days }))).toEqual({
      'workHours.daySchedules': 'invalid_value',
    });
  });

  it('refuses the same date twice as invalid_value on intervals (their hours could overlap unchecked)', () => {
    const dates = [
      { dateStartInclusive: '2026-03-02', hours: [{ start: '09:00', end: '12:00' }] },
      { dateStartInclusive: '2026-03-02', hours: [{ start: '10:00', end: '11:00' }] },
    ];
    expect(fieldsOf(availabilityProfileUpdateSchema, profileBody({ dates }))).toEqual({
      'availabilityIntervals.intervals': 'invalid_value',
    });
  });

  it.each(['Europe/Lisbon', 'America/Sao_Paulo', 'UTC', 'GMT', 'Asia/Kolkata'])('accepts the time zone %s', (zone) => {
    expect(fieldsOf(availabilityProfileUpdateSchema, profileBody({ timezone: zone }))).toEqual({});
  });

  it.each(['Mars/Olympus', 'Europe/Atlantis', 'not a zone', ''])(
    'refuses the time zone %j as invalid_value',
    (zone) => {
      expect(fieldsOf(availabilityProfileUpdateSchema, profileBody({ timezone: zone }))).toEqual({
        'workHours.timezone': 'invalid_value',
      });
    },
  );

  it.each(['P10W', 'P1D', 'P3M', 'P365D'])('accepts the horizon %s', (timeAvailableFor) => {
    expect(fieldsOf(availabilityProfileUpdateSchema, profileBody({ timeAvailableFor }))).toEqual({});
  });

  it.each(['P10X', '10W', 'P10', 'PT10H', 'P1000D', 'p10w'])('refuses the horizon %j as invalid_format', (horizon) => {
    expect(fieldsOf(availabilityProfileUpdateSchema, profileBody({ timeAvailableFor: horizon }))).toEqual({
      timeAvailableFor: 'invalid_format',
    });
  });

  it.each(['2026-02-30', '2026-13-01', '2025-02-29', '2026-3-2', '02/03/2026', ''])(
    'refuses the date %j as invalid_format',
    (date) => {
      const dates = [{ dateStartInclusive: date, hours: [] }];
      expect(fieldsOf(availabilityProfileUpdateSchema, profileBody({ dates }))).toEqual({
        'availabilityIntervals.intervals.0.dateStartInclusive': 'invalid_format',
      });
    },
  );

  it('accepts a leap day', () => {
    const dates = [{ dateStartInclusive: '2028-02-29', hours: [] }];
    expect(fieldsOf(availabilityProfileUpdateSchema, profileBody({ dates }))).toEqual({});
  });

  it.each([
    ['durationMinutes', 3, 'too_small'],
    ['durationMinutes', 4, 'too_small'],
    ['durationMinutes', 481, 'too_big'],
    ['durationMinutes', 30.5, 'required'],
    ['durationMinutes', '30', 'required'],
    ['availabilityStep', 0, 'too_small'],
    ['availabilityStep', 500, 'too_big'],
  ])('refuses %s %j with %s', (field, value, code) => {
    const fields = fieldsOf(availabilityProfileUpdateSchema, profileBody({ [field]: value }));
    expect(Object.keys(fields)).toEqual([field]);
    if (code !== 'required') expect(fields[field]).toBe(code);
  });

  it.each([5, 30, 480])('accepts durationMinutes and availabilityStep of %i', (minutes) => {
    const body = profileBody({ durationMinutes: minutes, availabilityStep: minutes });
    expect(fieldsOf(availabilityProfileUpdateSchema, body)).toEqual({});
  });

  it('refuses an empty name and a missing location', () => {
    expect(fieldsOf(availabilityProfileUpdateSchema, profileBody({ name: '   ' }))).toEqual({ name: 'too_small' });
    const { location, ...withoutLocation } = profileBody();
    void location;
    expect(fieldsOf(availabilityProfileUpdateSchema, withoutLocation)).toEqual({ location: 'required' });
  });

  it('reports every broken field at once, each at its own path', () => {
    const body = profileBody({
      timezone: 'Mars/Olympus',
      timeAvailableFor: 'P10X',
      durationMinutes: 3,
      days: [
        { dayOfWeek: 'funday', workingIntervals: [] },
        { dayOfWeek: 'friday', workingIntervals: [{ start: '18:00', end: '17:00' }] },
      ],
      dates: [{ dateStartInclusive: '2026-02-30', hours: [] }],
    });
    expect(fieldsOf(availabilityProfileUpdateSchema, body)).toEqual({
      durationMinutes: 'too_small',
      timeAvailableFor: 'invalid_format',
      'workHours.timezone': 'invalid_value',
      'workHours.daySchedules.0.dayOfWeek': 'invalid_value',
      'workHours.daySchedules.1.workingIntervals.0.end': 'end_before_start',
      'availabilityIntervals.intervals.0.dateStartInclusive': 'invalid_format',
    });
  });
});

describe('availabilityProfileSchema (the answer of GET)', () => {
  it('is the update shape plus an integer id', () => {
    const profile = { id: 7, ...profileBody() };
    expect(availabilityProfileSchema.parse(profile)).toEqual(profile);
    expect(fieldsOf(availabilityProfileSchema, profileBody())).toEqual({ id: 'required' });
  });
});
