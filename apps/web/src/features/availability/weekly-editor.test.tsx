import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import { todayKey } from '@vetcall/shared/dates';
import { type AvailabilityProfile, availabilityProfileSchema } from '@vetcall/shared/schemas/availability';
import { availabilityWeeks } from '@vetcall/shared/scheduling/slots';
import { fakeApi } from '../../test/fake-api';
import { initTestI18n, withProviders } from '../../test/render';
import { calendarProfileListSchema, timeLimitListSchema } from '../../test/route-schemas';
import { WeeklyEditor } from './weekly-editor';

const VET_ID = 7;
const PROFILE_ID = 11;
const weeks = availabilityWeeks(todayKey(new Date(), Intl.DateTimeFormat().resolvedOptions().timeZone));
const week = weeks[0]!;
const wednesday = week.days[2]!.date;
const saturday = week.days[5]!.date;

const timeLimits = Array.from({ length: 49 }, (_, index) => ({
  time_limit_id: index + 1,
  time_limit: `${String(Math.floor(index / 2)).padStart(2, '0')}:${index % 2 ? '30' : '00'}`,
}));

function demoProfile(): AvailabilityProfile {
  return {
    id: PROFILE_ID,
    name: 'Main',
    durationMinutes: 30,
    availabilityStep: 30,
    timeAvailableFor: 'P10W',
    subject: '',
    description: 'Vet appointments',
    location: 'Video call',
    workHours: {
      timezone: 'Europe/Lisbon',
      daySchedules: (['monday', 'tuesday', 'wednesday', 'thursday', 'friday'] as const).map((dayOfWeek) => ({
        dayOfWeek,
        workingIntervals: [
          { start: '09:00', end: '13:00' },
          { start: '14:00', end: '18:00' },
        ],
      })),
    },
    availabilityIntervals: {
      intervals: [
        { dateStartInclusive: '2020-01-06', hours: [{ start: '08:00', end: '10:00' }] },
        { dateStartInclusive: wednesday, hours: [{ start: '10:00', end: '11:00' }] },
      ],
    },
    context: '',
    startConference: true,
  };
}

/** A stand-in for the availability routes at the network boundary; the editor and its rules are real. */
function fakeServer() {
  let stored = demoProfile();
  const patches: unknown[] = [];
  const gets: string[] = [];
  const profilePath = `/api/vets/availability/${VET_ID}/${PROFILE_ID}`;
  fakeApi()
    .answer('GET', `/api/vets/calendarprofiles/${VET_ID}`, calendarProfileListSchema, [
      { id: PROFILE_ID, name: 'Main' },
    ])
    .answer('GET', '/api/vets/time-limits', timeLimitListSchema, timeLimits)
    .answer('GET', profilePath, availabilityProfileSchema, ({ url }) => {
      gets.push(url);
      return stored;
    })
    .answer('PATCH', profilePath, availabilityProfileSchema, ({ body }) => {
      patches.push(body);
      stored = { id: PROFILE_ID, ...(body as Omit<AvailabilityProfile, 'id'>) };
      return stored;
    });
  return { patches, gets };
}

const select = (name: RegExp) => screen.getByRole<HTMLSelectElement>('combobox', { name });

async function renderEditor() {
  const server = fakeServer();
  render(withProviders(<WeeklyEditor vetId={VET_ID} />));
  await screen.findByRole('table', { name: 'Working intervals of the selected week' });
  return server;
}

describe('WeeklyEditor', () => {
  beforeAll(async () => {
    await initTestI18n();
  });
  beforeEach(() => {
    vi.restoreAllMocks();
  });
  afterEach(() => {
    vi.restoreAllMocks();
    // Toasts live in a module-level store: start every test without the previous test's.
    notifications.clean();
    notifications.cleanQueue();
  });

  it('shows the current week from the weekly pattern, date-specific hours first, in the profile zone', async () => {
    await renderEditor();
    expect(screen.getByText('Times in Europe/Lisbon')).toBeTruthy();
    expect(select(/^Week$/).value).toBe(String(week.number));
    expect(select(/^Week$/).options).toHaveLength(10);
    expect(select(/^Start of interval 1, Monday/).value).toBe('09:00');
    expect(select(/^End of interval 1, Monday/).value).toBe('13:00');
    expect(select(/^Start of interval 2, Monday/).value).toBe('14:00');
    expect(select(/^End of interval 2, Monday/).value).toBe('18:00');
    // Wednesday has a date-specific entry, which replaces the pattern.
    expect(select(/^Start of interval 1, Wednesday/).value).toBe('10:00');
    expect(screen.queryByRole('combobox', { name: /^Start of interval 2, Wednesday/ })).toBeNull();
    // The weekend has no hours.
    const saturdayRow = screen.getByText('Saturday').closest('tr')!;
    expect(within(saturdayRow).getByText('No working hours')).toBeTruthy();
    expect(screen.getAllByRole('row')).toHaveLength(8);
  });

  it('adds 09:00–17:00 on an empty day and one hour an hour after the latest end otherwise', async () => {
    await renderEditor();
    await userEvent.click(screen.getByRole('button', { name: /^Add interval on Saturday/ }));
    expect(select(/^Start of interval 1, Saturday/).value).toBe('09:00');
    expect(select(/^End of interval 1, Saturday/).value).toBe('17:00');
    await userEvent.click(screen.getByRole('button', { name: /^Add interval on Monday/ }));
    expect(select(/^Start of interval 3, Monday/).value).toBe('19:00');
    expect(select(/^End of interval 3, Monday/).value).toBe('20:00');
    expect(screen.getByText('Unsaved changes')).toBeTruthy();
  });

  it('disables Add interval when the latest end is in hour 23', async () => {
    await renderEditor();
    await userEvent.selectOptions(select(/^End of interval 2, Monday/), '23:30');
    expect((screen.getByRole('button', { name: /^Add interval on Monday/ }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('refuses an end not later than the start and keeps the old times', async () => {
    await renderEditor();
    await userEvent.selectOptions(select(/^End of interval 1, Monday/), '08:00');
    expect(await screen.findByText(/The end of an interval must be later than its start/)).toBeTruthy();
    expect(select(/^End of interval 1, Monday/).value).toBe('13:00');
    await userEvent.selectOptions(select(/^Start of interval 2, Monday/), '18:00');
    expect(select(/^Start of interval 2, Monday/).value).toBe('14:00');
    expect(screen.queryByText('Unsaved changes')).toBeNull();
  });

  it('shows overlapping intervals on their day and refuses to save them', async () => {
    const server = await renderEditor();
    await userEvent.selectOptions(select(/^Start of interval 2, Monday/), '12:00');
    const mondayRow = screen.getByText('Monday').closest('tr')!;
    expect(within(mondayRow).getByText('Working intervals of one day must not overlap.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Overlapping working intervals: fix them before saving.')).toBeTruthy();
    expect(server.patches).toEqual([]);
    // Fixed: the message goes away and Save goes through.
    await userEvent.selectOptions(select(/^Start of interval 2, Monday/), '13:00');
    expect(within(mondayRow).queryByText('Working intervals of one day must not overlap.')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.patches).toHaveLength(1));
  });

  it("saves the week's seven dates as date-specific hours, keeps other dates, and reloads", async () => {
    const server = await renderEditor();
    await userEvent.click(screen.getByRole('button', { name: /^Add interval on Saturday/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Availability updated.')).toBeTruthy();
    expect(server.patches).toHaveLength(1);
    const body = server.patches[0] as Omit<AvailabilityProfile, 'id'>;
    expect(body).not.toHaveProperty('id');
    expect(body.workHours).toEqual(demoProfile().workHours);
    const pattern = [
      { start: '09:00', end: '13:00' },
      { start: '14:00', end: '18:00' },
    ];
    expect(body.availabilityIntervals.intervals).toEqual([
      { dateStartInclusive: '2020-01-06', hours: [{ start: '08:00', end: '10:00' }] },
      { dateStartInclusive: week.days[0]!.date, hours: pattern },
      { dateStartInclusive: week.days[1]!.date, hours: pattern },
      { dateStartInclusive: wednesday, hours: [{ start: '10:00', end: '11:00' }] },
      { dateStartInclusive: week.days[3]!.date, hours: pattern },
      { dateStartInclusive: week.days[4]!.date, hours: pattern },
      { dateStartInclusive: saturday, hours: [{ start: '09:00', end: '17:00' }] },
      { dateStartInclusive: week.days[6]!.date, hours: [] },
    ]);
    await waitFor(() => expect(server.gets.length).toBeGreaterThanOrEqual(2));
    expect(select(/^End of interval 1, Saturday/).value).toBe('17:00');
    expect(screen.queryByText('Unsaved changes')).toBeNull();
  });

  it('asks before switching week with unsaved changes; declining stays, confirming drops the changes', async () => {
    await renderEditor();
    await userEvent.click(screen.getByRole('button', { name: /^Add interval on Saturday/ }));
    await userEvent.selectOptions(select(/^Week$/), String(weeks[1]!.number));
    let dialog = await screen.findByRole('dialog', { name: 'Discard changes?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(select(/^Week$/).value).toBe(String(week.number));
    expect(select(/^Start of interval 1, Saturday/).value).toBe('09:00');

    await userEvent.selectOptions(select(/^Week$/), String(weeks[1]!.number));
    dialog = await screen.findByRole('dialog', { name: 'Discard changes?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Discard changes' }));
    await waitFor(() => expect(select(/^Week$/).value).toBe(String(weeks[1]!.number)));
    expect(screen.getByText('Saturday').closest('tr')!.textContent).toContain('No working hours');
    // The next week's Wednesday follows the weekly pattern (the date-specific entry is this week's).
    expect(select(/^Start of interval 2, Wednesday/).value).toBe('14:00');
    expect(screen.queryByText('Unsaved changes')).toBeNull();
  });

  it('switches week at once when nothing changed', async () => {
    await renderEditor();
    await userEvent.selectOptions(select(/^Week$/), String(weeks[2]!.number));
    expect(select(/^Week$/).value).toBe(String(weeks[2]!.number));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('removes an interval after confirmation, and Cancel drops the changes', async () => {
    await renderEditor();
    await userEvent.click(screen.getByRole('button', { name: /^Remove interval 14:00–18:00, Monday/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove interval?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Interval removed.')).toBeTruthy();
    expect(screen.queryByRole('combobox', { name: /^Start of interval 2, Monday/ })).toBeNull();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('Availability config canceled.')).toBeTruthy();
    expect(select(/^Start of interval 2, Monday/).value).toBe('14:00');
  });

  it('uses the week as the weekly pattern and drops date-specific hours from that week on, after confirmation', async () => {
    const server = await renderEditor();
    await userEvent.click(screen.getByRole('button', { name: /^Add interval on Saturday/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Use these hours every week' }));
    const dialog = await screen.findByRole('dialog', { name: 'Use these hours every week?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Use every week' }));
    expect(await screen.findByText('Availability updated.')).toBeTruthy();
    const body = server.patches[0] as Omit<AvailabilityProfile, 'id'>;
    expect(body.availabilityIntervals.intervals).toEqual([
      { dateStartInclusive: '2020-01-06', hours: [{ start: '08:00', end: '10:00' }] },
    ]);
    expect(body.workHours.timezone).toBe('Europe/Lisbon');
    expect(body.workHours.daySchedules.map((day) => day.dayOfWeek)).toEqual([
      'monday',
      'tuesday',
      'wednesday',
      'thursday',
      'friday',
      'saturday',
    ]);
    expect(body.workHours.daySchedules[2]!.workingIntervals).toEqual([{ start: '10:00', end: '11:00' }]);
    expect(body.workHours.daySchedules[5]!.workingIntervals).toEqual([{ start: '09:00', end: '17:00' }]);
  });
});
