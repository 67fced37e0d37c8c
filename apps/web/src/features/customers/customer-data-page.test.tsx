import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import { z } from 'zod';
import { breedListSchema } from '@vetcall/shared/schemas/breeds';
import { type Customer, customerSchema, emailCheckResponseSchema } from '@vetcall/shared/schemas/customer';
import { type Pet, petDeletionSchema, petSchema } from '@vetcall/shared/schemas/pet';
import { authStore } from '../../lib/auth-store';
import { loadTestClientConfig } from '../../test/client-config';
import { petOf, rita } from '../../test/customer-fixtures';
import { fakeApi, refusal } from '../../test/fake-api';
import { initTestI18n, renderRoutes } from '../../test/render';
import { chooseOption, write } from '../../test/user-input';
import { CustomerDataPage } from './customer-data-page';

const trovao = petOf({ pet_id: 11, name: 'Trovão' });
const nuvem = petOf({ pet_id: 12, name: 'Nuvem', species: 'Cat', breed_id: null, breed: 'Mixed', gender: 'F' });

/** The answer of POST /api/pets/customer/{id}/changes, as the server's route declares it. */
const petChangesResultSchema = z.object({
  created: z.array(petSchema),
  updated: z.array(petSchema),
  removed: z.array(petDeletionSchema),
});

/** The server at the network boundary, held to the response schemas. */
function fakeServer(options: { pets?: Pet[]; takenEmail?: string; saveFails?: boolean; emailChanged?: boolean } = {}) {
  return fakeApi()
    .answer('GET', '/api/users/customer/byemail/rita%40example.test', customerSchema, rita)
    .answer('GET', '/api/pets/customer/3', z.array(petSchema), options.pets ?? [trovao, nuvem])
    .answer('GET', '/api/pets/breeds/Dog/en', breedListSchema, [{ breed_id: 3, name: 'Labrador Retriever' }])
    .answer('GET', /^\/api\/users\/checkemail\//, emailCheckResponseSchema, ({ url }) =>
      options.takenEmail && url.endsWith(encodeURIComponent(options.takenEmail)) ? [{ email: options.takenEmail }] : [],
    )
    .answer('POST', '/api/pets/customer/3/changes', petChangesResultSchema, ({ body }) => {
      const changes = body as { create: unknown[]; update: { pet_id: number }[]; delete: number[] };
      return {
        created: changes.create.map((_, index) => petOf({ pet_id: 20 + index, name: 'New' })),
        updated: changes.update.map((pet) => petOf({ pet_id: pet.pet_id, name: 'Updated' })),
        removed: changes.delete.map((petId) => ({ pet_id: petId, archived: false })),
      };
    })
    .answer(
      'PUT',
      '/api/users/customer/5',
      customerSchema.pick({ user_id: true }).extend({ email_changed: z.boolean() }),
      () =>
        options.saveFails
          ? refusal(500, { error: 'internal_error', message: 'x' })
          : { user_id: 5, email_changed: options.emailChanged ?? false },
    );
}

function renderPage() {
  return renderRoutes(
    [
      { path: '/customerdata', element: <CustomerDataPage /> },
      { path: '/', element: <p>login page</p> },
    ],
    '/customerdata',
  );
}

const textbox = (name: RegExp) => screen.getByRole('textbox', { name });
const sent = (api: ReturnType<typeof fakeServer>) => api.calls.filter((call) => call.method !== 'GET');

async function startEditing() {
  await userEvent.click(await screen.findByRole('button', { name: 'Edit' }));
}

const save = () => userEvent.click(screen.getByRole('button', { name: 'Save' }));

// Whole page with forms and modals: a busy machine needs more than the default 5 s.
describe('CustomerDataPage', { timeout: 20_000 }, () => {
  beforeAll(async () => {
    await initTestI18n();
  });
  beforeEach(async () => {
    vi.useFakeTimers({ now: new Date('2026-11-21T12:00:00Z'), toFake: ['Date'] });
    await loadTestClientConfig();
    authStore.setSession('tok', {
      user_id: 5,
      type: 'customer',
      name: 'Rita',
      email: 'rita@example.test',
      locale: 'en',
    });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    authStore.clear();
    notifications.clean();
  });

  it('sends a customer back from a canceled payment to the booking form, to be shown as it was', async () => {
    fakeServer();
    const { router } = renderRoutes(
      [
        { path: '/customerdata', element: <CustomerDataPage /> },
        { path: '/customer', element: <p>booking form</p> },
      ],
      '/customerdata?lang=en&access=customer&payment_canceled=1',
    );
    expect(await screen.findByText('booking form')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/customer');
    expect(router.state.location.state).toEqual({ restoreBooking: true });
    expect(await screen.findByText('Payment canceled: the time you chose was released.')).toBeTruthy();
  });

  it('shows the profile read-only, then saves an edited phone and leaves editing', async () => {
    const api = fakeServer();
    renderPage();
    expect(await screen.findByText('912 000 111')).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Record of Trovão' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();

    await startEditing();
    expect(screen.queryByRole('button', { name: 'Record of Trovão' })).toBeNull();
    await write(textbox(/^Phone/), '913 222 333');
    await save();

    expect(await screen.findByText('Customer data edited.')).toBeTruthy();
    expect(sent(api)).toEqual([
      {
        method: 'PUT',
        url: '/api/users/customer/5',
        body: { ...formFields(rita), phone: '913 222 333' },
      },
    ]);
    expect(await screen.findByRole('button', { name: 'Edit' })).toBeTruthy();
  });

  // It types a whole pet form three times: 11–16 s on a busy two-core machine, so it gets more than the default 20 s.
  it('sends the pets added, changed and removed with one Save', { timeout: 45_000 }, async () => {
    const api = fakeServer();
    renderPage();
    await startEditing();

    await userEvent.click(await screen.findByRole('button', { name: 'Edit Trovão' }));
    let dialog = within(await screen.findByRole('dialog', { name: 'Edit pet' }));
    await write(dialog.getByRole('textbox', { name: /^Weight/ }), '32.5');
    await userEvent.click(dialog.getByRole('button', { name: 'Apply' }));

    await userEvent.click(screen.getByRole('button', { name: 'Delete Nuvem' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Remove pet?' })).getByRole('button', { name: 'Delete' }),
    );
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Delete Nuvem' })).toBeNull());

    await userEvent.click(screen.getByRole('button', { name: 'Add pet' }));
    dialog = within(await screen.findByRole('dialog', { name: 'New pet' }));
    await write(dialog.getByRole('textbox', { name: /^Name/ }), 'Faísca');
    await chooseOption(dialog.getByRole('combobox', { name: /^Gender/ }), 'Female');
    await chooseOption(dialog.getByRole('combobox', { name: /^Fertile status/ }), 'Intact');
    await write(dialog.getByRole('textbox', { name: /^Birth date/ }), '06/30/2025');
    await write(dialog.getByRole('textbox', { name: /^Weight/ }), '8.5');
    await userEvent.click(dialog.getByRole('button', { name: 'Add pet' }));

    await save();
    expect(await screen.findByText('Customer data edited.')).toBeTruthy();
    expect(screen.getByText('Pet added.')).toBeTruthy();
    expect(screen.getByText('Pet modified.')).toBeTruthy();
    expect(screen.getByText('Pet removed.')).toBeTruthy();
    const [changes, profile] = sent(api);
    expect(changes).toEqual({
      method: 'POST',
      url: '/api/pets/customer/3/changes?lang=en',
      body: {
        create: [
          {
            name: 'Faísca',
            species: 'Dog',
            breed_id: null,
            breed: '',
            gender: 'F',
            birth: '2025-06-30',
            fertile_status: 'intact',
            weight: 8.5,
            policy: null,
          },
        ],
        update: [
          {
            pet_id: 11,
            name: 'Trovão',
            species: 'Dog',
            breed_id: 3,
            breed: '',
            gender: 'M',
            birth: '2020-01-15',
            fertile_status: 'neutered',
            weight: 32.5,
            policy: null,
          },
        ],
        delete: [12],
      },
    });
    expect(profile).toMatchObject({ method: 'PUT', url: '/api/users/customer/5' });
  });

  it('opens editing with the add-pet form for a customer without pets', async () => {
    fakeServer({ pets: [] });
    renderPage();
    expect(await screen.findByRole('dialog', { name: 'New pet' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Save' })).toBeTruthy();
  });

  it('asks to fill in all fields, and sends nothing', async () => {
    const api = fakeServer();
    renderPage();
    await startEditing();
    await userEvent.clear(textbox(/^City/));
    await save();
    expect(await screen.findByText('Please fill in all fields.')).toBeTruthy();
    expect(screen.getByText('This field is required.')).toBeTruthy();
    expect(sent(api)).toEqual([]);
  });

  it('refuses an email that is taken before sending anything', async () => {
    const api = fakeServer({ takenEmail: 'ana@example.test' });
    renderPage();
    await startEditing();
    await write(textbox(/^Email/), 'ana@example.test');
    await save();
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Change your email?' })).getByRole('button', {
        name: 'Confirm',
      }),
    );
    expect(await screen.findByText('Email in use: choose another email.')).toBeTruthy();
    expect(screen.getByText('This email is already in use.')).toBeTruthy();
    expect(sent(api)).toEqual([]);
  });

  it('keeps the old email when the change is not confirmed', async () => {
    const api = fakeServer();
    renderPage();
    await startEditing();
    await write(textbox(/^Email/), 'rita.new@example.test');
    await save();
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Change your email?' })).getByRole('button', { name: 'Cancel' }),
    );
    expect(await screen.findByText('Customer data edited.')).toBeTruthy();
    expect(sent(api)).toEqual([{ method: 'PUT', url: '/api/users/customer/5', body: formFields(rita) }]);
  });

  it('logs out after a confirmed email change', async () => {
    fakeServer({ emailChanged: true });
    const { router } = renderPage();
    await startEditing();
    await write(textbox(/^Email/), 'rita.new@example.test');
    await save();
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Change your email?' })).getByRole('button', {
        name: 'Confirm',
      }),
    );
    expect(await screen.findByText('Your email was changed. Please log in with the new email.')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(authStore.getState().token).toBeNull();
  });

  it('says when the save fails and stays in editing', async () => {
    fakeServer({ saveFails: true });
    renderPage();
    await startEditing();
    await save();
    // The server's own reason is said (lib/profile-save.ts reportSaveError); docs/product-rules.md#errors words it
    // 'error updating customer data'.
    expect(await screen.findByText('Something went wrong on our side. Please try again.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Save' })).toBeTruthy();
  });
});

/** The profile as the form sends it. */
function formFields(customer: Customer) {
  const { user_id: _userId, customer_id: _customerId, ...fields } = customer;
  return fields;
}
