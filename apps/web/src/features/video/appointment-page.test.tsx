import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { PIN_CONNECTING_DELAY_MS } from '@vetcall/shared/constants';
import en from '@vetcall/shared/i18n/en.json';
import {
  type PinLookup,
  pinLookupSchema,
  type RoomWindowError,
  roomWindowErrorSchema,
} from '@vetcall/shared/schemas/video';
import { formatDateTime } from '../../lib/format';
import { loadTestClientConfig } from '../../test/client-config';
import { fakeApi, type Refusal, refusal } from '../../test/fake-api';
import { initTestI18n, renderRoutes, withProviders } from '../../test/render';
import { AppointmentPage } from './appointment-page';
import type { JitsiMeetExternalApiConstructor } from './jitsi/load-jitsi-api';
import { FakeJitsiApi } from '../../test/fake-jitsi-api';

const lookup: PinLookup = {
  user_email: 'ana@vetcall.test',
  user_name: 'Ana Dona',
  hash: 'Ab-9_xYz0123456789abcd',
  party: 'customer',
  opens_at: '2030-03-14T10:00:00.000Z',
  closes_at: '2030-03-14T11:30:00.000Z',
};

const PIN_LOOKUP = /^\/api\/appointments\/pin\//;

/** The PIN lookup answers `answer` (the lookup or a refusal); every requested URL is kept. */
function stubLookup(answer: PinLookup | Refusal) {
  return fakeApi().answer('GET', PIN_LOOKUP, pinLookupSchema, () => answer);
}

/** The 409 of a PIN outside the room's window, held to its schema. */
const outsideWindow = (body: RoomWindowError) => refusal(409, roomWindowErrorSchema.parse(body));

const routes = [{ path: '/appointment/:pin?', element: <AppointmentPage /> }];
const pinInput = () => screen.getByLabelText(/^PIN/) as HTMLInputElement;
const connectButton = () => screen.getByRole('button', { name: 'Connect' });

async function connectWith(pin: string) {
  const user = userEvent.setup();
  await user.clear(pinInput());
  if (pin) await user.type(pinInput(), pin);
  await user.click(connectButton());
}

describe('AppointmentPage', () => {
  beforeAll(async () => {
    await initTestI18n();
  });
  beforeEach(async () => {
    await loadTestClientConfig({ video_provider: 'jitsi', jitsi_domain: 'meet.example.org' });
    FakeJitsiApi.instances = [];
    window.JitsiMeetExternalAPI = FakeJitsiApi as unknown as JitsiMeetExternalApiConstructor;
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    delete window.JitsiMeetExternalAPI;
    window.sessionStorage.clear();
  });

  it('shows the PIN field filled from the address', () => {
    stubLookup(lookup);
    renderRoutes(routes, '/appointment/123456?lang=en');
    const input = pinInput();
    expect(input.value).toBe('123456');
    expect(input.placeholder).toBe('000000');
    expect(input.getAttribute('inputmode')).toBe('numeric');
    expect(screen.getByRole('heading', { name: 'Join your consultation' })).toBeTruthy();
  });

  it.each(['/appointment?lang=en', '/appointment/12ab56?lang=en', '/appointment/1234567?lang=en'])(
    'starts with an empty PIN at %s',
    (path) => {
      renderRoutes(routes, path);
      expect(pinInput().value).toBe('');
    },
  );

  it('keeps only digits as the PIN is typed', async () => {
    renderRoutes(routes, '/appointment?lang=en');
    const user = userEvent.setup();
    await user.type(pinInput(), '12a3-4 b5');
    expect(pinInput().value).toBe('12345');
  });

  it.each([
    ['', en.validation.required],
    ['12345', en.validation.invalid_format],
  ])('refuses the PIN %j without asking the server', async (pin, message) => {
    const api = stubLookup(lookup);
    renderRoutes(routes, '/appointment/123456?lang=en');
    await connectWith(pin);
    expect(await screen.findByText(message)).toBeTruthy();
    expect(pinInput().getAttribute('aria-invalid')).toBe('true');
    expect(api.urls).toEqual([]);
  });

  it('says when no appointment has the PIN', async () => {
    const api = stubLookup(refusal(404, { error: 'pin_not_found', message: 'Not found' }));
    renderRoutes(routes, '/appointment/123456?lang=en');
    await userEvent.click(connectButton());
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Unavailable');
    expect(alert.textContent).toContain(en.errors.pin_not_found);
    // The notice takes the focus, so a screen reader hears it.
    await waitFor(() => expect(document.activeElement?.contains(alert)).toBe(true));
    expect(api.urls).toEqual(['/api/appointments/pin/123456']);
    // The PIN stays for another try, and nothing was stored.
    expect(pinInput().value).toBe('123456');
    expect(window.sessionStorage.getItem('vetcall.room')).toBeNull();
  });

  it('says when the room opens when it is too early', async () => {
    stubLookup(
      outsideWindow({
        error: 'room_not_open',
        message: 'Not yet',
        opens_at: lookup.opens_at,
        closes_at: lookup.closes_at,
      }),
    );
    renderRoutes(routes, '/appointment/123456?lang=en');
    await userEvent.click(connectButton());
    const alert = await screen.findByRole('alert');
    const time = formatDateTime(lookup.opens_at, 'en');
    expect(alert.textContent).toContain(en.video.opens_at.replace('{{time}}', time));
    expect(alert.textContent).toContain('Unavailable');
  });

  it('says when the room closed when it is too late', async () => {
    stubLookup(
      outsideWindow({ error: 'room_closed', message: 'Over', opens_at: lookup.opens_at, closes_at: lookup.closes_at }),
    );
    renderRoutes(routes, '/appointment/123456?lang=en');
    await userEvent.click(connectButton());
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(en.video.closed_at.replace('{{time}}', formatDateTime(lookup.closes_at, 'en')));
  });

  it('says when there were too many attempts, and when to try again', async () => {
    stubLookup(refusal(429, { error: 'too_many_requests', message: 'Slow down' }, { 'retry-after': '61' }));
    renderRoutes(routes, '/appointment/123456?lang=en');
    await userEvent.click(connectButton());
    expect((await screen.findByRole('alert')).textContent).toContain('Too many attempts. Try again in 2 minutes.');
  });

  it('says when the server cannot be reached', async () => {
    fakeApi().networkFailure('GET', PIN_LOOKUP);
    renderRoutes(routes, '/appointment/123456?lang=en');
    await userEvent.click(connectButton());
    expect((await screen.findByRole('alert')).textContent).toContain(en.errors.network_error);
  });

  it('connects for a moment, opens the room, and comes back to the PIN when the person leaves', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = stubLookup(lookup);
    renderRoutes(routes, '/appointment/123456?lang=en');
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.click(connectButton());

    const status = await screen.findByText('Connecting…');
    expect(status).toBeTruthy();
    expect(screen.getByText('Welcome, Ana Dona. Preparing your consultation room…')).toBeTruthy();
    expect(api.urls).toEqual(['/api/appointments/pin/123456']);
    expect(JSON.parse(window.sessionStorage.getItem('vetcall.room')!)).toEqual({ pin: '123456', hash: lookup.hash });
    expect(FakeJitsiApi.instances).toHaveLength(0);

    await act(async () => {
      vi.advanceTimersByTime(PIN_CONNECTING_DELAY_MS);
    });
    await waitFor(() => expect(FakeJitsiApi.instances).toHaveLength(1));
    const room = FakeJitsiApi.instances[0]!;
    expect(room.domain).toBe('meet.example.org');
    expect(room.options.roomName).toBe(lookup.hash);
    expect(room.options.userInfo).toEqual({ displayName: 'Ana Dona', email: 'ana@vetcall.test' });
    expect(screen.queryByText('Connecting…')).toBeNull();
    expect(screen.queryByLabelText(/^PIN/)).toBeNull();

    act(() => room.emit('readyToClose'));
    const notice = await screen.findByRole('status');
    expect(notice.textContent).toContain('You left the consultation.');
    await waitFor(() => expect(document.activeElement?.contains(notice)).toBe(true));
    expect(pinInput().value).toBe('123456');
    expect(window.sessionStorage.getItem('vetcall.room')).toBeNull();
    expect(room.dispose).toHaveBeenCalled();
  });

  it('keeps the connecting screen until the delay has passed', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    stubLookup(lookup);
    renderRoutes(routes, '/appointment/123456?lang=en');
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.click(connectButton());
    await screen.findByText('Connecting…');

    await act(async () => {
      vi.advanceTimersByTime(PIN_CONNECTING_DELAY_MS - 200);
    });
    expect(screen.getByText('Connecting…')).toBeTruthy();
    expect(FakeJitsiApi.instances).toHaveLength(0);
    await act(async () => {
      vi.advanceTimersByTime(200);
    });
    await waitFor(() => expect(FakeJitsiApi.instances).toHaveLength(1));
  });

  describe('Back', () => {
    function renderFrom(initialEntries: string[]) {
      const router = createMemoryRouter(
        [
          ...routes,
          { path: '/somewhere', element: <p>the page before</p> },
          { path: '/', element: <p>the start page</p> },
        ],
        { initialEntries, initialIndex: initialEntries.length - 1 },
      );
      render(withProviders(<RouterProvider router={router} />));
      return router;
    }

    it('goes back to the page before', async () => {
      const router = renderFrom(['/somewhere', '/appointment/123456?lang=en']);
      await userEvent.click(screen.getByRole('button', { name: 'Back' }));
      expect(await screen.findByText('the page before')).toBeTruthy();
      expect(router.state.location.pathname).toBe('/somewhere');
    });

    it('goes to the start page when opened directly', async () => {
      const router = renderFrom(['/appointment/123456?lang=en']);
      await userEvent.click(screen.getByRole('button', { name: 'Back' }));
      expect(await screen.findByText('the start page')).toBeTruthy();
      expect(router.state.location.pathname).toBe('/');
    });
  });
});
