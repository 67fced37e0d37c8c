import { describe, expect, it } from 'vitest';
import type { AvailabilityProfile } from '../schemas/availability.ts';
import type { VetAvailability } from '../schemas/scheduling.ts';
import { flattenVetsAvailability, formatIntervals, intervalsOnDate } from './vets-availability.ts';

function profile(overrides: Partial<AvailabilityProfile> = {}): AvailabilityProfile {
  return {
    id: 1,
    name: 'Video consultation',
    durationMinutes: 30,
    availabilityStep: 30,
    timeAvailableFor: 'P10W',
    subject: '',
    description: 'Vet appointments',
    location: 'Video call',
    workHours: {
      timezone: 'Europe/Lisbon',
      daySchedules: [
        { dayOfWeek: 'monday', workingIntervals: [{ start: '14:00', end: '18:00' }] },
        { dayOfWeek: 'monday', workingIntervals: [{ start: '09:00', end: '13:00' }] },
        { dayOfWeek: 'wednesday', workingIntervals: [{ start: '10:00', end: '12:00' }] },
      ],
    },
    availabilityIntervals: { intervals: [{ dateStartInclusive: '2026-11-25', hours: [] }] },
    context: '',
    startConference: true,
    ...overrides,
  };
}

const vet = (vetId: number, name: string, config: AvailabilityProfile | null): VetAvailability => ({
  vet_id: vetId,
  user_id: vetId + 100,
  name,
  availability_config: config,
});

describe('vets availability, flattened', () => {
  it('takes a date’s hours from the weekly pattern, sorted, unless a date-specific entry replaces them', () => {
    expect(intervalsOnDate(profile(), '2026-11-23')).toStrictEqual([
      { start: '09:00', end: '13:00' },
      { start: '14:00', end: '18:00' },
    ]);
    // Wednesday 25 November has an entry without hours: a day off.
    expect(intervalsOnDate(profile(), '2026-11-25')).toStrictEqual([]);
    expect(intervalsOnDate(profile(), '2026-12-02')).toStrictEqual([{ start: '10:00', end: '12:00' }]);
    expect(intervalsOnDate(profile(), '2026-11-24')).toStrictEqual([]);
  });

  it('writes intervals as start–end joined by commas', () => {
    expect(
      formatIntervals([
        { start: '09:00', end: '13:00' },
        { start: '14:00', end: '18:00' },
      ]),
    ).toBe('09:00\u201313:00, 14:00\u201318:00');
    expect(formatIntervals([])).toBe('');
  });

  it('lists each vet’s working dates by date then name, leaving out free dates and vets without a profile', () => {
    const rows = flattenVetsAvailability(
      [
        vet(2, 'Rui', profile()),
        vet(
          3,
          'Ana',
          profile({
            workHours: {
              timezone: 'America/Sao_Paulo',
              daySchedules: [{ dayOfWeek: 'monday', workingIntervals: [{ start: '08:00', end: '12:00' }] }],
            },
          }),
        ),
        vet(4, 'Zé', null),
      ],
      ['2026-11-25', '2026-11-23', '2026-11-24'],
    );
    expect(rows).toStrictEqual([
      { date: '2026-11-23', vet_id: 3, name: 'Ana', hours: '08:00\u201312:00', timezone: 'America/Sao_Paulo' },
      {
        date: '2026-11-23',
        vet_id: 2,
        name: 'Rui',
        hours: '09:00\u201313:00, 14:00\u201318:00',
        timezone: 'Europe/Lisbon',
      },
    ]);
  });
});
