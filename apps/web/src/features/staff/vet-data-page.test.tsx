import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import i18next from 'i18next';
import { icsFeedStatusSchema } from '@vetcall/shared/schemas/ics-feed';
import { profileUpdateResponseSchema, type Vet, vetSchema } from '@vetcall/shared/schemas/staff';
import { authStore } from '../../lib/auth-store';
import { loadTestClientConfig } from '../../test/client-config';
import { fakeApi } from '../../test/fake-api';
import { addPortugueseCatalogs, initTestI18n, renderRoutes } from '../../test/render';
import { fill } from '../../test/user-input';
import { VetDataPage } from './vet-data-page';

const vet: Vet = {
  user_id: 3,
  vet_id: 2,
  name: 'Dr. Vet',
  email: 'vet@x.test',
  phone: '912 000 111',
  specialty: 'Feline medicine',
  discount: 0,
  calendar_linked: true,
  locale: 'en',
};

/** The server at the network boundary: the vet's profile, and the saves it is sent. */
function fakeServer() {
  return fakeApi()
    .answer('GET', '/api/users/vet/byemail/vet%40x.test', vetSchema, vet)
    .answer('GET', '/api/vets/icsfeed/2', icsFeedStatusSchema, { enabled: false })
    .answer('PUT', '/api/users/vet/3', profileUpdateResponseSchema, { user_id: 3, email_changed: false });
}

/** The page's first load (code and profile) can take seconds on a busy machine. */
const LOADED = { timeout: 10_000 };

describe('VetDataPage', () => {
  beforeAll(async () => {
    await initTestI18n();
    addPortugueseCatalogs();
  });
  beforeEach(async () => {
    await loadTestClientConfig();
    authStore.setSession('tok', { user_id: 3, type: 'vet', name: 'Dr. Vet', email: 'vet@x.test', locale: 'en' });
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    authStore.clear();
    notifications.clean();
    notifications.cleanQueue();
    await i18next.changeLanguage('en');
  });

  it.each(['en', 'pt', 'pt-BR'])('in %s, saves a discount typed 5,0 or 5.0 as 5, not 50', async (lang) => {
    await i18next.changeLanguage(lang);
    const api = fakeServer();
    renderRoutes([{ path: '/vetdata', element: <VetDataPage /> }], '/vetdata');
    for (const text of ['5,0', '5.0']) {
      await userEvent.click(await screen.findByRole('button', { name: i18next.t('customer_data.edit') }, LOADED));
      const discount = screen.getByRole('textbox', { name: new RegExp(`^${i18next.t('staff.discount')}`) });
      await userEvent.clear(discount);
      // The discount has no decimals: the separator is taken, the 0 after it is not.
      await userEvent.type(discount, text);
      expect(discount).toHaveProperty('value', text.slice(0, 2));
      await userEvent.click(screen.getByRole('button', { name: i18next.t('common.save') }));
      await waitFor(() =>
        expect(
          api.calls.filter((call) => call.method === 'PUT').map((call) => (call.body as Vet).discount),
          text,
        ).toEqual([5]),
      );
      api.calls.length = 0;
    }
  });

  it('does not take 5,0 put in at once (a paste, autofill) as 50: the field keeps what it had', async () => {
    const api = fakeServer();
    renderRoutes([{ path: '/vetdata', element: <VetDataPage /> }], '/vetdata');
    await userEvent.click(await screen.findByRole('button', { name: 'Edit' }, LOADED));
    const discount = screen.getByRole('textbox', { name: /^Discount/ });
    await userEvent.clear(discount);
    await fill(discount, '5,0');
    expect(discount).toHaveProperty('value', '');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('This field is required.')).toBeTruthy();
    expect(api.calls.filter((call) => call.method === 'PUT')).toEqual([]);
  });
});
