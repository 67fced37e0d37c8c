import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { z } from 'zod';
import { myAppointmentPageSchema } from '@vetcall/shared/schemas/appointment';
import { customerSchema } from '@vetcall/shared/schemas/customer';
import { petSchema } from '@vetcall/shared/schemas/pet';
import { publicVetSchema } from '@vetcall/shared/schemas/staff';
import { authStore } from '../../lib/auth-store';
import { loadTestClientConfig } from '../../test/client-config';
import { petOf, rita } from '../../test/customer-fixtures';
import { fakeApi } from '../../test/fake-api';
import { initTestI18n, renderRoutes } from '../../test/render';
import { CustomerPage } from './customer-page';

describe('CustomerPage', () => {
  beforeAll(async () => {
    await initTestI18n();
  });
  beforeEach(async () => {
    await loadTestClientConfig();
    authStore.setSession('tok', { user_id: 5, type: 'customer', name: 'Rita', email: rita.email, locale: 'en' });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    authStore.clear();
  });

  it('offers My appointments in the navbar’s modes and shows it as a mode of /customer', async () => {
    fakeApi().answer('GET', /^\/api\/appointments\/mine\?/, myAppointmentPageSchema, { items: [], next_cursor: null });
    const { router } = renderRoutes([{ path: '/customer', element: <CustomerPage /> }], '/customer?mode=appointments');
    expect(await screen.findByRole('heading', { level: 1, name: 'My appointments' })).toBeTruthy();
    expect(await screen.findByText('You have no upcoming appointments.')).toBeTruthy();
    const modes = screen.getByRole('group', { name: 'Mode' });
    const link = within(modes).getByRole('link', { name: 'My appointments' });
    expect([link.getAttribute('href'), link.getAttribute('aria-current')]).toEqual([
      '/customer?mode=appointments',
      'page',
    ]);
    await userEvent.click(within(modes).getByRole('link', { name: 'Schedule appointment' }));
    expect(router.state.location.search).toBe('?mode=appointment_req');
  });

  it('shows the booking form at once with its fields held, then takes input with the only pet chosen', async () => {
    fakeApi()
      .answer('GET', '/api/users/vet', z.array(publicVetSchema), [
        { user_id: 8, vet_id: 2, name: 'Dr. Sousa', specialty: 'Dermatology' },
      ])
      .answer('GET', '/api/users/customer/byemail/rita%40example.test', customerSchema, rita)
      .answer('GET', /^\/api\/pets\/customer\/3\b/, z.array(petSchema), [petOf({ pet_id: 11, name: 'Trovão' })]);
    renderRoutes([{ path: '/customer', element: <CustomerPage /> }], '/customer');
    // Before the vets and pets are in: the whole form, held (what the server draws, docs/decisions/027).
    const pet = screen.getByRole<HTMLSelectElement>('combobox', { name: /Pet/ });
    const fields = pet.closest('fieldset')!;
    expect([fields.disabled, fields.getAttribute('aria-busy'), pet.value]).toEqual([true, 'true', '']);
    expect(screen.queryByText(/no pets/i)).toBeNull();
    await waitFor(() => expect(fields.disabled).toBe(false));
    expect(fields.getAttribute('aria-busy')).toBe('false');
    expect(screen.getByRole<HTMLSelectElement>('combobox', { name: /Pet/ }).value).toBe('11');
  });
});
