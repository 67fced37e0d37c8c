import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import { calendarAuthorizeResponseSchema, calendarLinkStatusSchema } from '@vetcall/shared/schemas/calendar-link';
import type { Vet } from '@vetcall/shared/schemas/staff';
import { loadTestClientConfig } from '../../test/client-config';
import { fakeApi } from '../../test/fake-api';
import { initTestI18n, withProviders } from '../../test/render';
import { CalendarLinkPanel } from './calendar-link-panel';

const vet = (calendarLinked: boolean): Vet => ({
  user_id: 3,
  vet_id: 4,
  name: 'Dr. João Silva',
  email: 'joao@vetcall.test',
  phone: '+351 911 000 111',
  specialty: 'Dermatology',
  discount: 0,
  calendar_linked: calendarLinked,
  locale: 'en',
});

const sent = (api: ReturnType<typeof fakeApi>) => api.calls.map((call) => `${call.method} ${call.url}`);

describe('CalendarLinkPanel', () => {
  beforeAll(async () => {
    await initTestI18n();
  });
  beforeEach(async () => {
    await loadTestClientConfig();
  });
  afterEach(() => {
    vi.restoreAllMocks();
    notifications.clean();
    window.history.replaceState(null, '', '/');
  });

  it('sends the browser to the authorisation page the server names', async () => {
    // A same-page address (only the hash differs): jsdom follows it, where it cannot load another page.
    const consent = `${window.location.origin}/#calendar-consent`;
    const api = fakeApi().answer('GET', /^\/api\/vets\/calendar\/authorize\/4\?/, calendarAuthorizeResponseSchema, {
      url: consent,
    });
    render(withProviders(<CalendarLinkPanel vet={vet(false)} />));
    expect(screen.getByText('Not linked')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Link calendar' }));
    await waitFor(() => expect(window.location.hash).toBe('#calendar-consent'));
    expect(sent(api)).toEqual(['GET /api/vets/calendar/authorize/4?lang=en&access=vet']);
  });

  it('says when the link cannot be started', async () => {
    fakeApi().refuse('GET', /^\/api\/vets\/calendar\/authorize\//, 500, { error: 'internal_error', message: 'x' });
    render(withProviders(<CalendarLinkPanel vet={vet(false)} />));
    await userEvent.click(screen.getByRole('button', { name: 'Link calendar' }));
    expect(await screen.findByText('Something went wrong on our side. Please try again.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Link calendar' })).toHaveProperty('disabled', false);
  });

  it('unlinks after confirmation, and not when the vet cancels', async () => {
    const api = fakeApi().answer('PUT', '/api/vets/removecalendarassociation/4', calendarLinkStatusSchema, {
      vet_id: 4,
      calendar_linked: false,
    });
    render(withProviders(<CalendarLinkPanel vet={vet(true)} />));
    expect(screen.getByText('Linked')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Unlink calendar' }));
    let dialog = within(await screen.findByRole('dialog', { name: 'Unlink calendar' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.calls).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Unlink calendar' }));
    dialog = within(await screen.findByRole('dialog', { name: 'Unlink calendar' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Unlink calendar' }));
    expect(await screen.findByText('Calendar association removed.')).toBeTruthy();
    expect(sent(api)).toEqual(['PUT /api/vets/removecalendarassociation/4']);
  });
});
