import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { z } from 'zod';
import { freeSlotSchema, holdSchema } from '@vetcall/shared/schemas/scheduling';
import { authStore } from '../../lib/auth-store';
import { fakeApi, refusal } from '../../test/fake-api';
import { initTestI18n, renderRoutes } from '../../test/render';
import { EmbedSchedulerPage } from './embed-scheduler-page';

/** Three days ahead: inside the booking window (tests run with TZ=UTC). */
const DATE = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
/** DATE as it is typed in the English date field (MM/DD/YYYY). */
const TYPED_DATE = DATE.replace(/^(\d{4})-(\d{2})-(\d{2})$/, '$2/$3/$1');

const slot = (time: string) => ({
  start: `${DATE}T${time}:00.000Z`,
  end: `${DATE}T${time.slice(0, 3)}30:00.000Z`,
  date: DATE,
  local_start: time,
});

/** The vet's free times as the server has them now; a test takes some away as others book them. */
function fakeServer(free: string[]) {
  const api = fakeApi()
    .answer('GET', /^\/api\/vets\/2\/slots\?/, z.array(freeSlotSchema), () => free.map(slot))
    .answer('POST', '/api/scheduling/holds', holdSchema, ({ body }) => {
      const start = (body as { start: string }).start;
      const time = free.find((item) => slot(item).start === start);
      if (!time) return refusal(409, { error: 'slot_taken', message: 'taken' });
      return { event_id: 'hold-1', vet_id: 2, start, end: slot(time).end, expires_at: `${DATE}T00:15:00.000Z` };
    });
  const slotFetches = () => api.urls.filter((url) => url.startsWith('/api/vets/2/slots?')).length;
  return { api, slotFetches };
}

const times = () =>
  within(screen.getByRole('group', { name: 'Free times' }))
    .getAllByRole('button')
    .map((button) => button.textContent);

/** The person comes back to the page: its tab shown again, or its window focused again. */
function comeBack(signal: 'visibilitychange' | 'focus') {
  act(() => {
    window.dispatchEvent(new Event(signal));
  });
}

function openScheduler(query = '') {
  renderRoutes(
    [{ path: '/embed/scheduler', element: <EmbedSchedulerPage /> }],
    `/embed/scheduler?vet_id=2&date=${DATE}${query}`,
  );
}

describe('EmbedSchedulerPage: the free times stay current', () => {
  beforeAll(async () => {
    await initTestI18n();
  });
  beforeEach(() => {
    authStore.setSession('tok', { user_id: 5, type: 'customer', name: 'Rita', email: 'rita@x.test', locale: 'en' });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    authStore.clear();
  });

  it.each(['visibilitychange', 'focus'] as const)(
    'asks again when the person comes back to the page (%s)',
    async (signal) => {
      const free = ['10:00', '10:30'];
      const { slotFetches } = fakeServer(free);
      openScheduler();
      await waitFor(() => expect(times()).toEqual(['10:00', '10:30']));

      free.splice(0, 1);
      comeBack(signal);
      await waitFor(() => expect(times()).toEqual(['10:30']));
      expect(slotFetches()).toBe(2);
    },
  );

  it('asks again when the same date is chosen again', async () => {
    const free = ['10:00', '10:30'];
    const { slotFetches } = fakeServer(free);
    openScheduler();
    await waitFor(() => expect(times()).toEqual(['10:00', '10:30']));

    free.push('11:00');
    const dateField = screen.getByLabelText(/^Date/);
    fireEvent.change(dateField, { target: { value: '' } });
    fireEvent.change(dateField, { target: { value: TYPED_DATE } });
    await waitFor(() => expect(times()).toEqual(['10:00', '10:30', '11:00']));
    expect(slotFetches()).toBe(2);
  });

  it('shows fresh times when the hold is refused because the time is gone', async () => {
    const free = ['10:00', '10:30'];
    fakeServer(free);
    openScheduler();
    await waitFor(() => expect(times()).toEqual(['10:00', '10:30']));

    free.splice(0, 1);
    await userEvent.click(screen.getByRole('button', { name: '10:00' }));
    await userEvent.click(screen.getByRole('button', { name: 'Reserve this time' }));
    expect(await screen.findByRole('alert')).toBeTruthy();
    await waitFor(() => expect(times()).toEqual(['10:30']));
  });

  it('selects again the time chosen before a canceled payment, while it is free', async () => {
    fakeServer(['10:00', '10:30']);
    openScheduler(`&start=${encodeURIComponent(slot('10:30').start)}`);
    const chosen = await screen.findByRole('button', { name: '10:30' });
    await waitFor(() => expect(chosen.getAttribute('aria-pressed')).toBe('true'));
    expect(screen.getByRole('button', { name: '10:00' }).getAttribute('aria-pressed')).toBe('false');
    expect(screen.getByRole('button', { name: 'Reserve this time' })).toBeTruthy();
  });

  it('selects nothing when that time is gone', async () => {
    fakeServer(['10:00']);
    openScheduler(`&start=${encodeURIComponent(slot('10:30').start)}`);
    await waitFor(() => expect(times()).toEqual(['10:00']));
    expect(screen.queryByRole('button', { name: 'Reserve this time' })).toBeNull();
  });
});
